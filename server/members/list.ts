import { statusLabel } from "../../domain/status-label";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import type { MemberListQuery, MemberSort } from "../../domain/schemas/members";
import { defaultDirection, MEMBERS_PER_PAGE } from "../../domain/schemas/members";
import { statusColour, subscriptionState, type StatusColour, type SubscriptionFacts, type SubscriptionState } from "../../domain/subscription";
import { gyms, offerings, organisation_users, prices, subscriptions, users } from "../core/db/schema";
import { memberInState } from "../core/db/subscription-state";
import type { Tenant } from "../core/db/tenant";
import { personMatches } from "../search/queries";
import type { EntityContext } from "../entities/context";
import { memberEntities, type MemberEntity } from "../entities/member";

/** The list's filters once the route has resolved the gym: a gym id, or null for every gym. */
export type MemberFilters = Omit<MemberListQuery, "gym" | "page"> & { gymId: number | null };

export interface MemberListRow {
  id: number;
  name: string;
  email: string;
  mobile_number: string | null;
  gym: { id: number; name: string } | null;
  tags: string[];
  joined_at: string;
  last_visit_at: string | null;
  visits_count: number;
  membership: {
    subscription_id: number;
    offering: string;
    price_id: number;
    amount: number;
    billing_frequency: BillingFrequency;
    term: string | null;
  } | null;
  status: { state: SubscriptionState; label: string; colour: StatusColour } | null;
}

/**
 * The members list: each member of the organisation once, with their newest subscription
 * (organisation_users.latest_subscription_id, kept by a trigger) and its price and offering.
 * Status is that subscription's state, filtered in SQL (server/core/db/subscription-state.ts) and labelled
 * by domain/subscription.ts.
 */
export function memberWhere(t: Tenant, f: MemberFilters & { text?: SQL }, at: Date) {
  const conditions: (SQL | undefined)[] = [
    eq(organisation_users.role, "member"),
    // A deleted account ends its memberships (drizzle/0006), so this one column leaves both out.
    isNull(organisation_users.deleted_at),
    f.gymId ? eq(organisation_users.home_gym_id, f.gymId) : undefined,
    f.tag ? sql`${organisation_users.tags} @> array[${f.tag}]::text[]` : undefined,
    f.status === "none" ? isNull(organisation_users.latest_subscription_id) : f.status ? memberInState(f.status, at) : undefined,
    f.price ? eq(organisation_users.latest_price_id, f.price) : undefined,
    f.offering ? eq(organisation_users.latest_offering_id, f.offering) : undefined,
    f.q ? f.text ?? textMatch(f.q) : undefined,
  ];
  return t.where(organisation_users, ...conditions);
}

/**
 * Name, e-mail or (for phone-like text) mobile number contains the text, case-insensitive. The export and the bulk
 * price change use this; a page looks the members up once instead (textMatches), for its count and its rows.
 */
function textMatch(q: string): SQL {
  const people = { name: users.name, email: users.email, mobile_number: users.mobile_number };
  // The people who match come first, from their indexes; `offset 0` stops the planner folding this back
  // into a walk of every member in list order that tests each one.
  return sql`${organisation_users.user_id} in (select ${users.id} from ${users} where ${personMatches(q, people)} offset 0)`;
}

/** The columns each sort orders by, the member id last so the order is total (pages and export batches never overlap). */
export function sortKeys(sort: MemberSort): SQL[] {
  switch (sort) {
    case "name":
      // lower(users.name), kept on the membership row so the order comes from an index (drizzle/0008).
      return [sql`${organisation_users.sort_name} collate "C"`, sql`${organisation_users.user_id}`];
    case "joined":
      return [sql`${organisation_users.created_at}`, sql`${organisation_users.user_id}`];
    case "last_visit":
      // Never visited sorts as the oldest last visit.
      return [sql`coalesce(${organisation_users.last_visit_at}, '-infinity'::timestamptz)`, sql`${organisation_users.user_id}`];
  }
}

