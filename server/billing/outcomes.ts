import { sql } from "drizzle-orm";
import { startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import type { Db } from "../core/db/client";
import { arrayLiteral, rowsOf, unnestRows } from "../core/db/values";
import type { PaymentProviderName } from "../core/providers/charge-result";
import { latestAttempt } from "./plan";
import { settleIfPaidUp } from "./settle";
import { recordWebhookEvents, type EventToRecord } from "../outgoing-webhooks/events";

/**
 * What a provider said about our payments, written down: the one place a payment becomes paid or failed and a
 * subscription's grace period starts or ends (the billing run, and the providers' webhooks). Set-based, one
 * transaction per batch. A payment's state only moves forward: only an unsettled one (pending, or
 * awaiting_payment while the payer approves it) is changed here; paid and failed are final.
 */
export type ProviderName = PaymentProviderName;

type Reference = { provider: ProviderName | null; reference: string | null };

export type ChargeOutcome =
  | ({ kind: "paid"; paymentId: number; subscriptionId: number | null } & Reference)
  | ({
      kind: "failed";
      paymentId: number;
      subscriptionId: number | null;
      code: string;
      message: string;
      /** The day access stops if this stays unpaid (domain/failures.ts graceEnds): a running grace period is not extended. */
      graceEnds: LocalDay;
      /** When it failed, on the caller's clock (a simulated run's); the database's own time when not said. */
      failedAt?: Date;
    } & Reference)
  /** Accepted, not settled yet (3-D Secure, a direct debit before its confirmation, a bank payment on its way): asked again next run. */
  | ({ kind: "processing"; paymentId: number; chargeDate?: LocalDay | null } & Reference)
  /** Waiting for the payer to approve it in their bank (awaiting_payment): asked again next run, or told by a webhook. */
  | ({ kind: "awaiting"; paymentId: number } & Reference);

const ref = (o: Reference, provider: ProviderName) => (o.provider === provider ? o.reference : null);
const UNSETTLED = sql`p.status in ('pending', 'awaiting_payment')`;

export async function recordOutcomes(db: Db, outcomes: ChargeOutcome[], now: Date = new Date()): Promise<void> {
  if (!outcomes.length) return;
  const failed = outcomes.filter((o) => o.kind === "failed");
  const others = outcomes.filter((o) => o.kind !== "failed");
  await db.transaction(async (tx) => {
    // Outgoing webhooks for the payments this batch settled (only an unsettled payment is changed: a repeat is not news).
    const settled: EventToRecord[] = [];
    if (others.length) {
      const rows = others.map((o) => [
        o.paymentId,
        o.kind === "paid" ? "sent" : o.kind === "awaiting" ? "awaiting_payment" : "pending",
        ref(o, "stripe"),
        ref(o, "gocardless"),
        ref(o, "akahu"),
        o.kind === "processing" ? (o.chargeDate ?? null) : null,
        o.kind === "paid" ? 0 : 1,
      ]);
      const paid = await tx.execute(sql`
        update payments p set status = v.status,
          stripe_id = coalesce(v.stripe_id, p.stripe_id), gocardless_payment_id = coalesce(v.gocardless_payment_id, p.gocardless_payment_id),
          akahu_payment_id = coalesce(v.akahu_payment_id, p.akahu_payment_id),
          expected_charge_date = coalesce(v.charge_date, p.expected_charge_date), poll_count = p.poll_count + v.polled
        from ${unnestRows(rows, [
          "int",
          "text",
          "text",
          "text",
          "text",
          "date",
          "int",
        ])} v(id, status, stripe_id, gocardless_payment_id, akahu_payment_id, charge_date, polled)
        where p.id = v.id and ${UNSETTLED}
        returning p.id, p.organisation_id, p.status`);
      for (const r of rowsOf<{ id: number; organisation_id: number; status: string }>(paid)) {
        if (r.status === "sent") settled.push({ organisationId: Number(r.organisation_id), type: "payment.succeeded", id: Number(r.id) });
      }
    }
    if (failed.length) {
      const rows = failed.map((o) => [o.paymentId, ref(o, "stripe"), ref(o, "gocardless"), ref(o, "akahu"), o.code, o.message, o.failedAt ?? null]);
      const declined = await tx.execute(sql`
        update payments p set status = 'failed', error_status = v.code, error_description = v.message, failed_at = coalesce(v.failed_at, now()),
          stripe_id = coalesce(v.stripe_id, p.stripe_id), gocardless_payment_id = coalesce(v.gocardless_payment_id, p.gocardless_payment_id),
          akahu_payment_id = coalesce(v.akahu_payment_id, p.akahu_payment_id)
        from ${unnestRows(rows, [
          "int",
          "text",
          "text",
          "text",
          "text",
          "text",
          "timestamptz",
        ])} v(id, stripe_id, gocardless_payment_id, akahu_payment_id, code, message, failed_at)
        where p.id = v.id and ${UNSETTLED}
        returning p.id, p.organisation_id`);
      for (const r of rowsOf<{ id: number; organisation_id: number }>(declined))
        settled.push({ organisationId: Number(r.organisation_id), type: "payment.failed", id: Number(r.id) });
      // The member keeps access until the grace period ends; the earliest end wins when a batch holds two failures.
      const graces = new Map<number, LocalDay>();
      for (const o of failed) {
        if (o.subscriptionId && (!graces.has(o.subscriptionId) || o.graceEnds < graces.get(o.subscriptionId)!)) graces.set(o.subscriptionId, o.graceEnds);
      }
      if (graces.size) {
        await tx.execute(sql`
          update subscriptions s set grace_period_ends_at = v.ends, updated_at = now()
          from ${unnestRows([...graces].map(([id, day]) => [id, startOfLocalDay(day)]), ["int", "timestamptz"])} v(id, ends)
          where s.id = v.id and s.grace_period_ends_at is null and s.upcoming_state is null`);
      }
      // Akahu no longer takes the member's token: their bank must be connected again (SPEC's reauthenticate_akahu).
      const reconnect = failed.filter((o) => o.provider === "akahu" && o.code === "authentication_failed").map((o) => o.paymentId);
      if (reconnect.length) {
        await tx.execute(sql`
          update bank_connections b set reauthenticate = true, updated_at = now()
          from payments p where p.id = any(${arrayLiteral(reconnect)}::int[]) and b.organisation_id = p.organisation_id and b.user_id = p.user_id and b.provider = 'akahu'`);
      }
    }
    // Paid up again: the grace period ends once no period's latest attempt has failed.
    const cleared = [...new Set(outcomes.filter((o) => o.kind === "paid").map((o) => o.subscriptionId).filter((id): id is number => id !== null))];
    if (cleared.length) {
      await tx.execute(sql`
        update subscriptions s set grace_period_ends_at = null, updated_at = now()
        where s.id in ${sql`(${sql.join(cleared.map((id) => sql`${id}`), sql`, `)})`} and s.grace_period_ends_at is not null
          and not exists (select 1 from payments where payments.subscription_id = s.id and payments.status = 'failed' and ${latestAttempt})`);
    }
    await recordWebhookEvents(tx, settled, now);
  });
  await restorePaidUp(db, outcomes, now);
}

/**
 * A retry still under way when access stopped (a direct debit takes days to answer) can be paid after: once
 * nothing is owed, the membership runs again from the period running that day, as when staff take the debt
 * (./settle.ts); the door follows at the run's next door sync.
 */
async function restorePaidUp(db: Db, outcomes: ChargeOutcome[], now: Date) {
  const paid = [...new Set(outcomes.flatMap((o) => (o.kind === "paid" && o.subscriptionId !== null ? [o.subscriptionId] : [])))];
  if (!paid.length) return;
  const stopped = rowsOf<{ id: number }>(
    await db.execute(sql`select id from subscriptions where id = any(${arrayLiteral(paid)}::int[]) and upcoming_state = 'failed' and cancelled_at is null`),
  );
  for (const { id } of stopped) await settleIfPaidUp(db, Number(id), now);
}

/**
 * Grace periods that ran out unpaid (issue 11): access stops. The subscription's grace period ends and it becomes
 * `upcoming_state = 'failed'` (SPEC §4: Upcoming, value failed), so its state, the status card and the door all
 * say the member is not paid up; it is not charged or retried again until staff or the member settle it (issue 12).
 * A cancelled subscription keeps its grace date: "cancelled while in a grace period" is how its card shows red.
 * Answers the subscriptions it stopped, with their member, for the door (server/billing/doors.ts).
 */
export async function endLapsedGraces(db: Db, now: Date): Promise<{ id: number; organisationId: number; userId: number }[]> {
  return db.transaction(async (tx) => {
    const ended = await tx.execute(sql`
      update subscriptions set upcoming_state = 'failed', grace_period_ends_at = null, updated_at = now()
      where grace_period_ends_at <= ${now.toISOString()}::timestamptz and cancelled_at is null and upcoming_state is null
      returning id, organisation_id, user_id`);
    return rowsOf<{ id: number; organisation_id: number; user_id: number }>(ended).map((r) => ({ id: Number(r.id), organisationId: Number(r.organisation_id), userId: Number(r.user_id) }));
  });
}
