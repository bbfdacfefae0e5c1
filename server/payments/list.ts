import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import { localDay } from "../../domain/dates";
import { NON_FAILED_PAYMENT_STATUSES, paymentOutcome, SUCCESSFUL_PAYMENT_STATUS } from "../../domain/payment";
import { LIST_PER_PAGE, PAYMENT_METHOD_LABELS, type PaymentListQuery, type PaymentMethodFilter } from "../../domain/schemas/money-lists";
import { PIF_PAYMENT_METHODS } from "../../domain/payment";
import { daily_revenue, gyms, payment_totals_daily, payment_types, payments, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { csvDateTime, NZ_DATE, NZ_TIME } from "../core/csv";
import { newestFirst } from "../core/keyset";
import { memberText } from "../search/member-text";
import { dateRange } from "../../domain/date-range";
import { adjustedIs, givenBackOfEach } from "./adjustments";
import { paymentEntities } from "../entities/payment";

/**
 * The payments list (issue 12, GET /api/payments): the organisation's payments in a date range (by when they were
 * made, Auckland days; the last 30 by default), newest first, filtered by outcome (SPEC §4), gym, payment method and
 * member, with totals for the whole filtered set. Each page's ids are found from the payments alone, and only those
 * 50 are joined to their member, gym and payment type. Without a member filter the totals are summed from the daily
 * rollup (payment_totals_daily, kept by triggers: drizzle/0023), a few hundred rows for a year instead of a scan of
 * every payment in it; for one member, a text search or the given-back filter they are counted from the payments
 * themselves. Each row says what was given back on it (refunds, chargebacks: issue 28), read for the page's rows only.
 */
export type PaymentFilters = Omit<PaymentListQuery, "gym" | "page"> & { gymId: number | null };


const DESK = new Set<string>(PIF_PAYMENT_METHODS);
const FAILED = sql`${payments.status} not in ('sent', ${sql.join(NON_FAILED_PAYMENT_STATUSES.map((s) => sql`${s}`), sql`, `)})`;

/** The filters, with a text search already turned into its members (memberText). */
type Resolved = PaymentFilters & { text?: SQL };

async function resolve(t: Tenant, f: PaymentFilters): Promise<Resolved> {
  return f.q ? { ...f, text: await memberText(t, f.q, payments.user_id) } : f;
}

function where(t: Tenant, f: Resolved, now: Date) {
  const { start, end } = dateRange(f, now);
  const conditions: (SQL | undefined)[] = [
    gte(payments.created_at, start),
    lt(payments.created_at, end),
    f.gymId ? eq(payments.gym_id, f.gymId) : undefined,
    f.member ? eq(payments.user_id, f.member) : undefined,
    f.text,
    f.status === "successful"
      ? eq(payments.status, SUCCESSFUL_PAYMENT_STATUS)
      : f.status === "not_failed"
        ? inArray(payments.status, [...NON_FAILED_PAYMENT_STATUSES])
        : f.status === "failed"
          ? FAILED
          : undefined,
    f.method ? methodIs(f.method) : undefined,
    f.adjusted ? adjustedIs(t, f.adjusted, f.gymId, { start, end }) : undefined,
  ];
  return t.where(payments, ...conditions);
}

function methodIs(method: PaymentMethodFilter): SQL {
  if (DESK.has(method)) return eq(payments.pif_payment, method as (typeof PIF_PAYMENT_METHODS)[number]);
  return sql`${payments.pif_payment} is null and exists (select 1 from ${payment_types} pt where pt.id = ${payments.payment_type_id} and pt.type = ${method})`;
}

export interface PaymentListRow {
  id: number;
  created_at: string;
  /** The member who paid (SPEC §3 Payment's `user`). */
  user: { id: number; name: string };
  gym: string;
  amount: number;
  surcharge: number;
  status: string;
  outcome: "successful" | "not_failed" | "failed";
  method: string | null;
  type: string | null;
  period_start: string | null;
  period_end: string | null;
  is_retry: boolean;
  error: string | null;
  can_mark_received: boolean;
  /** Cents refunded (refunds made or under way), charged back (chargebacks lost); a chargeback still open (issue 28). */
  refunded: number;
  charged_back: number;
  disputed: boolean;
}

const rowColumns = {
  id: payments.id,
  created_at: payments.created_at,
  user_id: payments.user_id,
  member_name: users.name,
  gym: gyms.name,
  amount: payments.amount,
  surcharge: payments.surcharge,
  status: payments.status,
  type: payments.type,
  pif_payment: payments.pif_payment,
  kind: payment_types.type,
  last_four: sql<string | null>`${payment_types.details}->>'last_four'`,
  period_start_at: payments.period_start_at,
  period_end_at: payments.period_end_at,
  is_retry: payments.is_retry,
  error_description: payments.error_description,
};

function toRow(r: RawRow): PaymentListRow {
  const method = r.pif_payment
    ? PAYMENT_METHOD_LABELS[r.pif_payment as PaymentMethodFilter]
    : r.kind
      ? `${PAYMENT_METHOD_LABELS[r.kind as PaymentMethodFilter]}${r.kind === "stripe_card" && r.last_four ? ` ending ${r.last_four}` : ""}`
      : null;
  return {
    id: r.id,
    created_at: r.created_at.toISOString(),
    user: { id: r.user_id, name: r.member_name },
    gym: r.gym,
    amount: r.amount,
    surcharge: r.surcharge,
    status: r.status,
    outcome: paymentOutcome(r.status),
    method,
    type: r.type,
    period_start: r.period_start_at ? localDay(r.period_start_at) : null,
    period_end: r.period_end_at ? localDay(r.period_end_at) : null,
    is_retry: r.is_retry,
    error: r.error_description,
    can_mark_received: r.pif_payment === "bank_transfer" && (r.status === "awaiting_payment" || r.status === "pending"),
    refunded: r.refunded ?? 0,
    charged_back: r.charged_back ?? 0,
    disputed: r.disputed ?? false,
  };
}

type RawRow = Awaited<ReturnType<ReturnType<typeof joined>["execute"]>>[number];

function joined(t: Tenant) {
  const given = givenBackOfEach(t);
  return t.db
    .select({ ...rowColumns, refunded: given.refunded, charged_back: given.charged_back, disputed: given.disputed })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
    .leftJoinLateral(given, sql`true`)
    .$dynamic();
}

/** One payment as the list answers it (an outgoing webhook's payload: server/api/event-resources.ts); null when not this organisation's. */
export async function paymentRow(t: Tenant, id: number): Promise<PaymentListRow | null> {
  const [row] = await joined(t).where(t.where(payments, eq(payments.id, id)));
  return row ? toRow(row) : null;
}

export async function listPayments(t: Tenant, given: PaymentFilters, page: number, now: Date) {
  const f = await resolve(t, given);
  const order = [desc(payments.created_at), desc(payments.id)];
  const ids = t.db.select({ page_id: payments.id }).from(payments).where(where(t, f, now)).orderBy(...order).limit(LIST_PER_PAGE).offset((page - 1) * LIST_PER_PAGE).as("page_ids");
  const [rows, totals] = await Promise.all([
    joined(t).innerJoin(ids, eq(ids.page_id, payments.id)).orderBy(...order),
    f.member || f.q || f.adjusted ? countedTotals(t, f, now) : rolledUpTotals(t, f, now),
  ]);
  const { from, to } = dateRange(f, now);
  // Each row is SPEC's Payment (server/entities/payment.ts) with the list's own columns beside it.
  const entities = await paymentEntities(t, rows.map((r) => r.id));
  return {
    data: rows.map((r) => ({ ...entities.get(r.id)!, ...toRow(r), user: entities.get(r.id)!.user })),
    totals,
    meta: { page, per_page: LIST_PER_PAGE, total: totals.count, pages: Math.max(1, Math.ceil(totals.count / LIST_PER_PAGE)), from, to },
  };
}

export interface PaymentTotals {
  count: number;
  successful: number;
  successful_count: number;
  not_failed: number;
  not_failed_count: number;
  failed: number;
  failed_count: number;
  /**
   * Cents given back in these days (refunds made, chargebacks lost, by the Auckland day each settled) in the gym or
   * every gym, from daily_revenue.returned (issue 28). Null with any other filter: the rollup knows only days and gyms.
   */
  returned: number | null;
}


/** The totals as aggregates of the filtered payments. */
function totalsSelection() {
  const money = sql`${payments.amount} + ${payments.surcharge}`;
  const notFailed = inArray(payments.status, [...NON_FAILED_PAYMENT_STATUSES]);
  const sum = (where: SQL) => sql<number>`coalesce(sum(${money}) filter (where ${where}), 0)`.mapWith(Number);
  const count = (where?: SQL) => sql<number>`count(*)${where ? sql` filter (where ${where})` : sql``}`.mapWith(Number);
  const sent = sql`${payments.status} = 'sent'`;
  return {
    count: count(),
    successful: sum(sent),
    successful_count: count(sent),
    not_failed: sum(notFailed),
    not_failed_count: count(notFailed),
    failed: sum(FAILED),
    failed_count: count(FAILED),
  };
}

async function countedTotals(t: Tenant, f: Resolved, now: Date): Promise<PaymentTotals> {
  const [totals] = await t.db.select(totalsSelection()).from(payments).where(where(t, f, now));
  return { ...totals, returned: null };
}

/** The same totals from the daily rollup: its method is the desk method, else the payment type's kind. */
async function rolledUpTotals(t: Tenant, f: PaymentFilters, now: Date): Promise<PaymentTotals> {
  const { from, to } = dateRange(f, now);
  const r = payment_totals_daily;
  const sumOf = (column: SQL | typeof r.amount | typeof r.payments, outcome?: string) =>
    sql<number>`coalesce(sum(${column})${outcome ? sql` filter (where ${r.outcome} = ${outcome})` : sql``}, 0)`.mapWith(Number);
  const d = daily_revenue;
  // The same days and gym in the revenue rollup, in the same statement: a few hundred rows for a year.
  const returned =
    f.status || f.method
      ? sql<number | null>`null::bigint`
      : sql<number | null>`(select coalesce(sum(${d.returned}), 0) from ${d} where ${t.where(d, gte(d.day, from), lte(d.day, to), f.gymId ? eq(d.gym_id, f.gymId) : undefined)})`;
  const [totals] = await t.db
    .select({
      count: sumOf(r.payments),
      successful: sumOf(r.amount, "successful"),
      successful_count: sumOf(r.payments, "successful"),
      not_failed: sumOf(r.amount, "not_failed"),
      not_failed_count: sumOf(r.payments, "not_failed"),
      failed: sumOf(r.amount, "failed"),
      failed_count: sumOf(r.payments, "failed"),
      returned: returned.mapWith((v) => (v === null ? null : Number(v))),
    })
    .from(r)
    .where(
      t.where(
        r,
        gte(r.day, from),
        lte(r.day, to),
        f.gymId ? eq(r.gym_id, f.gymId) : undefined,
        f.status ? eq(r.outcome, f.status) : undefined,
        f.method ? eq(r.method, f.method) : undefined,
      ),
    );
  return totals;
}

/** Every payment the filters match, newest first, `batch` at a time by keyset (the CSV export). */
export async function* eachPayment(t: Tenant, given: PaymentFilters, now: Date, batch = 1000): AsyncGenerator<PaymentListRow[]> {
  const f = await t.again((t) => resolve(t, given));
  const batches = newestFirst(
    t,
    { at: payments.created_at, id: payments.id },
    (r: RawRow) => r.created_at,
    (t, before, limit) => joined(t).where(and(where(t, f, now), before)).orderBy(desc(payments.created_at), desc(payments.id)).limit(limit),
    batch,
  );
  for await (const rows of batches) yield rows.map(toRow);
}

/** Refunded and Charged back (issue 28) come last, so a reader of the earlier columns by position still reads them. */
export const PAYMENT_CSV_HEADER = ["ID", NZ_TIME("Made"), "Member ID", "Member", "Gym", "Amount", "Surcharge", "Total", "Status", "Method", "Type", NZ_DATE("Period start"), NZ_DATE("Period end"), "Retry", "Error", "Refunded", "Charged back"];

export function paymentCsvRow(p: PaymentListRow): string[] {
  const cents = (n: number) => (n / 100).toFixed(2);
  return [
    String(p.id),
    csvDateTime(p.created_at),
    String(p.user.id),
    p.user.name,
    p.gym,
    cents(p.amount),
    cents(p.surcharge),
    cents(p.amount + p.surcharge),
    p.status,
    p.method ?? "",
    p.type ?? "",
    p.period_start ?? "",
    p.period_end ?? "",
    p.is_retry ? "yes" : "",
    p.error ?? "",
    cents(p.refunded),
    cents(p.charged_back),
  ];
}