const selection = {
  id: organisation_users.user_id,
  name: users.name,
  email: users.email,
  mobile_number: users.mobile_number,
  gym_id: organisation_users.home_gym_id,
  gym_name: gyms.name,
  tags: organisation_users.tags,
  joined_at: organisation_users.created_at,
  last_visit_at: organisation_users.last_visit_at,
  visits_count: organisation_users.visits_count,
  subscription_id: subscriptions.id,
  pause_start_at: subscriptions.pause_start_at,
  pause_end_at: subscriptions.pause_end_at,
  cancelled_at: subscriptions.cancelled_at,
  grace_period_ends_at: subscriptions.grace_period_ends_at,
  upcoming_state: subscriptions.upcoming_state,
  current_period_end: subscriptions.current_period_end,
  force_price_amount: subscriptions.force_price_amount,
  price_id: prices.id,
  amount: prices.amount,
  billing_frequency: prices.billing_frequency,
  term_amount: prices.term_amount,
  term_unit: prices.term_unit,
  offering: offerings.name,
};

/** What a row of the list is made from: the export reads it joined (`selection`), a page takes it from its Members. */
type RowFacts = SubscriptionFacts & {
  id: number;
  name: string;
  email: string;
  mobile_number: string | null;
  gym_id: number | null;
  gym_name: string | null;
  tags: string[];
  joined_at: Date;
  last_visit_at: Date | null;
  visits_count: number;
  subscription_id: number | null;
  force_price_amount: number | null;
  price_id: number | null;
  amount: number | null;
  billing_frequency: string | null;
  term_amount: number | null;
  term_unit: string | null;
  offering: string | null;
};

/**
 * A page's row facts: its own columns, and the rest from the member's entity (which the page answers anyway). Field by
 * field: V8 makes a new hidden class for each object spread and then added to, which costs a page a millisecond.
 */
function factsOf(r: Pick<RowFacts, "id" | "gym_id" | "gym_name" | "joined_at" | "last_visit_at">, m: MemberEntity): RowFacts {
  const s = m.latest_subscription;
  const p = s?.price;
  return {
    id: r.id,
    gym_id: r.gym_id,
    gym_name: r.gym_name,
    joined_at: r.joined_at,
    last_visit_at: r.last_visit_at,
    name: m.name,
    email: m.email,
    mobile_number: m.mobile_number,
    tags: m.tags,
    visits_count: m.visits_count,
    subscription_id: s?.id ?? null,
    pause_start_at: s?.pause_start_at ?? null,
    pause_end_at: s?.pause_end_at ?? null,
    cancelled_at: s?.cancelled_at ?? null,
    grace_period_ends_at: s?.grace_period_ends_at ?? null,
    upcoming_state: s?.upcoming_state ?? null,
    current_period_end: s?.current_period_end ?? null,
    force_price_amount: s?.force_price_amount ?? null,
    price_id: p?.id ?? null,
    amount: p?.amount ?? null,
    billing_frequency: p?.billing_frequency ?? null,
    term_amount: p?.term_amount ?? null,
    term_unit: p?.term_unit ?? null,
    offering: p ? p.offering.name : null,
  };
}

function toRow(r: RowFacts, at: Date): MemberListRow {
  const state = r.subscription_id ? subscriptionState(r, at) : null;
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    mobile_number: r.mobile_number,
    gym: r.gym_id && r.gym_name ? { id: r.gym_id, name: r.gym_name } : null,
    tags: r.tags,
    joined_at: r.joined_at.toISOString(),
    last_visit_at: r.last_visit_at?.toISOString() ?? null,
    visits_count: r.visits_count,
    membership:
      r.subscription_id && r.price_id
        ? {
            subscription_id: r.subscription_id,
            offering: r.offering ?? "",
            price_id: r.price_id,
            amount: r.force_price_amount ?? r.amount!,
            billing_frequency: r.billing_frequency as BillingFrequency,
            term: termShorthand({ billing_frequency: r.billing_frequency as BillingFrequency, term_amount: r.term_amount, term_unit: r.term_unit as TermUnit | null }),
          }
        : null,
    status: state ? { state, label: statusLabel(r, at), colour: statusColour(r, at) } : null,
  };
}

