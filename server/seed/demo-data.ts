import { SQL, and, count, desc, eq, gte, isNull, notInArray, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { periodLength, type BillingFrequency } from "../../domain/billing";
import { localDay, localInstant, localWeekStart, startOfLocalDay } from "../../domain/dates";
import { lastDay } from "../calendar/recurrence";
import { subscriptionState, type SubscriptionState } from "../../domain/subscription";
import { hashPassword } from "../core/auth/password";
import type { Db } from "../core/db/client";
import {
  appointments,
  recurring_schedules,
  access_control_credentials,
  class_bookings,
  class_occurrences,
  class_types,
  bank_connections,
  conversations,
  subscription_pauses,
  destination_accounts,
  gyms,
  messages,
  offering_gyms,
  offering_hours,
  offerings,
  organisation_users,
  organisations,
  payment_adjustments,
  payment_types,
  payments,
  price_changes,
  prices,
  subscriptions,
  users,
  visits,
} from "../core/db/schema";
import { Stage, insertAll, insertReturningIds } from "./bulk-insert";
import { addStaff, makeOrganisation, makeUser } from "./factories";
import { chargeKey } from "../billing/plan";
import { directDebitChargeback, disputeChargeback, recordChargeback } from "../billing/chargebacks";
import { RECENT_HOURS } from "../member-notices/payment-mail";
import { seedClasses, type ClassSeedPerson } from "./demo-classes";

/**
 * The demo data set: two organisations, four gyms, three sign-in accounts and `members` more members
 * with a year of subscriptions, payments, visits and (in Demo Fitness) messages.
 *
 * Deterministic: every random choice comes from a seeded PRNG (one stream per member, so the data for
 * member N never depends on how many members come before it or on the batch size), and every date is
 * relative to `opts.now`. Two runs with the same `members` and `now` give the same rows.
 *
 * Fast: members are built and written CHUNK at a time (so 100,000 members never sit in memory at once),
 * a thousand rows a statement (bulk-insert.ts), all inside one transaction (so a failed seed leaves nothing
 * behind). Their rows are staged and moved into the tables at the end, one statement a table, so that the
 * triggers keeping the derived columns and the rollups run once over the whole load (`Stage` says why).
 */

export const DEMO_PASSWORD = "demo-gym-pass";
export const DEMO_ACCOUNTS = {
  admin: "admin@example.com",
  trainer: "trainer@example.com",
  member: "member@example.com",
} as const;
export const DEFAULT_DEMO_MEMBERS = 300;

const SEED = 20_240_601;
/**
 * The tables members' rows are staged for, in the order they are moved: each after the tables it refers to,
 * and the memberships last. Their row triggers then find every subscription and visit in place; moved first,
 * each membership would be written again by the subscriptions' and visits' triggers.
 */
const MEMBER_TABLES: PgTable[] = [users, payment_types, subscriptions, payments, visits, organisation_users];
const CHUNK = 1000;
/** Payments are made for at most this many of a subscription's most recent periods. */
const MAX_PAYMENTS_PER_SUBSCRIPTION = 26;
/** Visits go back a year (the README's promise), so every month of the dashboard's year has some. */
const VISIT_WINDOW_DAYS = 365;
const COOLING_OFF_DAYS = 14;
/** Enough people to fill every class of a gym's week several times over, however many members there are. */
const CLASS_POOL_PER_GYM = 1500;

export interface SeedDemoOptions {
  /** Members besides the three sign-in accounts (default 300). */
  members?: number;
  /** The moment the demo is "now": subscriptions, payments and visits are laid out around it. */
  now?: Date;
}

export interface DemoSummary {
  organisations: number;
  gyms: number;
  users: number;
  members: number;
  offerings: number;
  prices: number;
  subscriptions: number;
  subscription_states: Record<SubscriptionState, number>;
  payment_types: number;
  payments: number;
  failed_payments: number;
  visits: number;
  visits_today: number;
  conversations: number;
  messages: number;
  unread_member_messages: number;
  class_types: number;
  classes: number;
  class_bookings: number;
}

export async function seedDemo(db: Db, opts: SeedDemoOptions = {}): Promise<DemoSummary> {
  const memberCount = opts.members ?? DEFAULT_DEMO_MEMBERS;
  if (!Number.isInteger(memberCount) || memberCount < 0) throw new Error(`members must be a whole number of 0 or more, not ${memberCount}`);
  const cal = new Calendar(opts.now ?? new Date());
  // Hashed once (scrypt is slow by design) and shared by the three sign-in accounts.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  return db.transaction(async (tx) => {
    const world = await seedOrganisations(tx, cal);
    const catalogue = await seedOfferings(tx, world, cal);
    const people = await seedStaffAndMember(tx, world, cal, passwordHash);
    const stage = await Stage.create(tx, MEMBER_TABLES);
    const ctx: MemberContext = { cal, world, catalogue, adminId: people.admin.id, states: emptyStates(), chatPool: [], classPool: [], poolCounts: {}, stage, visitsToday: 0 };

    // Morgan Member goes through the same pipeline as everyone else, with a fixed plan.
    await writeMembers([planMorgan(people.member, ctx)], ctx);
    for (let first = 0; first < memberCount; first += CHUNK) {
      const plans: MemberPlan[] = [];
      for (let i = first; i < Math.min(first + CHUNK, memberCount); i++) plans.push(planMember(i, ctx));
      await writeMembers(plans, ctx);
    }
    await seedVisitsToday(ctx);
    await stage.moveAll();

    await seedConversations(tx, ctx, people);
    await seedCalendar(tx, ctx, people);
    const r = Rng.for(STREAM.classes, 0);
    await seedClasses(tx, {
      now: cal.now,
      today: cal.today,
      at: (day, minutes) => cal.at(day, minutes),
      demo: { id: world.demo.id, gymIds: world.demo.gyms.map((g) => g.id) },
      harbour: { id: world.harbour.id, gymIds: world.harbour.gyms.map((g) => g.id) },
      trainerId: people.trainer.id,
      adminId: people.admin.id,
      morganId: people.member.id,
      pool: ctx.classPool,
      random: () => r.float(),
    });
    await seedDoorAccessAndPriceChanges(tx, people.admin.id);
    await seedMoneyGivenBack(tx, ctx);
    await markPaymentMailSent(tx, cal.now);
    return summarise(tx, ctx);
  });
}

/**
 * The seeded history's payments were e-mailed about when they were paid: without this, the first run of the
 * member-mail job (server/member-notices/payment-mail.ts) would send receipts for the last two days of made-up payments.
 */
async function markPaymentMailSent(db: Db, now: Date) {
  const since = new Date(now.getTime() - RECENT_HOURS * 3_600_000);
  await db.execute(sql`
    insert into billing_notices (organisation_id, user_id, kind, key, payment_id, subscription_id, emailed)
    select organisation_id, user_id, 'receipt', 'receipt:' || id, id, subscription_id, false
    from payments where status = 'sent' and paid_at > ${since.toISOString()}::timestamptz
    on conflict (key) do nothing`);
}

// ───────────────────────────── randomness ─────────────────────────────

/** mulberry32: a tiny, fast, seedable PRNG (32-bit state). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix32(a: number) {
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return (a ^ (a >>> 16)) >>> 0;
}

class Rng {
  private next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** An independent stream for item `index` of kind `stream`. */
  static for(stream: number, index: number) {
    return new Rng(mix32(SEED ^ mix32(stream * 0x9e3779b1 + index + 1)));
  }
  float() {
    return this.next();
  }
  /** Whole number in [min, max]. */
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [value, w] of entries) if ((x -= w) < 0) return value;
    return entries[entries.length - 1][0];
  }
  digits(n: number) {
    let s = "";
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 10);
    return s;
  }
  uuid() {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = "4";
    hex[16] = "89ab"[Math.floor(this.next() * 4)];
    const h = hex.join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

const STREAM = { world: 1, member: 2, morgan: 3, today: 4, chat: 5, classes: 6 } as const;

// ───────────────────────────── Auckland calendar days ─────────────────────────────

/** Calendar days are "yyyy-MM-dd" strings in Pacific/Auckland; arithmetic on them is DST-free. */
type Day = string;

const pad = (n: number) => String(n).padStart(2, "0");
const dayOf = (d: Date): Day => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const utcOf = (day: Day) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
const addDays = (day: Day, n: number): Day => {
  const d = utcOf(day);
  d.setUTCDate(d.getUTCDate() + n);
  return dayOf(d);
};
/** Adds months, keeping the day of month (clamped to the month's last day). */
const addMonths = (day: Day, n: number): Day => {
  const [y, m, d] = day.split("-").map(Number);
  const last = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(y, m - 1 + n, Math.min(d, last))));
};
const daysBetween = (from: Day, to: Day) => Math.round((utcOf(to).getTime() - utcOf(from).getTime()) / 86_400_000);
/** 1 = Monday … 7 = Sunday. */
const isoWeekday = (day: Day) => ((utcOf(day).getUTCDay() + 6) % 7) + 1;
/** Month-based periods anchored on the 29th-31st drift when clamped; demo anchors avoid them. */
const clampToDay28 = (day: Day) => (Number(day.slice(8)) > 28 ? `${day.slice(0, 8)}28` : day);

