import { eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { pausesColumn, schedulePauses } from "../billing/pauses";
import type { BillingFrequency } from "../../domain/billing";
import { addCalendarDays, formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { declineKind, nextRetryDay } from "../../domain/failures";
import type { LocalDay } from "../../domain/periods";
import { formatCents } from "../../domain/money";
import { chargesDue } from "../../domain/schedule";
import { payments, prices, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { givenBackOfEach } from "../payments/adjustments";

/**
 * GET /api/expected-payments-debugging (SPEC §7): for a range of days, each subscription's periods as the engine's
 * own rule (domain/schedule.ts chargesDue, from the subscription's facts now) expects them, against the payments
 * made for them, mismatches first. Verdicts, in the words support uses:
 * - ok: charged once, the expected amount, paid;
 * - missing: a period came due and has no payment;
 * - wrong_amount: paid, but not what the price (or a scheduled change) says;
 * - failed: its latest attempt failed (retries or the grace period are under way, or over);
 * - charged_twice: more than one paid attempt for one period;
 * - unexpected: a payment for a period the rule does not expect (a pause or a cancellation not honoured);
 * - in_progress: pending or awaiting the member's bank payment; not a mismatch yet.
 * The first payment of a subscription sold part-way (pro-rata) or paid in full is not the rule's, so it is left out.
 *
 * Money given back afterwards (issue 28) is said in the message, and does not change an `ok`: the engine charged the
 * period once, as expected; a refund is staff's decision and a chargeback the bank's, and both are on the books
 * (revenue is net of them). So "Charged once, then refunded $25.00." and "Charged once; charged back by the bank
 * ($25.00)." are `ok`, as is a partial refund. A second paid attempt given back in full (a duplicate refunded, or
 * charged back) no longer counts as charging twice: the period is judged on the attempt that kept its money.
 */
export type Verdict = "ok" | "missing" | "wrong_amount" | "failed" | "charged_twice" | "unexpected" | "in_progress";
const MISMATCH: Verdict[] = ["missing", "charged_twice", "wrong_amount", "unexpected", "failed"];
const PAGE = 100;

export interface ExpectedRow {
  subscription_id: number;
  member: { id: number; name: string };
  period_start: string;
  expected_amount: number | null;
  charged: { id: number; attempt: number; status: string; amount: number; error_status: string | null; refunded: number; charged_back: number; disputed: boolean }[];
  verdict: Verdict;
  message: string;
}

const toPrice = alias(prices, "to_price");

export async function expectedPayments(t: Tenant, q: { from: string; to: string; gym?: number; mismatches?: boolean; page?: number }, now: Date) {
  const until = q.to < localDay(now) ? q.to : localDay(now);
  const end = startOfLocalDay(addCalendarDays(q.to, 1));
  const subs = await t.db
    .select({
      id: subscriptions.id,
      user_id: subscriptions.user_id,
      name: users.name,
      anchor: subscriptions.billing_anchor,
      cancelled_at: subscriptions.cancelled_at,
      pause_start_at: subscriptions.pause_start_at,
      pause_end_at: subscriptions.pause_end_at,
      force_price_amount: subscriptions.force_price_amount,
      transition_takes_effect_at: subscriptions.transition_takes_effect_at,
      current_period_end: subscriptions.current_period_end,
      upcoming_state: subscriptions.upcoming_state,
      grace_period_ends_at: subscriptions.grace_period_ends_at,
      amount: prices.amount,
      frequency: prices.billing_frequency,
      toAmount: toPrice.amount,
      toFrequency: toPrice.billing_frequency,
      pauses: pausesColumn,
    })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.price_id))
    .innerJoin(users, eq(users.id, subscriptions.user_id))
    .leftJoin(toPrice, eq(toPrice.id, subscriptions.transition_to_price_id))
    .where(
      t.where(
        subscriptions,
        isNotNull(subscriptions.billing_anchor),
        ne(prices.billing_frequency, "one_off"),
        lt(subscriptions.created_at, end),
        or(isNull(subscriptions.cancelled_at), gte(subscriptions.cancelled_at, startOfLocalDay(q.from))),
        q.gym ? eq(subscriptions.gym_id, q.gym) : undefined,
      ),
    );
  const given = givenBackOfEach(t);
  const charged = await t.db
    .select({
      id: payments.id,
      subscription_id: payments.subscription_id,
      period_start_at: payments.period_start_at,
      attempt: payments.attempt,
      status: payments.status,
      amount: payments.amount,
      error_status: payments.error_status,
      failed_at: payments.failed_at,
      surcharge: payments.surcharge,
      refunded: given.refunded,
      charged_back: given.charged_back,
      disputed: given.disputed,
    })
    .from(payments)
    .leftJoinLateral(given, sql`true`)
    .where(
      t.where(
        payments,
        isNotNull(payments.subscription_id),
        gte(payments.period_start_at, startOfLocalDay(q.from)),
        lt(payments.period_start_at, end),
        eq(payments.is_pro_rata, false),
        ne(payments.status, "upcoming"),
        sql`coalesce(${payments.type}, 'subscription') <> 'pif'`,
        q.gym ? eq(payments.gym_id, q.gym) : undefined,
        subs.length < 5_000 ? inArray(payments.subscription_id, subs.length ? subs.map((s) => s.id) : [0]) : undefined,
      ),
    );
  // subscription → period start → its attempts
  const bySubscription = new Map<number, Map<string, typeof charged>>();
  for (const p of charged) {
    const periods = bySubscription.get(p.subscription_id!) ?? new Map<string, typeof charged>();
    bySubscription.set(p.subscription_id!, periods);
    const start = localDay(p.period_start_at!);
    periods.set(start, [...(periods.get(start) ?? []), p]);
  }

  const rows: ExpectedRow[] = [];
  for (const s of subs) {
    const due =
      s.upcoming_state === "upcoming" || q.from > until
        ? []
        : chargesDue(
            {
              frequency: s.frequency as BillingFrequency,
              anchor: s.anchor!,
              paidUntil: q.from,
              amount: s.force_price_amount ?? s.amount,
              cancelledFrom: s.cancelled_at ? localDay(s.cancelled_at) : null,
              pauses: schedulePauses(s.pauses, s),
              // As the billing run: a change to another billing frequency is never applied (decision 0040).
              priceChange: s.toAmount !== null && s.toFrequency === s.frequency ? { from: localDay(s.transition_takes_effect_at ?? s.current_period_end!), amount: s.toAmount } : null,
            },
            until,
          );
    const seen = new Set<string>();
    const member = { id: s.user_id, name: s.name };
    const periods = bySubscription.get(s.id) ?? new Map<string, typeof charged>();
    for (const { period, amount } of due) {
      seen.add(period.start);
      const attempts = (periods.get(period.start) ?? []).sort((a, b) => a.attempt - b.attempt);
      const accessStops = s.grace_period_ends_at ? localDay(s.grace_period_ends_at) : null;
      rows.push({ subscription_id: s.id, member, period_start: period.start, expected_amount: amount, charged: attempts.map(strip), ...judge(amount, attempts, accessStops) });
    }
    for (const [start, attempts] of periods) {
      if (seen.has(start) || start > until) continue;
      rows.push({
        subscription_id: s.id,
        member,
        period_start: start,
        expected_amount: null,
        charged: attempts.map(strip),
        verdict: "unexpected",
        message: "Charged for a period the schedule does not expect (a pause, a cancellation or the billing day not honoured).",
      });
    }
  }
  const rank = (v: Verdict) => (MISMATCH.includes(v) ? MISMATCH.indexOf(v) : MISMATCH.length + (v === "in_progress" ? 0 : 1));
  rows.sort((a, b) => rank(a.verdict) - rank(b.verdict) || a.period_start.localeCompare(b.period_start) || a.subscription_id - b.subscription_id);
  const summary = Object.fromEntries((["ok", ...MISMATCH, "in_progress"] as Verdict[]).map((v) => [v, rows.filter((r) => r.verdict === v).length])) as Record<Verdict, number>;
  const listed = q.mismatches ? rows.filter((r) => MISMATCH.includes(r.verdict)) : rows;
  const page = q.page ?? 1;
  return {
    from: q.from,
    to: q.to,
    checked_until: until,
    summary,
    data: listed.slice((page - 1) * PAGE, page * PAGE),
    meta: { page, per_page: PAGE, total: listed.length },
  };
}

type Given = { refunded: number | null; charged_back: number | null; disputed: boolean | null };

const strip = (p: { id: number; attempt: number; status: string; amount: number; error_status: string | null } & Given) => ({
  id: p.id,
  attempt: p.attempt,
  status: p.status,
  amount: p.amount,
  error_status: p.error_status,
  refunded: p.refunded ?? 0,
  charged_back: p.charged_back ?? 0,
  disputed: p.disputed ?? false,
});

type Attempt = { status: string; amount: number; surcharge: number; error_status: string | null; failed_at: Date | null } & Given;

const paidOf = (a: Attempt) => a.amount + a.surcharge;
const returnedInFull = (a: Attempt) => (a.refunded ?? 0) + (a.charged_back ?? 0) >= paidOf(a);

/** What happened to a paid attempt's money afterwards (issue 28), in the order it is told; empty when nothing did. */
function afterwards(a: Attempt): string[] {
  const refunded = a.refunded ?? 0;
  const chargedBack = a.charged_back ?? 0;
  return [
    refunded ? `refunded ${formatCents(refunded)}${refunded < paidOf(a) ? ` of ${formatCents(paidOf(a))}` : ""}` : "",
    chargedBack ? `charged back by the bank (${formatCents(chargedBack)})` : "",
    a.disputed ? "disputed at the bank, not decided yet" : "",
  ].filter(Boolean);
}

/** How a paid attempt given back in full went back: "refunded $20.00", "charged back". */
const howReturned = (a: Attempt) => ((a.charged_back ?? 0) > 0 ? "charged back" : `refunded ${formatCents(a.refunded ?? 0)}`);

function judge(expected: number, attempts: Attempt[], accessStops: LocalDay | null): { verdict: Verdict; message: string } {
  if (!attempts.length) return { verdict: "missing", message: "Came due and was never charged." };
  const paid = attempts.filter((a) => a.status === "sent");
  // A paid attempt whose money all went back is no longer a charge that stands: a duplicate refunded is put right.
  const kept = paid.filter((a) => !returnedInFull(a));
  if (kept.length > 1) return { verdict: "charged_twice", message: `Paid ${kept.length} times for one period.${paid.length > kept.length ? ` ${paid.length - kept.length} more given back in full.` : ""}` };
  if (paid.length > 1) {
    const back = paid.filter(returnedInFull);
    const message = `Paid ${paid.length} times for one period; ${back.length === 1 ? "one" : back.length} given back in full (${back.map(howReturned).join(", ")}).`;
    if (kept.length === 1 && kept[0].amount !== expected) return { verdict: "wrong_amount", message: `${message} The one kept is ${formatCents(kept[0].amount)}; the price says ${formatCents(expected)}.` };
    return { verdict: "ok", message };
  }
  if (paid.length === 1) {
    const then = afterwards(paid[0]).join("; ");
    return paid[0].amount === expected
      ? { verdict: "ok", message: then ? `Charged once, then ${then}.` : "Charged once, as expected." }
      : { verdict: "wrong_amount", message: `Charged ${formatCents(paid[0].amount)}; the price says ${formatCents(expected)}.${then ? ` Then ${then}.` : ""}` };
  }
  const latest = attempts[attempts.length - 1];
  if (["pending", "awaiting_payment", "pending_request"].includes(latest.status)) return { verdict: "in_progress", message: `Under way: ${latest.status.replace(/_/g, " ")}.` };
  return { verdict: "failed", message: `Not paid: ${attempts.length} ${attempts.length === 1 ? "try" : "tries"}, the last ${latest.status}${latest.error_status ? ` (${latest.error_status})` : ""}. ${nextTry(attempts, accessStops)}` };
}

/** What the billing run will do next about a failed period: the same rule it plans retries by (domain/failures.ts). */
function nextTry(attempts: Attempt[], accessStops: LocalDay | null): string {
  const latest = attempts[attempts.length - 1];
  const first = attempts.find((a) => a.failed_at)?.failed_at;
  if (declineKind(latest.error_status) === "hard") return "Not tried again: the member must change their payment method.";
  const day = first ? nextRetryDay(localDay(first), attempts.length - 1, "soft", accessStops) : null;
  if (day) return `Next try on ${formatDay(day)}.`;
  return accessStops ? `No more tries: access stops on ${formatDay(accessStops)} unless it is paid.` : "No more tries: the schedule is spent.";
}