const ordered = (keys: SQL[], dir: "asc" | "desc") => keys.map((k) => (dir === "asc" ? sql`${k} asc` : sql`${k} desc`));

/**
 * The members the text filter finds in this organisation, looked up once (a trigram search of every person) for both
 * the page's count and its rows: `matched`, a CTE of their ids as one array, and `text`, the condition on it. In the
 * page's own statement, not a query before it (server/search/member-text.ts): a round trip costs more than the SQL.
 */
function textMatches(t: Tenant, q: string) {
  const people = { name: users.name, email: users.email, mobile_number: users.mobile_number };
  const matched = t.db.$with("matched").as(
    t.db
      .select({ ids: sql<number[]>`array_agg(${organisation_users.user_id})`.as("ids") })
      .from(organisation_users)
      .innerJoin(users, eq(users.id, organisation_users.user_id))
      .where(t.where(organisation_users, personMatches(q, people))),
  );
  return { matched, text: sql`${organisation_users.user_id} = any((select ${matched.ids} from ${matched})::int[])` };
}

/**
 * The count of the members `where` matches, and the ids of the page's (`pageIds`), looked for only when the count
 * says the page has rows: a page past the end (a deep page of a filtered list, a third of the bench's pages) then
 * costs the count alone, not a walk of the whole filtered list that finds nothing.
 *
 * Unfiltered, or by gym, status, price or offering, the count reads an index and the page walks the sort's index in
 * list order. A tag or a text must test every candidate row, the count and the walk each again (a tag's `@>` cannot
 * use its GIN index under row-level security: it is not leakproof): then the rows are found once, with their sort
 * key, and both counted and sorted from there.
 */
function countAndPage(t: Tenant, where: SQL, f: MemberFilters, dir: "asc" | "desc", offset: number) {
  const [first, last] = sortKeys(f.sort);
  const total = { total: sql<number>`count(*)::int`.as("total") };
  const found =
    f.tag || f.q
      ? t.db.$with("found").as(
          t.db
            .select({ id: organisation_users.user_id, k: sql`${first}`.as("k") })
            .from(organisation_users)
            .where(where),
        )
      : undefined;
  const counted = t.db.$with("counted").as(found ? t.db.select(total).from(found) : t.db.select(total).from(organisation_users).where(where));
  const hasRows = sql`(select ${counted.total} from ${counted}) > ${offset}`;
  const pageIds = found
    ? t.db
        .select({ id: found.id })
        .from(found)
        .where(hasRows)
        .orderBy(...ordered([sql`${found.k}`, sql`${found.id}`], dir))
        .limit(MEMBERS_PER_PAGE)
        .offset(offset)
    : t.db
        .select({ id: organisation_users.user_id })
        .from(organisation_users)
        .where(and(where, hasRows))
        .orderBy(...ordered([first, last], dir))
        .limit(MEMBERS_PER_PAGE)
        .offset(offset);
  return { ctes: found ? [found, counted] : [counted], counted, pageIds };
}

/**
 * One page of the list and the number of members the filters match, in one statement (one round trip: on a busy
 * machine each costs more than the SQL; countAndPage). The page's ids are found first, from the membership rows alone,
 * and only those 50 are joined to their gym and built as SPEC's Members (person, subscription, price, offering:
 * server/entities/member.ts): an offset deep into the list then skips index entries, not joined rows.
 */