function addPeriods(day: Day, frequency: BillingFrequency, n: number): Day {
  const len = periodLength(frequency);
  if (!len) return day;
  return len.months ? addMonths(day, len.months * n) : addDays(day, (len.days ?? 0) * n);
}

class Calendar {
  readonly today: Day;
  /** Minutes since midnight, Auckland wall-clock, of `now`. */
  readonly nowMinutes: number;
  private noons = new Map<Day, number>();
  private midnights = new Map<Day, Date>();

  constructor(readonly now: Date) {
    this.today = localDay(now);
    this.nowMinutes = Math.floor((now.getTime() - this.noon(this.today)) / 60_000) + 720;
  }
  /** The instant the Auckland day begins. */
  start(day: Day): Date {
    let d = this.midnights.get(day);
    if (!d) this.midnights.set(day, (d = startOfLocalDay(day)));
    return d;
  }
  /** The instant of wall-clock `minutes` after midnight on `day` (exact from 03:00, i.e. past any DST change). */
  at(day: Day, minutes: number): Date {
    return new Date(this.noon(day) + (minutes - 720) * 60_000);
  }
  daysAgo(n: number): Day {
    return addDays(this.today, -n);
  }
  /** The last `n` days up to today, oldest first, with their weekdays (cached: every member's visits walk them). */
  recentDays(n: number): { day: Day; weekday: number }[] {
    if (this.recent?.length !== n) {
      this.recent = Array.from({ length: n }, (_, i) => this.daysAgo(n - 1 - i)).map((day) => ({ day, weekday: isoWeekday(day) }));
    }
    return this.recent;
  }
  private recent?: { day: Day; weekday: number }[];
  private noon(day: Day): number {
    let t = this.noons.get(day);
    if (t === undefined) this.noons.set(day, (t = localInstant(day, "12:00").getTime()));
    return t;
  }
}

// ───────────────────────────── organisations and gyms ─────────────────────────────

interface GymInfo {
  id: number;
  name: string;
  organisationId: number;
  destinationAccountId: number;
  suburbs: readonly (readonly [string, string])[];
}
interface OrgInfo {
  id: number;
  name: string;
  gyms: GymInfo[];
  /** Share of the organisation's members whose home gym this is, by gym index. */
  gymWeights: number[];
  graceDays: number;
}
interface World {
  demo: OrgInfo;
  harbour: OrgInfo;
}

const SUBURBS = {
  central: [["Auckland Central", "1010"], ["Grey Lynn", "1021"], ["Mt Eden", "1024"], ["Grafton", "1023"], ["Parnell", "1052"], ["Kingsland", "1021"]],
  ponsonby: [["Ponsonby", "1011"], ["Herne Bay", "1011"], ["Westmere", "1022"], ["Freemans Bay", "1011"], ["Grey Lynn", "1021"]],
  newmarket: [["Newmarket", "1023"], ["Remuera", "1050"], ["Epsom", "1023"], ["Greenlane", "1051"], ["Ellerslie", "1051"]],
  devonport: [["Devonport", "0624"], ["Takapuna", "0622"], ["Belmont", "0622"], ["Bayswater", "0622"], ["Stanley Point", "0624"]],
} as const;

/** Demo Fitness's membership terms (issue 31): what its members accept on the confirm page. */
const DEMO_TERMS = [
  "1. Your membership carries on, and is charged as the confirm page shows, until you or the gym cancel it.",
  "2. You may cancel at any time: your access lasts until the end of the period you have paid for. A term membership cancelled after its cooling-off period pays the break fee its price shows.",
  "3. A payment that does not go through is tried again; your access continues for the grace period and stops if it is still unpaid after that.",
  "4. You may pause your membership for holidays or injury by asking the front desk; nothing is charged while it is paused.",
  "5. Look after the equipment, wipe it down after use, and follow staff instructions. The gym may end the membership of anyone who puts others at risk.",
].join("\n\n");

async function seedOrganisations(db: Db, cal: Calendar): Promise<World> {
  const r = Rng.for(STREAM.world, 0);
  const founded = cal.start(addDays(cal.today, -3 * 365));
  const demo = await makeOrganisation(db, {
    name: "Demo Fitness",
    multi_gym: true,
    calendar_and_messaging: true,
    price_frequencies: { weekly: true, fortnightly: true, monthly: true, quarterly: true, six_monthly: true, yearly: true },
    failed_payment_grace_period: 7,
    failed_payment_grace_period_unit: "day",
    membership_terms_text: DEMO_TERMS,
    created_at: founded,
    updated_at: founded,
  });
  const harbour = await makeOrganisation(db, {
    name: "Harbour Strength",
    multi_gym: false,
    calendar_and_messaging: false,
    price_frequencies: { weekly: true, fortnightly: true, monthly: true, quarterly: false, six_monthly: false, yearly: true },
    failed_payment_grace_period: 5,
    failed_payment_grace_period_unit: "day",
    term_membership_grace_period: 1,
    term_membership_grace_period_unit: "month",
    created_at: founded,
    updated_at: founded,
  });

  const specs = [
    { org: demo, name: "Demo Fitness Central", suburbs: SUBURBS.central, bank: "12-3140-0712345-00", gc: true },
    { org: demo, name: "Demo Fitness Ponsonby", suburbs: SUBURBS.ponsonby, bank: "12-3140-0712345-01", gc: true },
    { org: demo, name: "Demo Fitness Newmarket", suburbs: SUBURBS.newmarket, bank: "02-0248-0398112-00", gc: false },
    { org: harbour, name: "Harbour Strength Devonport", suburbs: SUBURBS.devonport, bank: "38-9017-0234567-00", gc: false },
  ];
  const gymRows = await db
    .insert(gyms)
    .values(
      specs.map((s, i) => ({
        organisation_id: s.org.id,
        name: s.name,
        uuid: r.uuid(),
        // The organisation's logo on each of its gyms (public/demo/): the sign-up pages show it.
        logo: s.org.id === demo.id ? "/demo/demo-fitness.svg" : "/demo/harbour-strength.svg",
        stripe_id: `acct_demo${String(i + 1).padStart(12, "0")}`,
        gocardless_organisation_id: s.gc ? `OR0000DEMO${i + 1}` : null,
        price_change_notification_reply_to: s.org.id === demo.id ? "hello@demofitness.example.com" : "team@harbourstrength.example.com",
        break_fee_percentage: s.org.id === demo.id ? 25 : null,
        tracks_visits: true,
        created_at: founded,
        updated_at: founded,
      })),
    )
    .returning();
  const byName = new Map(gymRows.map((g) => [g.name, g]));
  const accounts = await db
    .insert(destination_accounts)
    .values(specs.map((s) => ({ organisation_id: s.org.id, gym_id: byName.get(s.name)!.id, name: s.name, bank_account_number: s.bank, created_at: founded })))
    .returning();

  const info = (orgId: number): GymInfo[] =>
    specs
      .filter((s) => s.org.id === orgId)
      .map((s) => {
        const g = byName.get(s.name)!;
        return { id: g.id, name: g.name, organisationId: orgId, destinationAccountId: accounts.find((a) => a.gym_id === g.id)!.id, suburbs: s.suburbs };
      });
  return {
    demo: { id: demo.id, name: demo.name, gyms: info(demo.id), gymWeights: [45, 30, 25], graceDays: 7 },
    harbour: { id: harbour.id, name: harbour.name, gyms: info(harbour.id), gymWeights: [1], graceDays: 5 },
  };
}

// ───────────────────────────── offerings and prices ─────────────────────────────

interface PriceInfo {
  id: number;
  organisationId: number;
  offeringId: number;
  offeringName: string;
  limitedHours: boolean;
  allGyms: boolean;
  gymIds: number[];
  amount: number;
  frequency: BillingFrequency;
  term: { amount: number; unit: "month" } | null;
  /** How long a PIF (one_off) price pays for. */
  pifMonths: number | null;
  /** How often members pick this price among its kind. */
  weight: number;
  private: boolean;
  archived: boolean;
}
type Catalogue = Map<number, PriceInfo[]>;

interface PriceSpec {
  amount: number;
  frequency: BillingFrequency;
  joiningFee?: number;
  term?: 6 | 12;
  pifMonths?: number;
  weight?: number;
  private?: boolean;
  archivedDaysAgo?: number;
}
interface OfferingSpec {
  name: string;
  description: string;
  type: "24_7" | "limited_access";
  /** Gym indexes the offering is sold at; omitted means all_gyms_access. */
  gyms?: number[];
  offPeakHours?: boolean;
  prices: PriceSpec[];
}

