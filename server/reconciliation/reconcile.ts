import { and, eq, gte, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { addCalendarDays, localDay, startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import { directDebitChargeback, disputeChargeback, recordChargeback, type Chargeback } from "../billing/chargebacks";
import { recordOutcomes, type ChargeOutcome } from "../billing/outcomes";
import { tellMembers } from "../billing/refunds";
import type { MemberMailer } from "../member-mail/brand";
import type { Db } from "../core/db/client";
import { bank_connections, gyms, payment_adjustments, payments, reconciliation_differences, reconciliation_runs } from "../core/db/schema";
import { log } from "../core/observability/log";
import { reportError } from "../core/observability/report";
import { bankPaymentResult } from "../core/providers/bank/bank-provider";
import type { ChargeResult, CreatedBetween, PaymentProviderName } from "../core/providers/charge-result";
import { directDebitResult, type DirectDebitPayment } from "../core/providers/direct-debit/direct-debit-provider";
import type { GymAccounts } from "../core/providers/gym-accounts";
import type { ProviderDispute, ProviderRefund } from "../core/providers/refunds";
import type { Providers } from "../core/providers/registry";
import { insertProviderRefund } from "./adjustments";

/**
 * The daily reconciliation (issue 28, decision 0042): our payments compared with each provider's own books for a
 * window of Auckland days, gym by gym, through the adapters. Cards (Stripe) and direct debits (GoCardless) are listed by
 * the day the provider made them, with their refunds; Akahu lists no app payments by day, so each of our bank payments
 * of the window is asked for by its id (money taken at Akahu that we never asked for cannot be seen from here).
 * Where the provider is authoritative the difference is written through and logged (a payment still pending that it
 * settled, through recordOutcomes; a refund made in its dashboard, as a provider refund); anything else is an open
 * difference for a person. The job works across organisations, as the billing run does.
 */
export const RECONCILIATION_KINDS = ["taken_not_recorded", "recorded_not_taken", "amount_differs", "settled_not_recorded", "refund_not_recorded", "chargeback_not_recorded"] as const;
export type DifferenceKind = (typeof RECONCILIATION_KINDS)[number];

/** How many Auckland days back the daily job looks, yesterday included. */
export const RECONCILE_DAYS = 3;

export interface ReconcileReport {
  runId: number;
  from: LocalDay;
  until: LocalDay;
  checked: number;
  corrected: number;
  /** New open differences this run (one already open or explained is not recorded again). */
  open: number;
  /** Every difference still open after the run, in every organisation. */
  stillOpen: number;
  byKind: Partial<Record<DifferenceKind, { corrected: number; open: number }>>;
  errors: string[];
}

/** The daily job's window: the last RECONCILE_DAYS whole Auckland days before `now`'s. */
export function defaultWindow(now: Date): { from: LocalDay; until: LocalDay } {
  const today = localDay(now);
  return { from: addCalendarDays(today, -RECONCILE_DAYS), until: addCalendarDays(today, -1) };
}

type Ours = {
  id: number;
  organisation_id: number;
  gym_id: number;
  user_id: number;
  subscription_id: number | null;
  amount: number;
  surcharge: number;
  status: string;
  reference: string | null;
  created_at: Date;
  token: string | null;
};

/** takenBack: the provider says the payer's bank took it back (a direct debit charged back or failed late), as a chargeback of ours. */
type Theirs = { id: string; result: ChargeResult; amount: number; created: Date | null; paymentId: number | null; takenBack?: (paymentId: number) => Chargeback };

const REFERENCE = { stripe: payments.stripe_id, gocardless: payments.gocardless_payment_id, akahu: payments.akahu_payment_id } as const;
const UNSETTLED = new Set(["pending", "awaiting_payment"]);

const metaPaymentId = (metadata: Record<string, string>) => (/^\d{1,9}$/.test(metadata.payment_id ?? "") ? Number(metadata.payment_id) : null);
const stateOf = (r: ChargeResult) => (r.status === "declined" ? `declined (${r.declineCode})` : r.status);

export async function reconcile(db: Db, providers: Providers, window: { from: LocalDay; until: LocalDay }, now: Date = new Date(), tell: MemberMailer | null = null): Promise<ReconcileReport> {
  const between: CreatedBetween = { from: startOfLocalDay(window.from), until: startOfLocalDay(addCalendarDays(window.until, 1)) };
  const [run] = await db.insert(reconciliation_runs).values({ from_day: window.from, until_day: window.until, started_at: now }).returning({ id: reconciliation_runs.id });
  const report: ReconcileReport = { runId: run.id, from: window.from, until: window.until, checked: 0, corrected: 0, open: 0, stillOpen: 0, byKind: {}, errors: [] };
  /** Refunds and chargebacks written through, which their members hear of (as from the webhooks). */
  const told: number[] = [];

  const record = async (
    kind: DifferenceKind,
    status: "corrected" | "open",
    d: { gym: { id: number; organisation_id: number }; provider: PaymentProviderName; reference: string; ours: Ours | null; theirs: Record<string, unknown> | null; day: Date | null },
  ) => {
    const [written] = await db
      .insert(reconciliation_differences)
      .values({
        organisation_id: d.gym.organisation_id,
        gym_id: d.gym.id,
        run_id: run.id,
        provider: d.provider,
        kind,
        payment_id: d.ours?.id ?? null,
        provider_reference: d.reference,
        day: d.day ? localDay(d.day) : null,
        ours: d.ours ? { amount: d.ours.amount + d.ours.surcharge, status: d.ours.status, reference: d.ours.reference, day: localDay(d.ours.created_at) } : null,
        theirs: d.theirs,
        status,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: reconciliation_differences.id });
    if (!written) return false;
    const counts = (report.byKind[kind] ??= { corrected: 0, open: 0 });
    counts[status]++;
    report[status]++;
    if (status === "corrected") log.info({ job: "reconciliation", kind, provider: d.provider, difference: written.id, payment: d.ours?.id ?? null }, "reconciliation corrected a difference");
    return true;
  };

  /** Our payments the provider's objects may be: made in the window with its reference, or named by one of them. */
  const oursOf = async (gymId: number, provider: PaymentProviderName, references: string[], ids: number[]): Promise<Ours[]> => {
    const column = REFERENCE[provider];
    const rows = await db
      .select({
        id: payments.id,
        organisation_id: payments.organisation_id,
        gym_id: payments.gym_id,
        user_id: payments.user_id,
        subscription_id: payments.subscription_id,
        amount: payments.amount,
        surcharge: payments.surcharge,
        status: payments.status,
        reference: column,
        created_at: payments.created_at,
        token: provider === "akahu" ? bank_connections.access_token : sql<string | null>`null`,
      })
      .from(payments)
      .leftJoin(bank_connections, and(eq(bank_connections.organisation_id, payments.organisation_id), eq(bank_connections.user_id, payments.user_id), eq(bank_connections.provider, "akahu")))
      .where(
        and(
          eq(payments.gym_id, gymId),
          or(
            and(isNotNull(column), gte(payments.created_at, between.from), lt(payments.created_at, between.until)),
            references.length ? inArray(column, references) : undefined,
            ids.length ? inArray(payments.id, ids) : undefined,
          ),
        ),
      );
    return rows;
  };

  const compare = async (gym: { id: number; organisation_id: number }, provider: PaymentProviderName, listed: Theirs[], retrieve: (o: Ours) => Promise<Theirs | null | undefined>) => {
    const ours = await oursOf(gym.id, provider, listed.map((t) => t.id), listed.flatMap((t) => (t.paymentId ? [t.paymentId] : [])));
    const byReference = new Map(ours.filter((o) => o.reference).map((o) => [o.reference!, o]));
    const byId = new Map(ours.map((o) => [o.id, o]));
    const seen = new Set<number>();
    const outcomes: ChargeOutcome[] = [];

    const one = async (t: Theirs, o: Ours | undefined, byMetadata: boolean) => {
      report.checked++;
      const theirs = { amount: t.amount, status: stateOf(t.result), reference: t.id, day: t.created ? localDay(t.created) : null };
      const base = { gym, provider, reference: t.id, theirs, day: t.created ?? o?.created_at ?? null };
      if (!o || (byMetadata && o.reference && o.reference !== t.id)) {
        // Money taken that is none of our payments, or a second charge for one that has its own.
        if (t.result.status === "succeeded") await record("taken_not_recorded", "open", { ...base, ours: o ?? null });
        return;
      }
      if (t.amount !== o.amount + o.surcharge) return void (await record("amount_differs", "open", { ...base, ours: o }));
      if (t.result.status === "succeeded") {
        if (UNSETTLED.has(o.status)) {
          if (await record("settled_not_recorded", "corrected", { ...base, ours: o })) outcomes.push({ kind: "paid", paymentId: o.id, subscriptionId: o.subscription_id, provider, reference: t.id });
        } else if (o.status === "failed") await record("taken_not_recorded", "open", { ...base, ours: o });
        return;
      }
      if (o.status !== "sent") return;
      if (t.takenBack) return void (await takenBack(gym, provider, t.takenBack(o.id), o, { ...base, ours: o }));
      await record("recorded_not_taken", "open", { ...base, ours: o });
    };

    for (const t of listed) {
      let o = byReference.get(t.id);
      const byMetadata = !o && t.paymentId !== null;
      if (!o && t.paymentId !== null) o = byId.get(t.paymentId);
      if (o) seen.add(o.id);
      await one(t, o, byMetadata);
    }
    // Ours the list did not show (made before the window at the provider, or not there at all): asked for by id.
    for (const o of ours) {
      if (seen.has(o.id) || !o.reference || !(o.status === "sent" || UNSETTLED.has(o.status))) continue;
      if (o.created_at < between.from || o.created_at >= between.until) continue;
      const t = await retrieve(o);
      // Undefined: the provider cannot be asked about it (a bank payment whose member's token is gone).
      if (t === undefined) continue;
      if (t) await one(t, o, false);
      else if (o.status === "sent") {
        report.checked++;
        await record("recorded_not_taken", "open", { gym, provider, reference: o.reference, ours: o, theirs: null, day: o.created_at });
      }
    }
    // The provider's word, written by the one writer (it moves only unsettled payments forward).
    await recordOutcomes(db, outcomes, now);
  };

  /**
   * A chargeback the provider holds (a dispute, a direct debit charged back or failed late) of a payment we hold as
   * paid: the provider is authoritative about what the payer's bank took back, so it is written as its webhook would
   * (recordChargeback: once, only forward, a lost one owing again) and logged as corrected; nothing new when we hold it.
   */
  const takenBack = async (gym: { id: number; organisation_id: number }, provider: PaymentProviderName, c: Chargeback, o: Ours, base: Parameters<typeof record>[2]) => {
    if (o.status !== "sent") return void (await record("chargeback_not_recorded", "open", base));
    const written = await recordChargeback(db, c, now);
    if (written.change === "unchanged") return;
    await record("chargeback_not_recorded", "corrected", { ...base, theirs: { ...base.theirs, chargeback: c.providerId, status: c.status } });
    if (written.adjustment.status === "lost") told.push(written.adjustment.id);
  };

  /** Stripe's disputes opened in the window, against the chargebacks we hold (by the dispute's id). */
  const disputesOf = async (gym: { id: number; organisation_id: number }, disputes: ProviderDispute[]) => {
    if (!disputes.length) return;
    const disputed = (await oursOf(gym.id, "stripe", disputes.map((d) => d.paymentReference), [])).filter((o) => disputes.some((d) => d.paymentReference === o.reference));
    for (const d of disputes) {
      if (d.amount < 1) continue;
      report.checked++;
      const [held] = await db.select({ status: payment_adjustments.status }).from(payment_adjustments).where(and(eq(payment_adjustments.method, "stripe"), eq(payment_adjustments.provider_id, d.id)));
      if (held?.status === d.status) continue;
      const o = disputed.find((r) => r.reference === d.paymentReference);
      const theirs = { amount: d.amount, status: d.status, reference: d.id, payment: d.paymentReference, day: d.created ? localDay(d.created) : null };
      const base = { gym, provider: "stripe" as const, reference: d.id, theirs, ours: o ?? null, day: d.created ?? null };
      if (!o) await record("chargeback_not_recorded", "open", base);
      else await takenBack(gym, "stripe", disputeChargeback(o.id, d), o, base);
    }
  };

  const refundsOf = async (gym: { id: number; organisation_id: number }, provider: "stripe" | "gocardless", refunds: ProviderRefund[]) => {
    for (const r of refunds) {
      if (r.status === "failed") continue;
      report.checked++;
      const ourRefund = /^\d{1,9}$/.test(r.metadata.refund_id ?? "") ? Number(r.metadata.refund_id) : 0;
      const held = await db.$count(
        payment_adjustments,
        and(eq(payment_adjustments.gym_id, gym.id), or(and(eq(payment_adjustments.method, provider), eq(payment_adjustments.provider_id, r.id)), eq(payment_adjustments.id, ourRefund))),
      );
      if (held) continue;
      const [payment] = await db
        .select({ id: payments.id, organisation_id: payments.organisation_id, gym_id: payments.gym_id, user_id: payments.user_id })
        .from(payments)
        .where(and(eq(payments.gym_id, gym.id), eq(REFERENCE[provider], r.paymentReference)));
      const theirs = { amount: r.amount, status: r.status, reference: r.id, payment: r.paymentReference, day: r.created ? localDay(r.created) : null };
      const base = { gym, provider, reference: r.id, theirs, day: r.created ?? null };
      if (!payment) {
        await record("refund_not_recorded", "open", { ...base, ours: null });
        continue;
      }
      const inserted = await insertProviderRefund(db, payment, provider, r, now);
      if (inserted) {
        told.push(inserted);
        await db
          .insert(reconciliation_differences)
          .values({ organisation_id: gym.organisation_id, gym_id: gym.id, run_id: run.id, provider, kind: "refund_not_recorded", payment_id: payment.id, provider_reference: r.id, day: r.created ? localDay(r.created) : null, ours: null, theirs, status: "corrected", created_at: now });
        const counts = (report.byKind.refund_not_recorded ??= { corrected: 0, open: 0 });
        counts.corrected++;
        report.corrected++;
        log.info({ job: "reconciliation", kind: "refund_not_recorded", provider, payment: payment.id }, "reconciliation recorded a provider refund");
      }
    }
  };

  const attempt = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      report.errors.push(`${what}: ${(err as Error).message}`);
      reportError(`[reconciliation] ${what} could not be compared`, err, { job: "reconciliation" });
    }
  };

  const all = await db.select({ id: gyms.id, organisation_id: gyms.organisation_id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations }).from(gyms).orderBy(gyms.id);
  for (const gym of all) {
    const accounts: GymAccounts = gym;
    await attempt(`Stripe for gym ${gym.id}`, async () => {
      const listed = await providers.cards.listCharges(between, gym.stripe_id);
      const theirs = listed.map((c) => ({ id: c.id!, result: c, amount: c.made.amount, created: c.created, paymentId: metaPaymentId(c.made.metadata) }));
      await compare(gym, "stripe", theirs, async (o) => {
        const c = await providers.cards.retrieve(o.reference!, gym.stripe_id);
        return c ? { id: o.reference!, result: c, amount: c.made.amount, created: null, paymentId: metaPaymentId(c.made.metadata) } : null;
      });
      await refundsOf(gym, "stripe", await providers.cards.listRefundsBetween(between, gym.stripe_id));
      await disputesOf(gym, await providers.cards.listDisputesBetween(between, gym.stripe_id));
    });
    await attempt(`GoCardless for gym ${gym.id}`, async () => {
      const dd = providers.directDebit(accounts);
      const asTheirs = (p: DirectDebitPayment & { made: { amount: number; metadata: Record<string, string> } }, created: Date | null): Theirs => ({
        id: p.id,
        result: directDebitResult(p),
        amount: p.made.amount,
        created,
        paymentId: metaPaymentId(p.made.metadata),
        takenBack: p.status === "charged_back" || p.status === "failed" ? (paymentId) => directDebitChargeback(paymentId, p) : undefined,
      });
      const listed = (await dd.listPayments(between)).map((p) => asTheirs(p, p.created));
      await compare(gym, "gocardless", listed, async (o) => {
        const p = await dd.retrieve(o.reference!);
        return p ? asTheirs(p, null) : null;
      });
      await refundsOf(gym, "gocardless", await dd.listRefundsBetween(between));
      // Payments taken back in the window, made whenever: a chargeback (or a late failure) of one we hold as paid.
      const back = (await dd.listTakenBack(between)).filter((p) => p.status === "charged_back" || p.status === "failed");
      const ours = await oursOf(gym.id, "gocardless", back.map((p) => p.id), []);
      for (const p of back) {
        const o = ours.find((x) => x.reference === p.id);
        if (!o && p.status === "failed") continue; // a failure of a payment that is none of ours: nothing was taken
        report.checked++;
        const theirs = { amount: p.made.amount, status: p.status, reference: p.id, day: localDay(p.created) };
        const base = { gym, provider: "gocardless" as const, reference: p.id, theirs, ours: o ?? null, day: p.created };
        if (!o) await record("chargeback_not_recorded", "open", base);
        else if (o.status === "sent") await takenBack(gym, "gocardless", directDebitChargeback(o.id, p), o, base);
      }
    });
    await attempt(`Akahu for gym ${gym.id}`, async () => {
      // Akahu has no list of an app's payments by day: each of ours is asked for with the member's own token.
      const bank = providers.bank(accounts);
      await compare(gym, "akahu", [], async (o) => {
        if (!o.token) return undefined;
        const p = await bank.retrieve(o.token, o.reference!);
        return p ? { id: p.id, result: bankPaymentResult(p), amount: p.made.amount, created: null, paymentId: null } : null;
      });
    });
  }

  if (tell && told.length) {
    await tellMembers(db, tell, told).catch((err: unknown) => reportError("[reconciliation] members not told of refunds or chargebacks", err, { job: "reconciliation" }));
  }
  report.stillOpen = await db.$count(reconciliation_differences, eq(reconciliation_differences.status, "open"));
  await db.update(reconciliation_runs).set({ finished_at: new Date(), checked: report.checked, corrected: report.corrected, open: report.open, errors: report.errors.length ? report.errors : null }).where(eq(reconciliation_runs.id, run.id));
  if (report.open) {
    // Counts by kind only: no member, amount or reference leaves for error tracking.
    const kinds = Object.entries(report.byKind).filter(([, c]) => c.open).map(([k, c]) => `${k} ${c.open}`).join(", ");
    reportError("[reconciliation] new open differences", new Error(`Reconciliation ${window.from} to ${window.until} found ${report.open} new open difference(s): ${kinds}`), { job: "reconciliation" });
  }
  return report;
}