export async function listMembers(t: Tenant, f: MemberFilters, page: number, ctx: EntityContext) {
  const at = ctx.at;
  const dir = f.dir ?? defaultDirection(f.sort);
  const offset = (page - 1) * MEMBERS_PER_PAGE;
  const answer = (data: (MemberEntity & MemberListRow)[], total: number) => ({
    data,
    meta: { page, per_page: MEMBERS_PER_PAGE, total, pages: Math.max(1, Math.ceil(total / MEMBERS_PER_PAGE)), sort: f.sort, dir },
  });
  // A member without a subscription has no price or offering: nobody matches, and the planner, which cannot
  // know that, would walk every member looking.
  if (f.status === "none" && (f.price || f.offering)) return answer([], 0);
  const byText = f.q ? textMatches(t, f.q) : undefined;
  const where = memberWhere(t, byText ? { ...f, text: byText.text } : f, at);
  const { ctes, counted, pageIds } = countAndPage(t, where, f, dir, offset);
  const keys = ordered(sortKeys(f.sort), dir);
  // The count's one row, and beside it the page's rows (none past the end).
  const rows = await t.db
    .with(...(byText ? [byText.matched, ...ctes] : ctes))
    .select({
      total: counted.total,
      id: organisation_users.user_id,
      gym_id: organisation_users.home_gym_id,
      gym_name: gyms.name,
      joined_at: organisation_users.created_at,
      last_visit_at: organisation_users.last_visit_at,
    })
    .from(counted)
    .leftJoin(organisation_users, and(sql`${organisation_users.user_id} = any(array(${pageIds}))`, memberWhere(t, { sort: f.sort, gymId: null }, at)))
    .leftJoin(gyms, eq(gyms.id, organisation_users.home_gym_id))
    .orderBy(...keys);
  // Past the end, the count's row alone, its member's columns null.
  const pageRows = rows.filter((r): r is (typeof rows)[number] & { id: number; joined_at: Date } => r.id !== null && r.joined_at !== null);
  // Each row is SPEC's Member with the list's own columns beside it.
  const entities = await memberEntities(
    t,
    pageRows.map((r) => r.id),
    ctx,
  );
  return answer(
    pageRows.map((r) => {
      const member = entities.get(r.id)!;
      // The list's own columns over the Member's (Object.assign: see factsOf).
      return Object.assign({}, member, toRow(factsOf(r, member), at));
    }),
    rows[0].total,
  );
}

/**
 * Every member the filters match, in list order, `batch` at a time: each batch is its own short query
 * that starts after the last row of the one before (keyset), so memory stays flat at any size and no
 * transaction is held open while a slow client downloads.
 */
export async function* eachMember(t: Tenant, f: MemberFilters, at: Date, batch = 1000): AsyncGenerator<MemberListRow[]> {
  const dir = f.dir ?? defaultDirection(f.sort);
  const keys = sortKeys(f.sort);
  // The first key travels as text and is cast back, so timestamps (and -infinity) round-trip exactly.
  const keyType = sql.raw(f.sort === "name" ? "text" : "timestamptz");
  let after: [string, number] | null = null;
  for (;;) {
    // Each batch in a short transaction of its own (the stream outlives the request's).
    const rows: (RowFacts & { k0: string })[] = await t.again((t) =>
      t.db
      .select({ ...selection, k0: sql<string>`(${keys[0]})::text`.as("k0") })
      .from(organisation_users)
      .innerJoin(users, eq(users.id, organisation_users.user_id))
      .leftJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
      .leftJoin(prices, eq(prices.id, subscriptions.price_id))
      .leftJoin(offerings, eq(offerings.id, prices.offering_id))
      .leftJoin(gyms, eq(gyms.id, organisation_users.home_gym_id))
      .where(
        and(
          memberWhere(t, f, at),
          after ? sql`(${keys[0]}, ${keys[1]}) ${sql.raw(dir === "asc" ? ">" : "<")} (${after[0]}::${keyType}, ${after[1]}::int)` : undefined,
        ),
      )
      .orderBy(...ordered(keys, dir))
      .limit(batch));
    if (rows.length === 0) return;
    yield rows.map((r) => toRow(r, at));
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = [last.k0, last.id];
  }
}