const OFFERINGS: Record<"demo" | "harbour", OfferingSpec[]> = {
  demo: [
    {
      name: "Anytime 24/7",
      description: "Round-the-clock access to every Demo Fitness gym.",
      type: "24_7",
      prices: [
        { amount: 1999, frequency: "weekly", joiningFee: 4900, weight: 40 },
        { amount: 3998, frequency: "fortnightly", joiningFee: 4900, weight: 18 },
        { amount: 7900, frequency: "monthly", weight: 12 },
        { amount: 22_900, frequency: "quarterly", weight: 4 },
        { amount: 43_900, frequency: "twice_yearly", weight: 3 },
        { amount: 82_900, frequency: "yearly", weight: 3 },
        { amount: 1699, frequency: "weekly", term: 12 },
        { amount: 79_900, frequency: "one_off", pifMonths: 12 },
        { amount: 1799, frequency: "weekly", archivedDaysAgo: 240, weight: 4 },
      ],
    },
    {
      name: "Off-Peak",
      description: "Weekday access between 9 am and 4 pm.",
      type: "limited_access",
      gyms: [0, 1, 2],
      offPeakHours: true,
      prices: [
        { amount: 1299, frequency: "weekly", joiningFee: 2500, weight: 12 },
        { amount: 9900, frequency: "bi_monthly", weight: 3 },
        { amount: 4500, frequency: "monthly", private: true, weight: 2 },
      ],
    },
    {
      name: "Student",
      description: "24/7 access for full-time students with a current student ID.",
      type: "24_7",
      gyms: [0, 2],
      prices: [
        { amount: 1499, frequency: "weekly", weight: 10 },
        { amount: 1299, frequency: "weekly", term: 6 },
      ],
    },
  ],
  harbour: [
    {
      name: "Anytime 24/7",
      description: "Lift whenever you like.",
      type: "24_7",
      prices: [
        { amount: 2499, frequency: "weekly", joiningFee: 9900, weight: 30 },
        { amount: 9900, frequency: "monthly", weight: 10 },
        { amount: 99_900, frequency: "yearly", weight: 3 },
        { amount: 2199, frequency: "weekly", term: 12 },
        { amount: 29_900, frequency: "one_off", pifMonths: 3 },
      ],
    },
    {
      name: "Off-Peak",
      description: "Weekdays 9 am to 4 pm, when the platforms are free.",
      type: "limited_access",
      gyms: [0],
      offPeakHours: true,
      prices: [
        { amount: 1599, frequency: "weekly", weight: 8 },
        { amount: 329, frequency: "daily", weight: 3 },
      ],
    },
    {
      name: "Student",
      description: "For students with a current ID.",
      type: "24_7",
      prices: [
        { amount: 2998, frequency: "fortnightly", weight: 6 },
        { amount: 1699, frequency: "weekly", term: 6 },
      ],
    },
  ],
};

async function seedOfferings(db: Db, world: World, cal: Calendar): Promise<Catalogue> {
  const r = Rng.for(STREAM.world, 1);
  const launched = cal.start(addDays(cal.today, -2 * 365));
  const catalogue: Catalogue = new Map();
  for (const [key, org] of [["demo", world.demo], ["harbour", world.harbour]] as const) {
    const list: PriceInfo[] = [];
    for (const spec of OFFERINGS[key]) {
      const [offering] = await db
        .insert(offerings)
        .values({
          organisation_id: org.id,
          name: spec.name,
          description: spec.description,
          type: spec.type,
          all_gyms_access: !spec.gyms,
          hours_mandated: !!spec.offPeakHours,
          created_at: launched,
          updated_at: launched,
        })
        .returning();
      const gymIds = (spec.gyms ?? org.gyms.map((_, i) => i)).map((i) => org.gyms[i].id);
      if (spec.gyms) await db.insert(offering_gyms).values(gymIds.map((gym_id) => ({ organisation_id: org.id, offering_id: offering.id, gym_id })));
      if (spec.offPeakHours) {
        await db
          .insert(offering_hours)
          .values([1, 2, 3, 4, 5].map((day) => ({ organisation_id: org.id, offering_id: offering.id, day, open_at: "09:00", close_at: "16:00" })));
      }
      const rows = await db
        .insert(prices)
        .values(
          spec.prices.map((p) => ({
            organisation_id: org.id,
            offering_id: offering.id,
            amount: p.amount,
            billing_frequency: p.frequency,
            joining_fee: p.joiningFee ?? 0,
            private: !!p.private,
            term_amount: p.term ?? null,
            term_unit: p.term ? "month" : null,
            grouping_unique_identifier: r.uuid(),
            archived_at: p.archivedDaysAgo ? cal.start(cal.daysAgo(p.archivedDaysAgo)) : null,
            created_at: launched,
            updated_at: launched,
          })),
        )
        .returning({ id: prices.id });
      spec.prices.forEach((p, i) =>
        list.push({
          id: rows[i].id,
          organisationId: org.id,
          offeringId: offering.id,
          offeringName: spec.name,
          limitedHours: spec.type === "limited_access",
          allGyms: !spec.gyms,
          gymIds,
          amount: p.amount,
          frequency: p.frequency,
          term: p.term ? { amount: p.term, unit: "month" } : null,
          pifMonths: p.pifMonths ?? null,
          weight: p.weight ?? 1,
          private: !!p.private,
          archived: p.archivedDaysAgo != null,
        }),
      );
    }
    catalogue.set(org.id, list);
  }
  return catalogue;
}

// ───────────────────────────── sign-in accounts ─────────────────────────────

interface People {
  admin: typeof users.$inferSelect;
  trainer: typeof users.$inferSelect;
  member: typeof users.$inferSelect;
}

async function seedStaffAndMember(db: Db, world: World, cal: Calendar, passwordHash: string): Promise<People> {
  const { demo, harbour } = world;
  const joined = cal.start(addDays(cal.today, -2 * 365));
  const common = { password_hash: passwordHash, email_verified_at: joined, created_at: joined, updated_at: joined };

  const admin = await makeUser(db, {
    ...common,
    name: "Alex Admin",
    email: DEMO_ACCOUNTS.admin,
    mobile_number: "021 555 0100",
    current_organisation_id: demo.id,
    current_gym_id: demo.gyms[0].id,
  });
  await addStaff(db, admin.id, demo.id, "admin", demo.gyms.map((g) => ({ gymId: g.id, role: "admin" as const })));
  await addStaff(db, admin.id, harbour.id, "admin", harbour.gyms.map((g) => ({ gymId: g.id, role: "admin" as const })));

  const trainer = await makeUser(db, {
    ...common,
    name: "Taylor Trainer",
    email: DEMO_ACCOUNTS.trainer,
    mobile_number: "022 555 0101",
    calendar_colour: "purple",
    current_organisation_id: demo.id,
    current_gym_id: demo.gyms[0].id,
  });
  await addStaff(db, trainer.id, demo.id, "personal_trainer", [{ gymId: demo.gyms[0].id, role: "personal_trainer" }]);

  // Morgan's organisation membership, subscription, payments and visits come from planMorgan().
  const member = await makeUser(db, {
    ...common,
    name: "Morgan Member",
    email: DEMO_ACCOUNTS.member,
    mobile_number: "027 555 0102",
    dob: "1992-03-14",
    address: "12 Ponsonby Road",
    suburb: "Grey Lynn",
    city: "Auckland",
    post_code: "1021",
    confidence_and_experience: "been_but_stopped_going",
    hear_about_us: "friend",
    emergency_contact_name: "Jamie Member",
    emergency_contact_number: "021 555 0199",
    emergency_contact_relationship: "Partner",
    current_organisation_id: demo.id,
    current_gym_id: demo.gyms[0].id,
  });
  return { admin, trainer, member };
}

// ───────────────────────────── member plans ─────────────────────────────

/**
 * What the demo means by a subscription's story; each maps onto a SPEC §4 state
 * (term and PIF subscriptions are active; both cancelled kinds are cancelled).
 */
type Story =
  | "active"
  | "term"
  | "pif"
  | "paused"
  | "cancelled_in_period"
  | "cancelled_lapsed"
  | "grace_period"
  | "upcoming"
  | "upcoming_failed";

/** The first members get one story each, so even a tiny demo shows every state. */
const STORY_ORDER: Story[] = ["active", "paused", "cancelled_in_period", "grace_period", "upcoming", "term", "pif", "cancelled_lapsed", "upcoming_failed"];
const STORY_WEIGHTS: [Story, number][] = [
  ["active", 54],
  ["term", 10],
  ["pif", 5],
  ["paused", 7],
  ["cancelled_in_period", 5],
  ["cancelled_lapsed", 8],
  ["grace_period", 6],
  ["upcoming", 4],
  ["upcoming_failed", 1],
];

