import { eq, inArray, isNull } from "drizzle-orm";
import { readRow, readState, SHOWN_ERROR_ROWS, type ColumnTarget, type ImportedMember, type ImportSummary, type Reading } from "../../domain/imports";
import { localDay } from "../../domain/dates";
import { offerings, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { batchesOf, dataRows, type CsvRow } from "./csv-rows";
import { existingPeople, outcomeFor, type Outcome } from "./people";

/**
 * Reading a file as the import will (issue 15): every row judged (readRow), every address looked up (people.ts), and
 * a second row with an address already seen refused. `visit` sees each row's outcome; the dry run counts them, the
 * import writes them. Rows are read in batches so each batch's addresses are looked up in one query.
 */
export const BATCH_ROWS = 1000;

export type Judged = { row: CsvRow; email: string } & ({ outcome: Outcome; member: ImportedMember } | { outcome: { kind: "reject"; reason: string }; member: null });

export function readingOf(imp: { mapping: Reading["mapping"]; date_order: Reading["dateOrder"]; plans: Record<string, number> }, now: Date): Reading {
  return { mapping: imp.mapping, dateOrder: imp.date_order, plans: imp.plans, today: localDay(now) };
}

/** One batch of rows judged. `seen` carries the addresses of earlier rows (and, resumed, of earlier runs). */
export async function judgeBatch(t: Tenant, batch: CsvRow[], reading: Reading, gymId: number, seen: Map<string, number>): Promise<Judged[]> {
  const verdicts = batch.map((row) => ({ row, verdict: readRow(row.cells, reading) }));
  const emails = [...new Set(verdicts.flatMap((v) => (v.verdict.ok ? [v.verdict.member.email] : [])))];
  const people = await existingPeople(t, emails);
  return verdicts.map(({ row, verdict }): Judged => {
    if (!verdict.ok) return { row, email: "", outcome: { kind: "reject", reason: verdict.reason }, member: null };
    const m = verdict.member;
    const first = seen.get(m.email);
    if (first !== undefined && first !== row.row) return { row, email: m.email, outcome: { kind: "reject", reason: `The e-mail address is also on row ${first}` }, member: null };
    seen.set(m.email, row.row);
    return { row, email: m.email, outcome: outcomeFor(m, people.get(m.email), gymId), member: m };
  });
}

/** The prices a plan may be matched to: the organisation's live prices. */
export async function importablePrices(t: Tenant) {
  return t.db
    .select({ id: prices.id, amount: prices.amount, billing_frequency: prices.billing_frequency, offering: offerings.name })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, isNull(prices.archived_at), isNull(offerings.archived_at)))
    .orderBy(offerings.name, prices.amount);
}

/**
 * The plan name on a row that needs a price: none when the cell is empty, or when the row's status says the member
 * cancelled (they join on no price).
 */
export function planOf(cells: string[], mapping: ColumnTarget[]): string | null {
  const plan = cells[mapping.indexOf("plan")]?.trim();
  if (!plan) return null;
  const status = mapping.indexOf("status");
  return status >= 0 && readState(cells[status] ?? "") === "cancelled" ? null : plan;
}

/** Plan names with their rows, most rows first, each with its match (null: none yet). */
const planList = (counts: Map<string, number>, plans: Record<string, number>) =>
  [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, count]) => ({ name, count, price_id: plans[name] ?? null }));

/** The matches still good: a plan matched to a price since archived counts as not matched. */
async function liveMatches(t: Tenant, plans: Record<string, number>) {
  const live = new Set((await importablePrices(t)).map((p) => p.id));
  return Object.fromEntries(Object.entries(plans).filter(([, id]) => id === 0 || live.has(id)));
}

/**
 * GET /api/imports/{id}/plans: the plan names in the file's plan column as the import is set now, for the person to
 * match before the first check (after it, the check's own list answers).
 */
export async function plansInFile(t: Tenant, content: string, imp: { mapping: ColumnTarget[]; plans: Record<string, number> }) {
  const counts = new Map<string, number>();
  if (imp.mapping.includes("plan")) {
    for await (const r of dataRows(content)) {
      const plan = planOf(r.cells, imp.mapping);
      if (plan) counts.set(plan, (counts.get(plan) ?? 0) + 1);
    }
  }
  return planList(counts, await liveMatches(t, imp.plans));
}

/** The dry run: what the import would do, nothing written. */
export async function dryRun(t: Tenant, content: string, imp: { gym_id: number; mapping: Reading["mapping"]; date_order: Reading["dateOrder"]; plans: Record<string, number> }, now: Date): Promise<ImportSummary> {
  const reading = readingOf(imp, now);
  const planCounts = new Map<string, number>();
  const summary: ImportSummary = { total: 0, create: 0, update: 0, unchanged: 0, errors: 0, error_rows: [], plans: [], sample: [], checked_at: now.toISOString() };
  if (imp.mapping.includes("status")) summary.states = { active: 0, paused: 0, cancelled: 0 };
  const plans = await liveMatches(t, imp.plans);
  const seen = new Map<string, number>();
  for await (const rows of batchesOf(dataRows(content), BATCH_ROWS)) {
    for (const j of await judgeBatch(t, rows, { ...reading, plans }, imp.gym_id, seen)) {
      summary.total++;
      const plan = planOf(j.row.cells, imp.mapping);
      if (plan) planCounts.set(plan, (planCounts.get(plan) ?? 0) + 1);
      const kind = j.outcome.kind;
      if (kind === "reject") {
        summary.errors++;
        if (summary.error_rows.length < SHOWN_ERROR_ROWS) summary.error_rows.push({ line: j.row.row, email: j.email || (j.row.cells[imp.mapping.indexOf("email")] ?? "").trim(), reason: j.outcome.reason });
        continue;
      }
      if (kind === "create" || kind === "join") summary.create++;
      else if (kind === "update") summary.update++;
      else if (kind === "invite") summary.invite = (summary.invite ?? 0) + 1;
      else summary.unchanged++;
      if (summary.states) summary.states[j.member!.state]++;
      if (summary.sample.length < 5) summary.sample.push({ line: j.row.row, member: j.member! });
    }
  }
  summary.plans = planList(planCounts, plans);
  return summary;
}

/** Prices of this organisation among `ids` (a plan matched to another organisation's price id is not one). */
export async function ownPrices(t: Tenant, ids: number[]) {
  if (!ids.length) return new Set<number>();
  const rows = await t.db.select({ id: prices.id }).from(prices).where(t.where(prices, inArray(prices.id, ids), isNull(prices.archived_at)));
  return new Set(rows.map((r) => r.id));
}
