import { and, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { LIST_PER_PAGE, type VisitListQuery } from "../../domain/schemas/money-lists";
import { daily_visits, gyms, users, visits } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { csvDateTime, NZ_TIME } from "../core/csv";
import { newestFirst } from "../core/keyset";
import { dateRange } from "../../domain/date-range";
import { memberText } from "../search/member-text";

/**
 * The visits list (issue 12, GET /api/visits): who came in (or was refused at the door), when and where, in a date
 * range (the last 30 days by default), newest first, with the counts for the whole filtered set: summed from the
 * daily rollup (daily_visits, kept by triggers) unless one member's or a text search's visits are asked for.
 */
export type VisitFilters = Omit<VisitListQuery, "gym" | "page"> & { gymId: number | null };

type Resolved = VisitFilters & { text?: SQL };

async function resolve(t: Tenant, f: VisitFilters): Promise<Resolved> {
  return f.q ? { ...f, text: await memberText(t, f.q, visits.user_id) } : f;
}

function where(t: Tenant, f: Resolved, now: Date) {
  const { start, end } = dateRange(f, now);
  const conditions: (SQL | undefined)[] = [
    gte(visits.visited_at, start),
    lt(visits.visited_at, end),
    f.gymId ? eq(visits.gym_id, f.gymId) : undefined,
    f.member ? eq(visits.user_id, f.member) : undefined,
    f.text,
    f.result ? eq(visits.successful, f.result === "successful") : undefined,
  ];
  return t.where(visits, ...conditions);
}

function joined(t: Tenant) {
  return t.db
    .select({ id: visits.id, visited_at: visits.visited_at, successful: visits.successful, user_id: visits.user_id, member_name: users.name, gym_id: gyms.id, gym: gyms.name })
    .from(visits)
    .innerJoin(users, eq(users.id, visits.user_id))
    .innerJoin(gyms, eq(gyms.id, visits.gym_id))
    .$dynamic();
}
type RawRow = Awaited<ReturnType<ReturnType<typeof joined>["execute"]>>[number];

/** SPEC §3 Visit: who (`user`), where, when, and whether they got in. */
export interface VisitListRow {
  id: number;
  visited_at: string;
  successful: boolean;
  user: { id: number; name: string };
  gym: { id: number; name: string };
}

const toRow = (r: RawRow): VisitListRow => ({ id: r.id, visited_at: r.visited_at.toISOString(), successful: r.successful, user: { id: r.user_id, name: r.member_name }, gym: { id: r.gym_id, name: r.gym } });

/** One visit as the list answers it (an outgoing webhook's payload: server/api/event-resources.ts); null when not this organisation's. */
export async function visitRow(t: Tenant, id: number): Promise<VisitListRow | null> {
  const [row] = await joined(t).where(t.where(visits, eq(visits.id, id)));
  return row ? toRow(row) : null;
}

export async function listVisits(t: Tenant, given: VisitFilters, page: number, now: Date) {
  const f = await resolve(t, given);
  const order = [desc(visits.visited_at), desc(visits.id)];
  const ids = t.db.select({ page_id: visits.id }).from(visits).where(where(t, f, now)).orderBy(...order).limit(LIST_PER_PAGE).offset((page - 1) * LIST_PER_PAGE).as("page_ids");
  const [rows, totals] = await Promise.all([
    joined(t).innerJoin(ids, eq(ids.page_id, visits.id)).orderBy(...order),
    f.member || f.q ? countedTotals(t, f, now) : rolledUpTotals(t, f, now),
  ]);
  const { from, to } = dateRange(f, now);
  return { data: rows.map(toRow), totals, meta: { page, per_page: LIST_PER_PAGE, total: totals.count, pages: Math.max(1, Math.ceil(totals.count / LIST_PER_PAGE)), from, to } };
}

interface VisitTotals {
  count: number;
  successful: number;
  refused: number;
}

function countsSelection() {
  return {
    count: sql<number>`count(*)`.mapWith(Number),
    successful: sql<number>`count(*) filter (where ${visits.successful})`.mapWith(Number),
    refused: sql<number>`count(*) filter (where not ${visits.successful})`.mapWith(Number),
  };
}

async function countedTotals(t: Tenant, f: Resolved, now: Date): Promise<VisitTotals> {
  const [totals] = await t.db.select(countsSelection()).from(visits).where(where(t, f, now));
  return totals;
}

async function rolledUpTotals(t: Tenant, f: VisitFilters, now: Date): Promise<VisitTotals> {
  const { from, to } = dateRange(f, now);
  const d = daily_visits;
  const [sums] = await t.db
    .select({
      successful: sql<number>`coalesce(sum(${d.visits}), 0)`.mapWith(Number),
      refused: sql<number>`coalesce(sum(${d.refused}), 0)`.mapWith(Number),
    })
    .from(d)
    .where(t.where(d, gte(d.day, from), lte(d.day, to), f.gymId ? eq(d.gym_id, f.gymId) : undefined));
  const successful = f.result === "refused" ? 0 : sums.successful;
  const refused = f.result === "successful" ? 0 : sums.refused;
  return { count: successful + refused, successful, refused };
}

/** Every visit the filters match, newest first, `batch` at a time by keyset (the CSV export). */
export async function* eachVisit(t: Tenant, given: VisitFilters, now: Date, batch = 1000): AsyncGenerator<VisitListRow[]> {
  const f = await t.again((t) => resolve(t, given));
  const batches = newestFirst(
    t,
    { at: visits.visited_at, id: visits.id },
    (r: RawRow) => r.visited_at,
    (t, before, limit) => joined(t).where(and(where(t, f, now), before)).orderBy(desc(visits.visited_at), desc(visits.id)).limit(limit),
    batch,
  );
  for await (const rows of batches) yield rows.map(toRow);
}

export const VISIT_CSV_HEADER = ["ID", NZ_TIME("When"), "Member ID", "Member", "Gym", "Result"];
export const visitCsvRow = (v: VisitListRow) => [String(v.id), csvDateTime(v.visited_at), String(v.user.id), v.user.name, v.gym.name, v.successful ? "entered" : "refused"];