type NewUser = typeof users.$inferInsert;
type NewSubscription = typeof subscriptions.$inferInsert;
type NewPayment = typeof payments.$inferInsert;
type PaymentKind = "bank_account" | "stripe_card" | "gocardless_bank_account";

interface MemberPlan {
  rng: Rng;
  /** Set for an existing user (Morgan); otherwise `user` is inserted. */
  userId?: number;
  user: NewUser;
  org: OrgInfo;
  gym: GymInfo;
  tags: string[];
  notes: string | null;
  pendingInvite: boolean;
  joinedAt: Date;
  paymentType: { type: PaymentKind; details: Record<string, string | number> } | null;
  subscription: SubscriptionPlan | null;
  /** Visits per week while the membership runs. */
  visitRate: number;
  /** Preferred time of day: minutes after midnight the visits fall between. */
  visitSlot: [number, number];
}

interface SubscriptionPlan {
  story: Story;
  price: PriceInfo;
  row: Omit<NewSubscription, "user_id" | "organisation_id" | "gym_id" | "price_id">;
  /** Start days of the periods billed so far (most recent MAX_PAYMENTS_PER_SUBSCRIPTION). */
  billed: Day[];
  /** Visits happen from this day to `visitsUntil` (inclusive), if the member visits at all. */
  visitsFrom: Day | null;
  visitsUntil: Day | null;
}

interface MemberContext {
  cal: Calendar;
  world: World;
  catalogue: Catalogue;
  adminId: number;
  states: Record<SubscriptionState, number>;
  /** A few Demo Fitness members with running memberships, for the conversations. */
  chatPool: { userId: number; name: string; gymId: number }[];
  /** Members with running memberships who book the demo's classes (demo-classes.ts), up to CLASS_POOL_PER_GYM a gym. */
  classPool: ClassSeedPerson[];
  poolCounts: Record<number, number>;
  /** Where the members' rows wait until every member is written. */
  stage: Stage;
  /** Visits staged so far that fall on today. */
  visitsToday: number;
}

const FIRST_NAMES = [
  "Aroha", "Mere", "Tama", "Wiremu", "Hemi", "Anahera", "Manaia", "Ngaio", "Kiri", "Rāwiri", "Tāne", "Hana", "Nikau", "Ariana",
  "Sione", "Losa", "Mele", "Tevita", "Sina", "Olivia", "Charlotte", "Isla", "Amelia", "Ella", "Mia", "Harper", "Sophie", "Ruby",
  "Emily", "Lily", "Grace", "Zoe", "Jack", "Oliver", "Noah", "Leo", "George", "Lucas", "Liam", "Hunter", "James", "William",
  "Charlie", "Mason", "Thomas", "Arlo", "Max", "Ethan", "Priya", "Arjun", "Wei", "Jia", "Min-jun", "Hiroshi", "Aisha", "Sam",
  "Riley", "Jordan", "Kahu", "Sarah", "Michelle", "Karen", "David", "Mark", "Andrew", "Rachel", "Nicola", "Hayley", "Brendon",
  "Shane", "Kylie", "Te Ao", "Moana", "Fetu", "Ana", "Ravi", "Mei", "Connor", "Jessica", "Hamish", "Fergus", "Bridget",
];
const LAST_NAMES = [
  "Smith", "Wilson", "Williams", "Brown", "Taylor", "Jones", "Walker", "Thompson", "Anderson", "White", "Harris", "Martin",
  "Clarke", "Young", "King", "Campbell", "Robinson", "Ngata", "Parata", "Te Whata", "Tipene", "Rangi", "Kereama", "Tamihana",
  "Waaka", "Tuhiwai", "Fonoti", "Tupou", "Faleolo", "Leaupepe", "Taufa", "Patel", "Singh", "Sharma", "Chen", "Wang", "Li",
  "Zhang", "Kim", "Nguyen", "Tanaka", "van der Berg", "O'Connor", "McDonald", "Fraser", "Murray", "Stewart", "Bell", "Hughes",
  "Davies", "Mitchell", "Scott", "Reid", "Ranginui", "Herewini", "Pōtae", "Lemalu", "Sapolu", "Morrison", "Gallagher",
];
const STREETS = ["Queen Street", "Karangahape Road", "Ponsonby Road", "Jervois Road", "Broadway", "Remuera Road", "Dominion Road", "Great North Road", "Symonds Street", "Lake Road", "Victoria Road", "Hurstmere Road", "Khyber Pass Road", "Williamson Avenue"];
const TAGS = ["student", "corporate", "early-bird", "referral", "personal-training", "returning"] as const;
const CONFIDENCE = ["first_time", "been_but_not_sure_what_to_do", "been_but_not_achieved_goals", "been_but_stopped_going", "experienced_and_confident"];
const HEAR_ABOUT = ["friend", "physical_marketing", "google_advert", "facebook_or_instagram", "google_search", "been_member_here_before", "other"];
const RELATIONSHIPS = ["Partner", "Mother", "Father", "Sister", "Brother", "Friend", "Flatmate"];
const NOTES = [
  "Prefers morning PT sessions.",
  "Recovering from a knee injury — check in before heavy leg work.",
  "Corporate rate through Fonterra.",
  "Asked about the student discount; brought ID.",
  "Interested in the Saturday bootcamp.",
  "Referred by a friend — owes them a free week.",
];
const VISIT_SLOTS: [number, number][] = [
  [5 * 60 + 30, 8 * 60 + 30], // before work
  [11 * 60 + 30, 14 * 60], // lunch
  [16 * 60 + 30, 20 * 60 + 30], // after work
  [8 * 60, 21 * 60], // any time
];
const OFF_PEAK_SLOT: [number, number] = [9 * 60, 15 * 60 + 45];

const asciiName = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z]/g, "");

function planMember(index: number, ctx: MemberContext): MemberPlan {
  const r = Rng.for(STREAM.member, index);
  const { cal, world } = ctx;
  const org = r.chance(0.8) ? world.demo : world.harbour;
  const gym = org.gyms[r.weighted(org.gymWeights.map((w, i) => [i, w] as const))];
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const [suburb, postCode] = r.pick(gym.suburbs);
  const forced = index < STORY_ORDER.length ? STORY_ORDER[index] : undefined;
  const subscribed = forced !== undefined || r.chance(0.9);

  const tags: string[] = [];
  if (r.chance(0.3)) tags.push(r.pick(TAGS));
  if (r.chance(0.08)) tags.push(r.pick(TAGS));
  const subscription = subscribed ? planSubscription(r, ctx, org, gym, forced ?? r.weighted(STORY_WEIGHTS), tags) : null;
  const joinedAt = subscription ? (subscription.row.created_at as Date) : cal.start(cal.daysAgo(r.int(1, 365)));
  const invited = !subscription || r.chance(0.3);

  return {
    rng: r,
    user: {
      name: `${first} ${last}`,
      email: `${asciiName(first)}.${asciiName(last)}.${index + 1}@example.net`,
      mobile_number: `${r.pick(["021", "022", "027", "029"])} 555 ${r.digits(4)}`,
      dob: `${r.int(1962, 2007)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`,
      address: `${r.int(1, 240)} ${r.pick(STREETS)}`,
      suburb,
      city: "Auckland",
      post_code: postCode,
      confidence_and_experience: r.chance(0.7) ? r.pick(CONFIDENCE) : null,
      hear_about_us: r.chance(0.7) ? r.pick(HEAR_ABOUT) : null,
      ...(r.chance(0.5)
        ? {
            emergency_contact_name: `${r.pick(FIRST_NAMES)} ${last}`,
            emergency_contact_number: `${r.pick(["021", "022", "027"])} 555 ${r.digits(4)}`,
            emergency_contact_relationship: r.pick(RELATIONSHIPS),
          }
        : {}),
      email_notifications: r.chance(0.9),
      push_notifications: r.chance(0.7),
      payment_reminders: r.chance(0.85),
      invited_at: invited ? joinedAt : null,
      created_at: joinedAt,
      updated_at: joinedAt,
    },
    org,
    gym,
    tags: [...new Set(tags)],
    notes: r.chance(0.1) ? r.pick(NOTES) : null,
    pendingInvite: invited && r.chance(0.5),
    joinedAt,
    paymentType: subscription ? planPaymentType(r, `${first} ${last}`, cal) : null,
    subscription,
    visitRate: r.int(1, 5),
    visitSlot: subscription?.price.limitedHours ? OFF_PEAK_SLOT : r.pick(VISIT_SLOTS),
  };
}

