import { sql } from "drizzle-orm";
import { localDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import { subscriptions } from "../core/db/schema";

/**
 * A subscription's pauses, as the billing schedule walks them (domain/schedule.ts): every pause not removed, from
 * subscription_pauses (issue 12), oldest first. A subscription whose pause was set without a row (a pause with no
 * end, or one written before the table) has its own pause fields read instead: one place decides, for the billing
 * run and the expected-payments check alike.
 */
export const pausesColumn = sql<{ start: LocalDay; end: LocalDay }[] | null>`(select json_agg(json_build_object('start', sp.start_day, 'end', sp.end_day) order by sp.start_day)
  from subscription_pauses sp where sp.subscription_id = ${subscriptions.id} and sp.removed_at is null)`;

export function schedulePauses(
  rows: { start: LocalDay; end: LocalDay }[] | null,
  s: { pause_start_at: Date | null; pause_end_at: Date | null },
): { start: LocalDay; end: LocalDay | null }[] {
  if (rows?.length) return rows.map((p) => ({ start: String(p.start).slice(0, 10), end: String(p.end).slice(0, 10) }));
  return s.pause_start_at ? [{ start: localDay(s.pause_start_at), end: s.pause_end_at ? localDay(s.pause_end_at) : null }] : [];
}
