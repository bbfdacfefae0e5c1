/**
 * The crash trial's reckoning (decision 0043), as pure functions over plain rows, so each counter can be shown to
 * fail (tests/unit/crash-trial-compare.test.ts): our payments, the providers' own books (read from their own
 * database) and what the independent reference (./reference.ts) expects. Every counter must be 0.
 */

/** One of our payments that went to a provider (it has an idempotency key). */
export interface OurPayment {
  key: string;
  subscriptionId: number;
  /** The period's first day, Auckland (YYYY-MM-DD). */
  periodStart: string;
  attempt: number;
  /** The local day the attempt was made (planned and sent). */
  day: string;
  /** What the provider was asked for: amount and surcharge, in cents. */
  amount: number;
  status: "sent" | "failed" | "pending" | "awaiting_payment" | string;
  /** The provider's id for this attempt (stripe_id, gocardless_payment_id or akahu_payment_id), if any. */
  providerId: string | null;
}

/** A charge in a provider's books, with its answer as the provider gives it on the last day. */
export interface LedgerCharge {
  provider: string;
  key: string;
  objectId: string;
  amount: number;
  answer: "succeeded" | "declined" | "processing" | "awaiting_approval";
}

/** What the reference expects of one subscription (./reference.ts). */
export interface ExpectedSubscription {
  subscriptionId: number;
  /** The day access stops (the grace period's end); null while it never does. */
  stopDay: string | null;
  periods: { start: string; attempts: { day: string; amount: number }[]; outcome: "paid" | "failed" | "open" }[];
}

/** A refund or chargeback in our books (payment_adjustments) or the trial's own list of refunds it asked for. */
export interface OurRefund {
  providerId: string | null;
  key: string | null;
  amount: number;
  status: string;
}

export interface LedgerRefund {
  provider: string;
  key: string;
  objectId: string;
  amount: number;
  /** Its answer on the last day: succeeded or pending. */
  answer: string;
}

/** A provider's call to our webhook endpoint (webhook_calls), as the trial delivered them: what became of it. */
export interface WebhookCall {
  provider: string;
  /** The provider's event (or GoCardless batch) id; null when the call died before it was read (a kill). */
  eventId: string | null;
  status: "received" | "processed" | "ignored" | "duplicate" | "refused" | "rejected" | "failed" | string;
}

export interface Counters {
  paidTwice: number;
  skipped: number;
  chargedAfterStop: number;
  retryNeverReached: number;
  paidWithoutProvider: number;
  unknownOrOtherState: number;
  amountDiffers: number;
  attemptsDiffer: number;
  refundsMissing: number;
  webhooksNotTaken: number;
}

export const COUNTER_LABELS: Record<keyof Counters, string> = {
  paidTwice: "periods paid twice",
  skipped: "periods skipped",
  chargedAfterStop: "charged after access stopped",
  retryNeverReached: "retries that never reached a provider",
  paidWithoutProvider: "paid without a provider payment",
  unknownOrOtherState: "provider payments we have no record of, or hold in another state",
  amountDiffers: "amount differs from the reference",
  attemptsDiffer: "tries differ from the reference (missing, extra, another day, another outcome)",
  refundsMissing: "refunds missing (ours without the provider's, or the provider's without ours)",
  webhooksNotTaken: "provider events refused, rejected, or failed and never taken later",
};

/** Our status for each provider answer. */
const OURS: Record<LedgerCharge["answer"], string> = { succeeded: "sent", declined: "failed", processing: "pending", awaiting_approval: "awaiting_payment" };
const periodOf = (p: { subscriptionId: number; periodStart: string }) => `${p.subscriptionId}:${p.periodStart}`;
/** Our keys are charge:{subscription}:{period start}:{attempt}. */
const periodOfKey = (key: string) => key.split(":").slice(1, 3).join(":");