/** Morgan Member: Demo Fitness Central, weekly Anytime 24/7 for about eight months, card on file, visits four times a week. */
function planMorgan(user: typeof users.$inferSelect, ctx: MemberContext): MemberPlan {
  const r = Rng.for(STREAM.morgan, 0);
  const org = ctx.world.demo;
  const gym = org.gyms[0];
  const price = ctx.catalogue.get(org.id)!.find((p) => p.offeringName === "Anytime 24/7" && p.frequency === "weekly" && !p.term && !p.archived)!;
  const subscription = subscriptionFor(r, ctx, org, gym, "active", price, ctx.cal.daysAgo(240));
  return {
    rng: r,
    userId: user.id,
    user: { name: user.name, email: user.email },
    org,
    gym,
    tags: ["early-bird"],
    notes: "Likes the 6 am classes.",
    pendingInvite: false,
    joinedAt: subscription.row.created_at as Date,
    paymentType: { type: "stripe_card", details: { type: "visa", last_four: "4242", exp_month: 8, exp_year: Number(ctx.cal.today.slice(0, 4)) + 2, country: "NZ" } },
    subscription,
    visitRate: 4,
    visitSlot: VISIT_SLOTS[0],
  };
}

function planPaymentType(r: Rng, name: string, cal: Calendar): MemberPlan["paymentType"] {
  const year = Number(cal.today.slice(0, 4));
  const bank = () => `${r.pick(["01", "02", "06", "12", "38"])}-${r.digits(4)}-0${demoAccount(r.digits(6))}-0${r.int(0, 3)}`;
  const type = r.weighted<PaymentKind>([["bank_account", 40], ["stripe_card", 40], ["gocardless_bank_account", 20]]);
  if (type === "stripe_card") {
    return {
      type,
      details: { type: r.chance(0.75) ? "visa" : "mastercard", last_four: demoCard(r.digits(4)), exp_month: r.int(1, 12), exp_year: r.int(year + 1, year + 5), country: "NZ" },
    };
  }
  if (type === "gocardless_bank_account") {
    return { type, details: { name, account_number: bank(), mandate_id: `MD000${r.digits(3)}${r.int(100_000, 999_999).toString(36).toUpperCase()}` } };
  }
  const account = bank();
  // Connected through the sandbox Akahu when they joined: the account they chose to pay from (its id carries its number).
  return { type, details: { name, account_number: account, status: r.chance(0.95) ? "active" : "pending_verification", akahu_account_id: `acc_sandbox_${account.replace(/\D/g, "")}` } };
}

/**
 * About one card in sixteen is one of Stripe's test cards that decline (the sandbox charges by the last four
 * digits), so the billing run meets insufficient funds, a generic decline and an expired card as days pass in
 * the demo. Decided from digits already drawn, so the rest of the demo stays as it was.
 */
function demoCard(digits: string): string {
  const n = Number(digits) % 100;
  if (n < 4) return "9995";
  if (n === 4) return "0002";
  if (n === 5) return "0069";
  return digits;
}

/**
 * Likewise about one bank account in sixteen is one of the sandboxes' test accounts (server/core/providers/sandbox-accounts.ts):
 * insufficient funds, a refusal, a closed account, or (paying by bank through Akahu) one whose payments wait for the
 * member's approval. The other digits stay as drawn.
 */
function demoAccount(digits: string): string {
  const n = Number(digits) % 100;
  const last = n < 3 ? "9995" : n === 3 ? "0002" : n === 4 ? "9987" : n === 5 ? "4000" : null;
  return last ? digits.slice(0, 2) + last : digits;
}

/** Picks a price that suits the story and the member's gym, then lays the subscription out in time. */
function planSubscription(r: Rng, ctx: MemberContext, org: OrgInfo, gym: GymInfo, story: Story, tags: string[]): SubscriptionPlan {
  const sold = ctx.catalogue.get(org.id)!.filter((p) => p.allGyms || p.gymIds.includes(gym.id));
  let pool: PriceInfo[];
  if (story === "term") pool = sold.filter((p) => p.term);
  else if (story === "pif") pool = sold.filter((p) => p.frequency === "one_off");
  else {
    pool = sold.filter((p) => !p.term && p.frequency !== "one_off");
    // Only people who joined before it was archived (and have since left, mostly) are on the old price.
    if (story !== "cancelled_lapsed" && story !== "active") pool = pool.filter((p) => !p.archived);
  }
  const price = r.weighted(pool.map((p) => [p, p.weight] as const));
  if (price.offeringName === "Student" && !tags.includes("student")) tags.push("student");
  if (price.private && !tags.includes("corporate")) tags.push("corporate");

  let anchor: Day;
  const { cal } = ctx;
  switch (story) {
    case "upcoming":
    case "upcoming_failed":
      anchor = cal.daysAgo(-r.int(1, 21));
      break;
    case "term":
      // Some have finished their term and carry on at the same price.
      anchor = cal.daysAgo(r.int(1, price.term!.amount * 30 + 60));
      break;
    case "pif":
      anchor = cal.daysAgo(r.int(0, price.pifMonths! * 30 - 5));
      break;
    case "cancelled_lapsed":
      anchor = cal.daysAgo(r.int(90, 365));
      break;
    case "paused":
    case "grace_period":
      anchor = cal.daysAgo(r.int(30, 365));
      break;
    default:
      anchor = cal.daysAgo(r.int(1, 365));
  }
  if (price.archived) anchor = cal.daysAgo(r.int(250, 365));
  return subscriptionFor(r, ctx, org, gym, story, price, anchor);
}

/** The subscription row and its billed periods for a story starting on `anchorDay`. */
function subscriptionFor(r: Rng, ctx: MemberContext, org: OrgInfo, gym: GymInfo, story: Story, price: PriceInfo, anchorDay: Day): SubscriptionPlan {
  const { cal } = ctx;
  const monthly = !!periodLength(price.frequency)?.months;
  const anchor = monthly ? clampToDay28(anchorDay) : anchorDay;
  const createdAt = story.startsWith("upcoming")
    ? cal.at(cal.daysAgo(r.int(1, 10)), r.int(8 * 60, 20 * 60))
    : cal.at(addDays(anchor, -r.int(0, 7)), r.int(8 * 60, 20 * 60));
  const row: SubscriptionPlan["row"] = {
    created_at: createdAt,
    updated_at: createdAt,
    initial_state: story.startsWith("upcoming") ? "upcoming" : "active",
    billing_anchor: anchor,
  };
  const plan: SubscriptionPlan = { story, price, row, billed: [], visitsFrom: anchor, visitsUntil: cal.today };

  if (price.frequency === "one_off") {
    const ends = addMonths(anchor, price.pifMonths ?? 12);
    Object.assign(row, { current_period_start: cal.start(anchor), current_period_end: cal.start(ends), pif_ends_at: cal.start(ends) });
    plan.billed = [anchor];
    return plan;
  }

  if (story === "upcoming" || story === "upcoming_failed") {
    Object.assign(row, {
      current_period_start: cal.start(anchor),
      current_period_end: cal.start(addPeriods(anchor, price.frequency, 1)),
      upcoming_state: story === "upcoming" ? "upcoming" : "failed",
    });
    plan.visitsFrom = plan.visitsUntil = null;
    return plan;
  }

  // When billing stops: at a pause, at a cancellation in the past, or now.
  let billUntil = cal.today;
  if (story === "paused") {
    const pauseStart = cal.daysAgo(r.int(1, Math.min(20, daysBetween(anchor, cal.today) - 1)));
    const pauseEnd = cal.daysAgo(-r.int(3, 35));
    billUntil = pauseStart;
    Object.assign(row, {
      paused_at: cal.at(addDays(pauseStart, -r.int(1, 7)), r.int(9 * 60, 18 * 60)),
      pause_start_at: cal.start(pauseStart),
      pause_end_at: cal.start(pauseEnd),
    });
    plan.visitsUntil = addDays(pauseStart, -1);
  } else if (story === "cancelled_lapsed") {
    billUntil = addDays(anchor, r.int(30, Math.max(30, daysBetween(anchor, cal.today) - 30)));
  }

  const starts: Day[] = [];
  for (let d = anchor, k = 0; d <= billUntil; d = addPeriods(anchor, price.frequency, ++k)) starts.push(d);
  const current = starts[starts.length - 1];
  const currentEnd = addPeriods(current, price.frequency, 1);
  plan.billed = starts.slice(-MAX_PAYMENTS_PER_SUBSCRIPTION);
  Object.assign(row, { current_period_start: cal.start(current), current_period_end: cal.start(currentEnd) });

  if (price.term) {
    Object.assign(row, {
      cooling_period_ends_at: cal.start(addDays(anchor, COOLING_OFF_DAYS)),
      term_ends_at: cal.start(addMonths(anchor, price.term.amount)),
    });
  }

  if (story === "cancelled_in_period") {
    const at = clampToNow(cal.at(cal.daysAgo(r.int(0, Math.min(5, daysBetween(current, cal.today)))), r.int(7 * 60, 20 * 60)), cal);
    Object.assign(row, cancellation(r, at), { undo_cancellation_until: cal.start(currentEnd) });
  } else if (story === "cancelled_lapsed") {
    Object.assign(row, cancellation(r, cal.at(billUntil, r.int(9 * 60, 19 * 60))));
    plan.visitsUntil = billUntil;
  } else if (story === "grace_period") {
    // The current period's payment failed; the organisation's grace period runs from then.
    const ends = addDays(current, org.graceDays);
    row.grace_period_ends_at = cal.start(ends > cal.today ? ends : cal.daysAgo(-r.int(1, 4)));
  } else if (story === "active" && r.chance(0.03)) {
    // A scheduled move at the next renewal to another price billed as often (decision 0040: a change keeps the
    // member's billing rhythm), of the same offering if it has one, else of another sold at the member's gym.
    const movable = ctx.catalogue.get(org.id)!.filter((p) => (p.allGyms || p.gymIds.includes(gym.id)) && p.id !== price.id && !p.archived && !p.term && !p.private && p.frequency === price.frequency);
    const other = movable.find((p) => p.offeringId === price.offeringId) ?? movable[0];
    if (other) Object.assign(row, { transition_to_price_id: other.id, transition_takes_effect_at: cal.start(currentEnd), version: 2 });
  }
  return plan;
}

