import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../domain/billing";
import { formatDay, localDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import type { BulkPriceChangeRequest } from "../../domain/schemas/bulk-price-change";
import { ApiError } from "../core/errors";
import { memberWhere, type MemberFilters } from "../members/list";
import type { Db } from "../core/db/client";
import { bulk_price_change_members, bulk_price_changes, offerings, organisation_users, prices, users } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import type { MemberMailer, MailSite } from "../member-mail/brand";
import type { Mail } from "../core/mail/mailer";
import { loadMembership } from "./membership";
import { applyPriceChange, priceChangeEffect } from "./price-change";

/**
 * The bulk price change (issue 12, /members/change-price): members on some prices moved to another from a day or
 * their period end, each exactly as one staff member would move them from the member page (applyPriceChange: the
 * same checks, history and e-mail), by a background job.
 *
 * - The members are chosen when the change is confirmed (the /members filters, narrowed to the prices moved from)
 *   and written down as its rows, so the report is of exactly those, whatever joins or leaves while it runs.
 * - Each member is its own transaction, claimed with SKIP LOCKED: a job stopped half-way (a deploy, a crash) goes on
 *   from the member it was at, and two processes never move one member twice.
 * - A member is skipped, with the reason, when the move no longer applies (cancelled, another price by now, the new
 *   price not sold at their gym) or is already scheduled: so confirming the same change again changes nothing.
 */
export type BulkFilters = Omit<MemberFilters, "price" | "offering" | "sort" | "dir">;

const SAMPLE = 10;

function chosen(t: Tenant, req: Pick<BulkPriceChangeRequest, "from_price_ids">, f: BulkFilters, at: Date) {
  return and(memberWhere(t, { ...f, sort: "name" }, at), inArray(organisation_users.latest_price_id, req.from_price_ids), isNotNull(organisation_users.latest_subscription_id));
}

/** The prices moved from and to: this organisation's (404-free: a wrong id is the form's error). */
async function checkPrices(t: Tenant, req: BulkPriceChangeRequest) {
  const ids = [...new Set([...req.from_price_ids, req.to_price_id])];
  const found = await t.db
    .select({ id: prices.id, archived_at: prices.archived_at, billing_frequency: prices.billing_frequency })
    .from(prices)
    .where(t.where(prices, inArray(prices.id, ids)));
  const known = new Set(found.map((p) => p.id));
  const errors: Record<string, string[]> = {};
  if (req.from_price_ids.some((id) => !known.has(id))) errors.from_price_ids = ["Choose prices from the list"];
  const to = found.find((p) => p.id === req.to_price_id);
  if (!to || to.archived_at) errors.to_price_id = ["Choose a price from the list"];
  else if (req.from_price_ids.includes(req.to_price_id)) errors.to_price_id = ["Choose a price other than the ones members move from"];
  else if (!errors.from_price_ids) {
    // A change keeps each member's billing rhythm (decision 0040): refused for all at once, not member by member.
    const rhythms = new Set(found.filter((p) => req.from_price_ids.includes(p.id)).map((p) => p.billing_frequency as BillingFrequency));
    const label = (f: BillingFrequency) => FREQUENCY_LABELS[f].toLowerCase();
    if (rhythms.size > 1) errors.from_price_ids = [`Choose prices billed ${label(to.billing_frequency as BillingFrequency)}, as the new price is: a change keeps each member's billing rhythm`];
    else if (rhythms.size === 1 && !rhythms.has(to.billing_frequency as BillingFrequency)) errors.to_price_id = [`Choose a ${label([...rhythms][0])} price: a change keeps each member's billing rhythm`];
  }
  if (Object.keys(errors).length) throw new ApiError(422, "Check the prices chosen.", "validation", errors);
}

/** The verdict for one member: what the change would do, or why they are skipped. */
async function verdict(t: Tenant, subscriptionId: number, req: BulkPriceChangeRequest, now: Date, site: MailSite) {
  const m = await loadMembership(t, subscriptionId);
  if (!req.from_price_ids.includes(m.s.price_id)) return { m, skip: "No longer on one of the prices moved from" };
  try {
    const { effect, mail } = await priceChangeEffect(t, m, { price_id: req.to_price_id, from: req.from, date: req.date }, now, site);
    if (m.s.transition_to_price_id === req.to_price_id && m.s.transition_takes_effect_at && localDay(m.s.transition_takes_effect_at) === effect.takesEffect) {
      return { m, skip: `Already moving to this price from ${formatDay(effect.takesEffect)}` };
    }
    if (m.s.transition_to_price_id && !req.replace_scheduled) {
      return { m, skip: `Another price change is scheduled${m.toPrice ? ` (to ${formatCents(m.toPrice.amount)})` : ""}: replace it from the member's page, or tick "Replace changes already scheduled"` };
    }
    return { m, effect, mail };
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return { m, skip: Object.values(err.errors ?? {}).flat()[0] ?? err.message };
    throw err;
  }
}

/** How many members the change would take, the first few with what happens to each, and the first one's e-mail. */
export async function previewBulkPriceChange(t: Tenant, req: BulkPriceChangeRequest, f: BulkFilters, now: Date, site: MailSite) {
  await checkPrices(t, req);
  const [{ count }] = await t.db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(organisation_users).where(chosen(t, req, f, now));
  const first = await t.db
    .select({ subscription_id: organisation_users.latest_subscription_id })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(chosen(t, req, f, now))
    .orderBy(asc(users.name), asc(users.id))
    .limit(SAMPLE);
  const sample = [];
  let email = null;
  for (const { subscription_id } of first) {
    const v = await verdict(t, subscription_id!, req, now, site);
    sample.push({
      member: { id: v.m.member.id, name: v.m.member.name },
      from_amount: v.m.facts.amount,
      to_amount: v.effect?.toAmount ?? null,
      takes_effect: v.effect?.takesEffect ?? null,
      skip: v.skip ?? null,
    });
    if (!email && v.mail) email = { to: v.mail.to, reply_to: v.mail.replyTo ?? null, subject: v.mail.subject, text: v.mail.text };
  }
  return { count, sample, email };
}

/**
 * Confirms the change: writes it and its members down (once per form key: a form sent twice makes one change) and
 * answers its id. The job is started by the caller once this is committed.
 */
export async function createBulkPriceChange(t: Tenant, req: BulkPriceChangeRequest & { key: string }, f: BulkFilters, actorId: number, now: Date) {
  await checkPrices(t, req);
  const [made] = await t.db
    .insert(bulk_price_changes)
    .values(
      t.owned({
        key: req.key,
        requested_by: actorId,
        from_price_ids: req.from_price_ids,
        to_price_id: req.to_price_id,
        takes_effect: req.from,
        takes_effect_day: req.from === "date" ? req.date! : null,
        notify: req.notify ?? false,
        replace_scheduled: req.replace_scheduled ?? false,
        filters: { gym_id: f.gymId, status: f.status ?? null, tag: f.tag ?? null, q: f.q ?? null },
        created_at: now,
      }),
    )
    .onConflictDoNothing()
    .returning({ id: bulk_price_changes.id });
  if (!made) {
    const [earlier] = await t.db.select({ id: bulk_price_changes.id }).from(bulk_price_changes).where(t.where(bulk_price_changes, eq(bulk_price_changes.key, req.key)));
    return { id: earlier.id, created: false };
  }
  const inserted = await t.db.execute(sql`
    insert into ${bulk_price_change_members} (organisation_id, bulk_id, subscription_id, user_id)
    select ${organisation_users.organisation_id}, ${made.id}::int, ${organisation_users.latest_subscription_id}, ${organisation_users.user_id}
    from ${organisation_users} join ${users} on ${users.id} = ${organisation_users.user_id}
    where ${chosen(t, req, f, now)}`);
  const total = (inserted as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (inserted as unknown as { affectedRows?: number }).affectedRows ?? 0;
  await t.db.update(bulk_price_changes).set({ total }).where(t.where(bulk_price_changes, eq(bulk_price_changes.id, made.id)));
  return { id: made.id, created: true };
}

const requestOf = (b: typeof bulk_price_changes.$inferSelect): BulkPriceChangeRequest => ({
  from_price_ids: b.from_price_ids,
  to_price_id: b.to_price_id,
  from: b.takes_effect as "period_end" | "date",
  date: b.takes_effect_day ?? undefined,
  notify: b.notify,
  replace_scheduled: b.replace_scheduled,
});

/** One member of a change, in its own transaction; false when there is none left to take. */
async function moveOne(root: Db, { mailer, site }: MemberMailer, b: typeof bulk_price_changes.$inferSelect, now: () => Date): Promise<boolean> {
  let mail: Mail | null = null;
  const took = await withTenant(
    root,
    b.organisation_id,
    null,
    async (t) => {
      const [next] = await t.db
        .select({ subscription_id: bulk_price_change_members.subscription_id })
        .from(bulk_price_change_members)
        .where(t.where(bulk_price_change_members, eq(bulk_price_change_members.bulk_id, b.id), eq(bulk_price_change_members.outcome, "pending")))
        .orderBy(asc(bulk_price_change_members.subscription_id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!next) return false;
      const at = now();
      const req = requestOf(b);
      const v = await verdict(t, next.subscription_id, req, at, site);
      let outcome: "changed" | "skipped" = "skipped";
      let reason = v.skip ?? null;
      if (!v.skip) {
        const done = await applyPriceChange(t, v.m, { price_id: req.to_price_id, from: req.from, date: req.date, notify: req.notify, version: v.m.s.version }, b.requested_by ?? 0, at, site);
        outcome = "changed";
        reason = `${formatCents(done.effect.fromAmount)} to ${formatCents(done.effect.toAmount)} from ${formatDay(done.effect.takesEffect)}`;
        mail = done.mail;
      }
      await t.db
        .update(bulk_price_change_members)
        .set({ outcome, reason, processed_at: at })
        .where(t.where(bulk_price_change_members, eq(bulk_price_change_members.bulk_id, b.id), eq(bulk_price_change_members.subscription_id, next.subscription_id)));
      return true;
    },
    { atomic: true },
  );
  if (mail) await mailer.send(mail);
  return took;
}

/**
 * Works through every unfinished bulk change, oldest first (the `bulk-price-changes` job, and the API in a process
 * without jobs). Safe to run in several processes at once.
 */
export async function runBulkPriceChanges(root: Db, tell: MemberMailer, now: () => Date = () => new Date()) {
  const open = await root.select().from(bulk_price_changes).where(inArray(bulk_price_changes.status, ["queued", "running"])).orderBy(asc(bulk_price_changes.id));
  let moved = 0;
  for (const b of open) {
    await root.update(bulk_price_changes).set({ status: "running", started_at: sql`coalesce(${bulk_price_changes.started_at}, now())` }).where(eq(bulk_price_changes.id, b.id));
    for (;;) {
      if (!(await moveOne(root, tell, b, now))) break;
      moved++;
    }
    // Done when none is pending: another process may still hold the last few, and it finishes the change then.
    const [left] = await root
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(bulk_price_change_members)
      .where(and(eq(bulk_price_change_members.bulk_id, b.id), eq(bulk_price_change_members.outcome, "pending")));
    if (left.n === 0) await root.update(bulk_price_changes).set({ status: "done", finished_at: now() }).where(and(eq(bulk_price_changes.id, b.id), eq(bulk_price_changes.status, "running")));
  }
  return { changes: open.length, moved };
}

export const BULK_REPORT_PER_PAGE = 50;

/** A change's progress and report: counts, and its members (the skipped first) a page at a time. */
export async function bulkPriceChangeReport(t: Tenant, id: number, page: number, show: "skipped" | "changed" | "all") {
  const [b] = await t.db.select().from(bulk_price_changes).where(t.where(bulk_price_changes, eq(bulk_price_changes.id, id)));
  if (!b) return null;
  const m = bulk_price_change_members;
  const counts = await t.db
    .select({ outcome: m.outcome, n: sql<number>`count(*)`.mapWith(Number) })
    .from(m)
    .where(t.where(m, eq(m.bulk_id, id)))
    .groupBy(m.outcome);
  const n = (o: string) => counts.find((c) => c.outcome === o)?.n ?? 0;
  const priceRows = await t.db
    .select({ id: prices.id, amount: prices.amount, billing_frequency: prices.billing_frequency, offering: offerings.name })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, inArray(prices.id, [...b.from_price_ids, b.to_price_id])));
  const rows = await t.db
    .select({ user_id: m.user_id, name: users.name, subscription_id: m.subscription_id, outcome: m.outcome, reason: m.reason, processed_at: m.processed_at })
    .from(m)
    .innerJoin(users, eq(users.id, m.user_id))
    .where(t.where(m, eq(m.bulk_id, id), show === "all" ? undefined : eq(m.outcome, show)))
    .orderBy(desc(sql`${m.outcome} = 'skipped'`), asc(users.name), asc(m.subscription_id))
    .limit(BULK_REPORT_PER_PAGE)
    .offset((page - 1) * BULK_REPORT_PER_PAGE);
  const listed = show === "all" ? b.total : n(show);
  return {
    id: b.id,
    status: b.status,
    request: { ...requestOf(b), filters: b.filters },
    prices: priceRows,
    created_at: b.created_at.toISOString(),
    started_at: b.started_at?.toISOString() ?? null,
    finished_at: b.finished_at?.toISOString() ?? null,
    total: b.total,
    done: n("changed") + n("skipped"),
    changed: n("changed"),
    skipped: n("skipped"),
    members: rows.map((r) => ({ ...r, processed_at: r.processed_at?.toISOString() ?? null })),
    meta: { page, per_page: BULK_REPORT_PER_PAGE, total: listed, pages: Math.max(1, Math.ceil(listed / BULK_REPORT_PER_PAGE)), show },
  };
}

/** The organisation's recent bulk changes, newest first. */
export async function recentBulkPriceChanges(t: Tenant) {
  return t.db
    .select({ id: bulk_price_changes.id, status: bulk_price_changes.status, total: bulk_price_changes.total, created_at: bulk_price_changes.created_at, to_price_id: bulk_price_changes.to_price_id, requested_by: users.name })
    .from(bulk_price_changes)
    .leftJoin(users, eq(users.id, bulk_price_changes.requested_by))
    .where(t.where(bulk_price_changes))
    .orderBy(desc(bulk_price_changes.id))
    .limit(10);
}