export function compare(
  ours: OurPayment[],
  ledger: LedgerCharge[],
  expected: ExpectedSubscription[],
  refunds: { ours: OurRefund[]; ledger: LedgerRefund[]; asked?: OurRefund[] } = { ours: [], ledger: [] },
  webhooks: WebhookCall[] = [],
): Counters {
  const c: Counters = { paidTwice: 0, skipped: 0, chargedAfterStop: 0, retryNeverReached: 0, paidWithoutProvider: 0, unknownOrOtherState: 0, amountDiffers: 0, attemptsDiffer: 0, refundsMissing: 0, webhooksNotTaken: 0 };
  const ourByKey = new Map(ours.map((p) => [p.key, p]));
  const ledgerByKey = new Map(ledger.map((l) => [l.key, l]));

  // Paid twice: a period with more than one payment taken, by our books or by the providers'.
  const paidOurs = new Map<string, number>();
  for (const p of ours) if (p.status === "sent") paidOurs.set(periodOf(p), (paidOurs.get(periodOf(p)) ?? 0) + 1);
  const paidTheirs = new Map<string, number>();
  for (const l of ledger) if (l.answer === "succeeded") paidTheirs.set(periodOfKey(l.key), (paidTheirs.get(periodOfKey(l.key)) ?? 0) + 1);
  const twice = new Set([...paidOurs, ...paidTheirs].filter(([, n]) => n > 1).map(([period]) => period));
  c.paidTwice = twice.size;

  // Provider payments we have no record of, or hold in another state than the provider's answer.
  for (const l of ledger) {
    const p = ourByKey.get(l.key);
    if (!p || p.status !== OURS[l.answer] || (p.providerId !== null && p.providerId !== l.objectId)) c.unknownOrOtherState++;
  }
  // Paid without a provider payment: we hold it as sent, the provider has none under its key or did not take it.
  for (const p of ours) if (p.status === "sent" && ledgerByKey.get(p.key)?.answer !== "succeeded") c.paidWithoutProvider++;

  // A retry that never reached a provider: failed with no charge of its own key in the books, or holding the provider
  // id of an earlier try of its period (the provider answered the old charge, not this one).
  const idsByPeriod = new Map<string, Map<string, number>>();
  for (const p of ours) {
    if (!p.providerId) continue;
    const ids = idsByPeriod.get(periodOf(p)) ?? new Map<string, number>();
    ids.set(p.providerId, Math.min(ids.get(p.providerId) ?? Infinity, p.attempt));
    idsByPeriod.set(periodOf(p), ids);
  }
  for (const p of ours) {
    if (p.attempt === 0) continue;
    const own = ledgerByKey.get(p.key);
    const copied = p.providerId !== null && (idsByPeriod.get(periodOf(p))?.get(p.providerId) ?? p.attempt) < p.attempt;
    if ((p.status === "failed" && !own) || copied) c.retryNeverReached++;
  }

  // Against the reference: every period it expects has a payment; none starting on or after the stop day has any;
  // each try is there, on its day, for its amount, and the period ends as the reference says.
  const oursByPeriod = new Map<string, OurPayment[]>();
  for (const p of ours) oursByPeriod.set(periodOf(p), [...(oursByPeriod.get(periodOf(p)) ?? []), p]);
  const expectedSubs = new Map(expected.map((e) => [e.subscriptionId, e]));
  for (const p of ours) {
    const e = expectedSubs.get(p.subscriptionId);
    if (e?.stopDay && (p.periodStart >= e.stopDay || p.day >= e.stopDay)) c.chargedAfterStop++;
  }
  for (const l of ledger) {
    const [sub, start] = periodOfKey(l.key).split(":");
    const e = expectedSubs.get(Number(sub));
    if (e?.stopDay && start >= e.stopDay && !ourByKey.has(l.key)) c.chargedAfterStop++;
  }
  for (const e of expected) {
    const expectedStarts = new Set(e.periods.map((x) => x.start));
    for (const period of e.periods) {
      const tries = (oursByPeriod.get(periodOf({ subscriptionId: e.subscriptionId, periodStart: period.start })) ?? []).sort((a, b) => a.attempt - b.attempt);
      if (!tries.length) {
        c.skipped++;
        continue;
      }
      let differs = tries.length !== period.attempts.length;
      period.attempts.forEach((want, i) => {
        const got = tries.find((t) => t.attempt === i);
        if (!got) return void (differs = true);
        const theirs = ledgerByKey.get(got.key);
        if (got.amount !== want.amount || (theirs && theirs.amount !== want.amount)) c.amountDiffers++;
        if (got.day !== want.day) differs = true;
      });
      const last = tries.at(-1)!;
      const outcome = last.status === "sent" ? "paid" : last.status === "failed" ? "failed" : "open";
      if (outcome !== period.outcome) differs = true;
      if (differs) c.attemptsDiffer++;
    }
    // A period the reference does not expect (and not after the stop day, counted above): an extra charge.
    for (const [period, tries] of oursByPeriod) {
      const [sub, start] = period.split(":");
      if (Number(sub) !== e.subscriptionId || expectedStarts.has(start) || (e.stopDay && start >= e.stopDay)) continue;
      if (tries.length) c.attemptsDiffer++;
    }
  }

  // Refunds: every refund in the providers' books is ours, for the same amount and state, and every refund of ours
  // that went to a provider (and every one the trial asked for) is in the providers' books.
  const refundLedger = new Map(refunds.ledger.map((r) => [r.objectId, r]));
  const refundLedgerByKey = new Map(refunds.ledger.map((r) => [r.key, r]));
  const oursRefund = new Map(refunds.ours.filter((r) => r.providerId).map((r) => [r.providerId!, r]));
  const oursRefundByKey = new Map(refunds.ours.filter((r) => r.key).map((r) => [r.key!, r]));
  for (const r of refunds.ledger) {
    const mine = oursRefund.get(r.objectId) ?? oursRefundByKey.get(r.key);
    if (!mine || mine.amount !== r.amount || mine.status !== r.answer) c.refundsMissing++;
  }
  for (const r of refunds.ours) {
    if (!r.providerId && r.status !== "pending") continue;
    const theirs = (r.providerId && refundLedger.get(r.providerId)) || (r.key && refundLedgerByKey.get(r.key));
    if (!theirs) c.refundsMissing++;
  }
  for (const r of refunds.asked ?? []) {
    const mine = r.key ? oursRefundByKey.get(r.key) : undefined;
    if (!mine || !refundLedgerByKey.get(r.key!) || mine.amount !== r.amount) c.refundsMissing++;
  }

  // Webhooks: the providers' signed events are all theirs and all ours to take, so none is refused (not the
  // provider's word on our payment) or rejected (its signature), and one that failed is taken when sent again.
  // A call cut short by a kill (received, never finished) is sent again, as any unanswered one.
  const taken = new Set(webhooks.filter((w) => ["processed", "ignored", "duplicate"].includes(w.status)).map((w) => `${w.provider}:${w.eventId}`));
  for (const w of webhooks) {
    if (w.status === "refused" || w.status === "rejected" || (w.status === "failed" && !taken.has(`${w.provider}:${w.eventId}`))) c.webhooksNotTaken++;
  }
  return c;
}

export const total = (c: Counters) => Object.values(c).reduce((a, b) => a + b, 0);