const CANCELLATION_REASONS = ["moving_away", "too_expensive", "injury", "not_using_it", "joined_another_gym", "other"];
const CANCELLATION_COMMENTS = ["Moving to Wellington for work.", "Money is tight at the moment.", "Doctor's orders for a few months.", null, null];

function cancellation(r: Rng, at: Date): Partial<NewSubscription> {
  return {
    cancelled_at: at,
    cancellation_reasons: [r.pick(CANCELLATION_REASONS)],
    cancellation_comments: r.pick(CANCELLATION_COMMENTS),
    updated_at: at,
  };
}

// ───────────────────────────── writing members ─────────────────────────────

/** Stages a chunk of members: users, payment types, memberships, subscriptions, payments, visits. */
async function writeMembers(plans: MemberPlan[], ctx: MemberContext) {
  const { stage } = ctx;
  const fresh = plans.filter((p) => p.userId === undefined);
  const ids = await stage.add(users, fresh.map((p) => p.user), { returnIds: true });
  fresh.forEach((p, i) => (p.userId = ids[i]));

  const withType = plans.filter((p) => p.paymentType);
  const typeIds = await stage.add(
    payment_types,
    withType.map((p) => ({ organisation_id: p.org.id, user_id: p.userId!, type: p.paymentType!.type, details: p.paymentType!.details, created_at: p.joinedAt })),
    { returnIds: true },
  );
  const paymentTypeOf = new Map(withType.map((p, i) => [p.userId!, typeIds[i]]));

  await stage.add(
    organisation_users,
    plans.map((p) => ({
      organisation_id: p.org.id,
      user_id: p.userId!,
      role: "member" as const,
      home_gym_id: p.gym.id,
      tags: p.tags,
      notes: p.notes,
      pending_invite: p.pendingInvite,
      default_payment_type_id: paymentTypeOf.get(p.userId!) ?? null,
      created_at: p.joinedAt,
    })),
  );

  const subscribed = plans.filter((p) => p.subscription);
  const subscriptionIds = await stage.add(
    subscriptions,
    subscribed.map((p) => ({ ...p.subscription!.row, organisation_id: p.org.id, gym_id: p.gym.id, user_id: p.userId!, price_id: p.subscription!.price.id })),
    { returnIds: true },
  );

  const paymentRows: NewPayment[] = [];
  const visitRows: (typeof visits.$inferInsert)[] = [];
  subscribed.forEach((p, i) => {
    const sub = p.subscription!;
    const state = subscriptionState(sub.row, ctx.cal.now);
    ctx.states[state]++;
    paymentRows.push(...buildPayments(p, subscriptionIds[i], paymentTypeOf.get(p.userId!) ?? null, ctx));
    visitRows.push(...buildVisits(p, ctx));
    if ((state === "active" || state === "grace_period") && (ctx.poolCounts[p.gym.id] ?? 0) < CLASS_POOL_PER_GYM) {
      ctx.poolCounts[p.gym.id] = (ctx.poolCounts[p.gym.id] ?? 0) + 1;
      ctx.classPool.push({ userId: p.userId!, gymId: p.gym.id, offering: sub.price.offeringName });
    }
    if (p.org === ctx.world.demo && (state === "active" || state === "grace_period") && ctx.chatPool.length < 12) {
      ctx.chatPool.push({ userId: p.userId!, name: p.user.name, gymId: p.gym.id });
    }
  });
  await stage.add(payments, paymentRows);
  await stage.add(visits, visitRows);
  const today = ctx.cal.start(ctx.cal.today);
  ctx.visitsToday += visitRows.filter((v) => v.visited_at >= today).length;
}

// ───────────────────────────── payments ─────────────────────────────

const FAILURES: Record<PaymentKind, [string, string][]> = {
  stripe_card: [
    ["card_declined", "Your card was declined."],
    ["insufficient_funds", "Your card has insufficient funds."],
    ["expired_card", "Your card has expired."],
  ],
  bank_account: [
    ["insufficient_funds", "The account does not have sufficient funds to make this payment."],
    ["invalid_account", "The account cannot make payments."],
  ],
  gocardless_bank_account: [
    ["failed", "The payment failed: refer to payer."],
    ["mandate_cancelled", "The mandate was cancelled by the customer."],
  ],
};

function buildPayments(p: MemberPlan, subscriptionId: number, paymentTypeId: number | null, ctx: MemberContext): NewPayment[] {
  const { cal } = ctx;
  const r = p.rng;
  const sub = p.subscription!;
  const kind = p.paymentType?.type ?? "stripe_card";
  const base = {
    organisation_id: p.org.id,
    gym_id: p.gym.id,
    user_id: p.userId!,
    subscription_id: subscriptionId,
    payment_type_id: paymentTypeId,
    destination_account_id: p.gym.destinationAccountId,
    amount: sub.price.amount,
    type: sub.price.frequency === "one_off" ? "pif" : "subscription",
  };
  const ref = (day: Day, n = 0) => {
    const key = `${subscriptionId.toString(36)}${day.replaceAll("-", "")}${n}`.toUpperCase();
    return kind === "stripe_card" ? { stripe_id: `pi_demo${key}` } : kind === "gocardless_bank_account" ? { gocardless_payment_id: `PM00${key}` } : {};
  };
  const failed = () => {
    const [error_status, error_description] = r.pick(FAILURES[kind]);
    return { status: "failed" as string, error_status, error_description };
  };
  const period = (day: Day) => ({
    period_start_at: cal.start(day),
    period_end_at: cal.start(addPeriods(day, sub.price.frequency, 1)),
    expected_charge_date: day,
    is_term_membership: !!sub.row.term_ends_at && cal.start(day) < (sub.row.term_ends_at as Date),
  });

  if (sub.story === "upcoming" || sub.story === "upcoming_failed") {
    const day = localDay(sub.row.current_period_start as Date);
    const createdAt = sub.row.created_at as Date;
    return [{ ...base, ...period(day), ...(sub.story === "upcoming" ? { status: "upcoming" } : failed()), created_at: createdAt, ...ref(day) }];
  }

  if (sub.price.frequency === "one_off") {
    const day = sub.billed[0];
    return [
      {
        ...base,
        ...period(day),
        period_end_at: sub.row.pif_ends_at as Date,
        status: "sent",
        pif_payment: r.pick(["eftpos", "cash", "bank_transfer"] as const),
        processed_by: ctx.adminId,
        created_at: clampToNow(cal.at(day, r.int(9 * 60, 17 * 60)), cal),
      },
    ];
  }

  const rows: NewPayment[] = [];
  const last = sub.billed.length - 1;
  sub.billed.forEach((day, i) => {
    const at = cal.start(day);
    const row: NewPayment = { ...base, ...period(day), status: "sent", created_at: at, ...ref(day) };
    if (i === last && sub.story === "grace_period") Object.assign(row, failed());
    // A bank payment or direct debit of the last few days is still under way: the billing run collects it (its key is the one the run would give it).
    else if (i === last && kind !== "stripe_card" && daysBetween(day, cal.today) <= 3) Object.assign(row, { status: "pending", gocardless_payment_id: null, idempotency_key: chargeKey(subscriptionId, day, 0) });
    else if (i < last && r.chance(0.03)) {
      // A failed charge, retried successfully a few days later.
      Object.assign(row, failed());
      const retryAt = cal.start(addDays(day, r.int(2, 4)));
      if (retryAt < cal.now) rows.push({ ...base, ...period(day), status: "sent", is_retry: true, attempt: 1, created_at: retryAt, ...ref(day, 1) });
    }
    rows.push(row);
  });

  // Some running subscriptions already show their next charge as upcoming.
  const state = subscriptionState(sub.row, cal.now);
  if (state === "active" && r.chance(0.1)) {
    const next = localDay(sub.row.current_period_end as Date);
    rows.push({ ...base, ...period(next), status: "upcoming", created_at: cal.now, ...ref(next) });
  }
  return rows;
}

const clampToNow = (d: Date, cal: Calendar) => (d > cal.now ? cal.now : d);

// ───────────────────────────── visits ─────────────────────────────

function buildVisits(p: MemberPlan, ctx: MemberContext): (typeof visits.$inferInsert)[] {
  const { cal } = ctx;
  const sub = p.subscription!;
  if (!sub.visitsFrom || !sub.visitsUntil) return [];
  const r = p.rng;
  const from = sub.visitsFrom;
  const until = sub.visitsUntil;
  const limited = sub.price.limitedHours;
  const otherGyms = sub.price.allGyms ? p.org.gyms.filter((g) => g.id !== p.gym.id) : [];
  // Lapsed members sometimes still try their tag: those visits are refused.
  const refusedAfter = sub.story === "cancelled_lapsed" ? sub.visitsUntil : null;
  const rows: (typeof visits.$inferInsert)[] = [];
  for (const { day, weekday } of cal.recentDays(VISIT_WINDOW_DAYS)) {
    if (day < from || day > until) continue;
    if (limited && weekday > 5) continue;
    if (!r.chance((p.visitRate / 7) * (weekday > 5 ? 0.7 : 1))) continue;
    const minute = r.int(p.visitSlot[0], p.visitSlot[1]);
    if (day === cal.today && minute >= cal.nowMinutes) continue;
    const gym = otherGyms.length && r.chance(0.1) ? r.pick(otherGyms) : p.gym;
    rows.push({ organisation_id: p.org.id, gym_id: gym.id, user_id: p.userId!, visited_at: cal.at(day, minute), successful: !r.chance(0.02) });
  }
  if (refusedAfter && r.chance(0.15)) {
    const day = addDays(refusedAfter, r.int(2, 20));
    if (day < cal.today) rows.push({ organisation_id: p.org.id, gym_id: p.gym.id, user_id: p.userId!, visited_at: cal.at(day, r.int(6 * 60, 19 * 60)), successful: false });
  }
  return rows;
}

/** Makes sure the dashboard's "visits today" is never zero, even just after midnight. */
async function seedVisitsToday(ctx: MemberContext) {
  const { cal } = ctx;
  const start = cal.start(cal.today);
  if (ctx.visitsToday >= 3 || ctx.chatPool.length === 0) return;
  const r = Rng.for(STREAM.today, 0);
  const span = Math.max(1, cal.now.getTime() - start.getTime());
  const rows = ctx.chatPool.slice(0, 5).map((m) => ({
    organisation_id: ctx.world.demo.id,
    gym_id: m.gymId,
    user_id: m.userId,
    visited_at: new Date(start.getTime() + Math.floor(r.float() * span)),
    successful: true,
  }));
  await ctx.stage.add(visits, rows);
}

// ───────────────────────────── calendar ─────────────────────────────

/**
 * Taylor Trainer's week (issue 16): two regulars as recurring schedules (the 6 AM Tuesday client from the
 * conversations, Morgan on Thursday evenings for twelve weeks) and a few one-off sessions this week and next, one of
 * them Alex Admin's.
 */
async function seedCalendar(db: Db, ctx: MemberContext, people: People) {
  const { cal, world } = ctx;
  const pool = ctx.chatPool.filter((m) => m.userId !== people.member.id);
  const monday = localWeekStart(cal.now);
  const base = { organisation_id: world.demo.id, gym_id: world.demo.gyms[0].id, trainer_id: people.trainer.id, created_by: people.admin.id };
  const weekly = (memberId: number, rule: string, startsOn: Day, time: string, minutes: number, notes: string) => ({ ...base, member_id: memberId, rrule: rule, starts_on: startsOn, ends_on: lastDay(rule, startsOn), start_time: time, duration_minutes: minutes, notes });
  const series = [weekly(people.member.id, "FREQ=WEEKLY;BYDAY=TH;COUNT=12", addDays(monday, -18), "17:30", 45, "Back to it: strength and conditioning")];
  if (pool[2]) series.push(weekly(pool[2].userId, "FREQ=WEEKLY;BYDAY=TU", addDays(monday, -13), "06:00", 60, "Strength basics"));
  await db.insert(recurring_schedules).values(series);
  const session = (memberId: number, day: Day, from: number, minutes: number, notes: string | null, trainerId = people.trainer.id) => ({ ...base, trainer_id: trainerId, member_id: memberId, starts_at: cal.at(day, from), ends_at: cal.at(day, from + minutes), notes });
  const oneOffs = [
    pool[0] && session(pool[0].userId, addDays(monday, 2), 12 * 60, 45, "Induction"),
    pool[1] && session(pool[1].userId, addDays(monday, 4), 7 * 60 + 30, 60, "Programme review"),
    pool[3] && session(pool[3].userId, addDays(monday, 5), 9 * 60, 60, "Induction", people.admin.id),
    pool[4] && session(pool[4].userId, addDays(monday, 9), 17 * 60, 60, null),
  ].filter((v): v is NonNullable<typeof v> => Boolean(v));
  if (oneOffs.length) await db.insert(appointments).values(oneOffs);
}

// ───────────────────────────── conversations ─────────────────────────────

/** A scripted thread: `m` lines are from the member, `s` lines from staff. The last `unread` lines are unread. */
const THREADS: { lines: ["m" | "s", string][]; unread: number }[] = [
  {
    lines: [
      ["m", "Hi, can I pause my membership while I'm overseas for three weeks?"],
      ["s", "Hi {first}! Yes, you can pause from the app under Membership, or I can set it up for you. Which dates?"],
      ["m", "Leaving on the 12th and back on the 2nd. Thanks heaps!"],
    ],
    unread: 1,
  },
  {
    lines: [
      ["s", "Hi {first}, your last payment didn't go through. Could you update your card when you get a chance?"],
      ["m", "Sorry about that, new card is on there now."],
      ["m", "Let me know if it still doesn't work."],
    ],
    unread: 2,
  },
  {
    lines: [["m", "My tag didn't open the front door this morning, had to wait for someone to let me in."]],
    unread: 1,
  },
  {
    lines: [
      ["m", "Do you have personal trainers free on weekday mornings?"],
      ["s", "Taylor has 6 am spots on Tuesdays and Thursdays. Want me to book you in?"],
      ["m", "Tuesday works great."],
      ["s", "Done, see you Tuesday at 6!"],
    ],
    unread: 0,
  },
  {
    lines: [
      ["m", "Can I bring a friend to try the gym?"],
      ["s", "Absolutely, friends get a free day pass. Just bring them to reception."],
      ["m", "Awesome, cheers."],
    ],
    unread: 0,
  },
  {
    lines: [["s", "Welcome to Demo Fitness, {first}! Let us know if you'd like a free induction with one of our trainers."]],
    unread: 1,
  },
  {
    lines: [
      ["m", "How do I change my payments to fortnightly?"],
      ["s", "You can switch at your next renewal. I'll send you the fortnightly option now."],
      ["m", "Thanks! Does the joining fee apply again?"],
    ],
    unread: 1,
  },
  {
    lines: [
      ["m", "Is the gym open on Waitangi Day?"],
      ["s", "Yes, 24/7 access as usual. Reception is staffed 9 to 1."],
    ],
    unread: 0,
  },
];

async function seedConversations(db: Db, ctx: MemberContext, people: People) {
  const { cal, world } = ctx;
  const r = Rng.for(STREAM.chat, 0);
  const morgan = { userId: people.member.id, name: people.member.name, gymId: world.demo.gyms[0].id };
  const members = [morgan, ...ctx.chatPool.filter((m) => m.userId !== morgan.userId)].slice(0, THREADS.length);
  let lastAt = cal.now.getTime() - 20 * 60_000;
  const threads = members.map((member, i) => {
    // Newest conversation first in time order backwards: each thread ends a few hours before the previous one.
    const end = lastAt;
    lastAt = end - r.int(2, 30) * 3600_000;
    const thread = THREADS[i];
    const times = thread.lines.map((_, j) => end - (thread.lines.length - 1 - j) * r.int(10, 90) * 60_000);
    return { member, thread, times };
  });
  if (threads.length === 0) return;

  const convIds = await insertReturningIds(
    db,
    conversations,
    threads.map(({ member, times }) => ({
      organisation_id: world.demo.id,
      gym_id: member.gymId,
      member_id: member.userId,
      last_message_at: new Date(times[times.length - 1]),
      created_at: new Date(times[0]),
    })),
  );
  const rows = threads.flatMap(({ member, thread, times }, i) =>
    thread.lines.map(([who, text], j) => {
      const unread = j >= thread.lines.length - thread.unread;
      return {
        organisation_id: world.demo.id,
        conversation_id: convIds[i],
        sender_id: who === "m" ? member.userId : people.admin.id,
        from_member: who === "m",
        body: text.replace("{first}", member.name.split(" ")[0]),
        read_at: unread ? null : new Date(Math.min(times[j] + r.int(5, 120) * 60_000, cal.now.getTime())),
        created_at: new Date(times[j]),
      };
    }),
  );
  await insertAll(db, messages, rows);
}

// ───────────────────────────── summary ─────────────────────────────

const emptyStates = (): Record<SubscriptionState, number> => ({ active: 0, paused: 0, cancelled: 0, grace_period: 0, upcoming: 0 });

/**
 * Door credentials for most members (a Kisi card or phone key; revoked once the membership is cancelled,
 * suspended while it is stopped unpaid), bank connections for members who pay from their bank (the sandbox Akahu's
 * user tokens), and a price-change record for every subscription with a scheduled change. Set-based SQL, deterministic
 * from the member ids, so it costs seconds at 100,000 members and leaves every other stream untouched.
 */
async function seedDoorAccessAndPriceChanges(db: Db, adminId: number) {
  await db.execute(sql`
    insert into ${access_control_credentials} (organisation_id, user_id, gym_id, provider, kind, identifier_hint, status, issued_at, last_used_at)
    select ou.organisation_id, ou.user_id, ou.home_gym_id, 'kisi',
           case when abs(hashtext(ou.user_id::text)) % 3 = 0 then 'mobile' else 'card' end,
           case when abs(hashtext(ou.user_id::text)) % 3 = 0 then null else lpad((abs(hashtext(ou.user_id::text || 'card')) % 10000)::text, 4, '0') end,
           case when s.cancelled_at is not null then 'revoked' when s.upcoming_state = 'failed' then 'suspended' else 'active' end,
           ou.created_at, ou.last_visit_at
    from ${organisation_users} ou
    join ${subscriptions} s on s.id = ou.latest_subscription_id
    where ou.role = 'member' and abs(hashtext(ou.user_id::text)) % 10 < 7
    order by ou.user_id`);
  await db.execute(sql`
    insert into ${subscription_pauses} (organisation_id, subscription_id, start_day, end_day, created_at)
    select organisation_id, id, (pause_start_at at time zone 'Pacific/Auckland')::date, (pause_end_at at time zone 'Pacific/Auckland')::date, created_at
    from ${subscriptions} where pause_start_at is not null and pause_end_at is not null
    order by id`);
  await db.execute(sql`
    insert into ${bank_connections} (organisation_id, user_id, access_token, created_at, updated_at)
    select organisation_id, user_id, 'user_token_sandbox_' || user_id, created_at, created_at from ${payment_types}
    where type = 'bank_account'
    order by id
    on conflict do nothing`);
  await db.execute(sql`
    insert into ${price_changes} (organisation_id, subscription_id, user_id, from_price_id, to_price_id, from_amount, to_amount, takes_effect_at, member_notified_at, changed_by, created_at)
    select s.organisation_id, s.id, s.user_id, s.price_id, s.transition_to_price_id, coalesce(s.force_price_amount, p.amount), t.amount,
           s.transition_takes_effect_at, s.updated_at, ${adminId}, s.updated_at
    from ${subscriptions} s
    join ${prices} p on p.id = s.price_id
    join ${prices} t on t.id = s.transition_to_price_id
    where s.transition_to_price_id is not null
    order by s.id`);
}

/**
 * Money given back (issue 28), so the demo's money screens (a member's payments, /payments and its given-back
 * filter, the dashboard's revenue, expected payments) show some: in Demo Fitness, of the last four weeks' paid
 * payments of members with running memberships (never the sign-in accounts), two card refunds staff gave (one in
 * full, one in part) and a cash refund at the desk, a card payment disputed at the member's bank (open), and a direct
 * debit charged back (lost). Written as the app writes them: each refund within what was paid, the chargebacks
 * through recordChargeback (the lost one owing again with its grace period, as GoCardless's event makes it), and
 * revenue taken off by the adjustments' own rollup trigger. The direct debit is of a member in a grace period already,
 * so no membership changes state (were one to, the summary's states follow).
 */
async function seedMoneyGivenBack(db: Db, ctx: MemberContext) {
  const { cal } = ctx;
  const org = ctx.world.demo.id;
  const since = cal.start(addDays(cal.today, -28));
  const recent = await db
    .select({ p: payments, kind: payment_types.type, s: subscriptions })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
    .where(
      and(
        eq(payments.organisation_id, org),
        eq(payments.status, "sent"),
        gte(payments.created_at, since),
        notInArray(users.email, Object.values(DEMO_ACCOUNTS)),
        isNull(subscriptions.cancelled_at),
      ),
    )
    .orderBy(payments.id);
  const used = new Set<number>();
  const take = (ok: (r: (typeof recent)[number]) => boolean, state: SubscriptionState = "active") => {
    const found = recent.find((r) => ok(r) && !used.has(r.p.user_id) && subscriptionState(r.s, cal.now) === state);
    if (found) used.add(found.p.user_id);
    return found?.p ?? null;
  };
  const cards = [take((r) => r.kind === "stripe_card"), take((r) => r.kind === "stripe_card"), take((r) => r.kind === "stripe_card")];
  // A member in a grace period already (a later week failed): the chargeback adds an earlier week to what they owe,
  // and the memberships' states (and the demo's mix of them) stay as planned.
  const debit = take((r) => r.kind === "gocardless_bank_account" && r.p.gocardless_payment_id !== null, "grace_period");
  const [cash] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.organisation_id, org), eq(payments.status, "sent"), eq(payments.pif_payment, "cash")))
    .orderBy(desc(payments.created_at), desc(payments.id))
    .limit(1);

  // Refunds staff gave, a day or two after the payment (never after now).
  const refund = async (p: typeof payments.$inferSelect | null, amount: (paid: number) => number, method: "stripe" | "cash", note: string) => {
    if (!p) return;
    const at = new Date(Math.min(p.created_at.getTime() + 2 * 86_400_000, cal.now.getTime()));
    await db.insert(payment_adjustments).values({
      organisation_id: p.organisation_id,
      gym_id: p.gym_id,
      user_id: p.user_id,
      payment_id: p.id,
      kind: "refund",
      status: "succeeded",
      amount: amount(p.amount + p.surcharge),
      reason: "requested_by_customer",
      note,
      source: "staff",
      actor_id: ctx.adminId,
      method,
      provider_id: method === "stripe" ? `re_demo${String(p.id).padStart(10, "0")}` : null,
      idempotency_key: `refund:${p.id}:demo`,
      settled_at: at,
      created_at: at,
    });
  };
  await refund(cards[0], (paid) => paid, "stripe", "Charged while the membership was on hold.");
  await refund(cards[1], (paid) => Math.floor(paid / 2), "stripe", "Half the week: the gym was closed for repairs.");
  await refund(cash ?? null, (paid) => Math.min(paid, 5_000), "cash", "Part of a pack the member could not use.");

  // The payer's banks: a card payment disputed (not decided yet), a direct debit taken back (owing again).
  if (cards[2]) await recordChargeback(db, disputeChargeback(cards[2].id, { id: `dp_demo${String(cards[2].id).padStart(10, "0")}`, status: "open", amount: cards[2].amount + cards[2].surcharge, reason: "product_not_received" }), cal.now);
  if (debit) {
    const [before] = await db.select().from(subscriptions).where(eq(subscriptions.id, debit.subscription_id!));
    const made = { amount: debit.amount + debit.surcharge };
    const description = "The customer disputed the payment with their bank.";
    await recordChargeback(db, directDebitChargeback(debit.id, { id: debit.gocardless_payment_id!, status: "charged_back", cause: "authorisation_disputed", description, made }), cal.now);
    const [after] = await db.select().from(subscriptions).where(eq(subscriptions.id, debit.subscription_id!));
    ctx.states[subscriptionState(before, cal.now)]--;
    ctx.states[subscriptionState(after, cal.now)]++;
  }
}

async function summarise(db: Db, ctx: MemberContext): Promise<DemoSummary> {
  const n = async (table: PgTable, where?: SQL) => {
    const q = db.select({ n: count() }).from(table);
    const [row] = await (where ? q.where(where) : q);
    return row.n;
  };
  return {
    organisations: await n(organisations),
    gyms: await n(gyms),
    users: await n(users),
    members: await n(organisation_users, sql`${organisation_users.role} = 'member'`),
    offerings: await n(offerings),
    prices: await n(prices),
    subscriptions: await n(subscriptions),
    subscription_states: ctx.states,
    payment_types: await n(payment_types),
    payments: await n(payments),
    failed_payments: await n(payments, sql`${payments.status} = 'failed'`),
    visits: await n(visits),
    visits_today: await n(visits, sql`${visits.visited_at} >= ${ctx.cal.start(ctx.cal.today)}`),
    conversations: await n(conversations),
    messages: await n(messages),
    unread_member_messages: await n(messages, sql`${messages.from_member} and ${messages.read_at} is null`),
    class_types: await n(class_types),
    classes: await n(class_occurrences),
    class_bookings: await n(class_bookings),
  };
}

