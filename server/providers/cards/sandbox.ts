import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sandbox_ledger } from "../../db/schema";
import { ProviderError } from "../errors";
import type { CardCharge, CardChargeResult, CardProvider } from "./card-provider";

/**
 * Stripe's test cards (https://docs.stripe.com/testing), by the card's last four digits or Stripe's test payment
 * method ids: each declines as Stripe does, with its error code and decline code. Any other card succeeds.
 */
const DECLINES: Record<string, { code: string; declineCode?: string; message: string }> = {
  "0002": { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
  "9995": { code: "card_declined", declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
  "9987": { code: "card_declined", declineCode: "lost_card", message: "Your card was declined." },
  "9979": { code: "card_declined", declineCode: "stolen_card", message: "Your card was declined." },
  "0069": { code: "expired_card", message: "Your card has expired." },
  "0127": { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  "0119": { code: "processing_error", message: "An error occurred while processing your card. Try again in a little bit." },
  "0341": { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
};
const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: "4242",
  pm_card_mastercard: "4444",
  pm_card_chargeDeclined: "0002",
  pm_card_chargeDeclinedInsufficientFunds: "9995",
  pm_card_chargeDeclinedLostCard: "9987",
  pm_card_chargeDeclinedStolenCard: "9979",
  pm_card_chargeDeclinedExpiredCard: "0069",
  pm_card_chargeDeclinedIncorrectCvc: "0127",
  pm_card_chargeDeclinedProcessingError: "0119",
};

/** The card a payment method stands for: a Stripe test id, or `pm_sandbox_<last four>` as our sandbox saves them. */
export function sandboxCard(paymentMethod: string): string {
  return TEST_PAYMENT_METHODS[paymentMethod] ?? /^pm_sandbox_(\d{4})$/.exec(paymentMethod)?.[1] ?? "4242";
}

const objectId = () => `pi_sandbox_${randomBytes(12).toString("hex")}`;

/**
 * The offline Stripe. It keeps its own books in `sandbox_ledger`, written by itself and outside the caller's
 * transaction, as a provider's are; a request sent again with the same idempotency key is answered from them
 * (the same result, nothing charged again), and the same key with other parameters is refused, as Stripe does.
 */
export function sandboxCards(db: Db): CardProvider {
  const provider = "stripe";
  // Prepared once: a run sends thousands of charges, and building each statement again was most of their cost.
  const record = db
    .insert(sandbox_ledger)
    .values({
      provider: sql.placeholder("provider"),
      idempotency_key: sql.placeholder("key"),
      request: sql.placeholder("request"),
      object_id: sql.placeholder("objectId"),
      amount: sql.placeholder("amount"),
      currency: sql.placeholder("currency"),
      status: sql.placeholder("status"),
      decline_code: sql.placeholder("declineCode"),
    })
    .onConflictDoNothing()
    .returning()
    .prepare("sandbox_ledger_record");
  const recorded = db
    .select()
    .from(sandbox_ledger)
    .where(and(eq(sandbox_ledger.provider, sql.placeholder("provider")), eq(sandbox_ledger.idempotency_key, sql.placeholder("key"))))
    .prepare("sandbox_ledger_recorded");
  const byObject = db
    .select()
    .from(sandbox_ledger)
    .where(and(eq(sandbox_ledger.provider, sql.placeholder("provider")), eq(sandbox_ledger.object_id, sql.placeholder("id"))))
    .prepare("sandbox_ledger_by_object");
  const answer = (row: typeof sandbox_ledger.$inferSelect): CardChargeResult =>
    row.status === "succeeded"
      ? { status: "succeeded", id: row.object_id }
      : {
          status: "declined",
          id: row.object_id,
          declineCode: row.decline_code!,
          message: DECLINES[sandboxCard(String(row.request.payment_method))]?.message ?? "Your card was declined.",
        };
  return {
    name: provider,
    mode: "sandbox",
    async retrieve(id) {
      const [row] = await byObject.execute({ provider, id });
      return row ? answer(row) : null;
    },
    async charge(req: CardCharge): Promise<CardChargeResult> {
      if (!Number.isSafeInteger(req.amount) || req.amount < 50) throw new ProviderError("Amount must be at least 50 cents (amount_too_small).", false);
      // A card saved without a payment method id (the seed's) is known to the sandbox by its last four digits.
      const paymentMethod = req.paymentMethod ?? `pm_sandbox_${req.lastFour ?? "4242"}`;
      const request = { amount: req.amount, currency: req.currency, customer: req.customer, payment_method: paymentMethod };
      const sameCharge = (stored: Record<string, unknown>) =>
        JSON.stringify([stored.amount, stored.currency, stored.customer, stored.payment_method]) === JSON.stringify([request.amount, request.currency, request.customer, request.payment_method]);
      const decline = DECLINES[sandboxCard(paymentMethod)];
      const [written] = await record.execute({
        provider,
        key: req.idempotencyKey,
        request: { ...request, metadata: req.metadata },
        objectId: objectId(),
        amount: req.amount,
        currency: req.currency,
        status: decline ? "requires_payment_method" : "succeeded",
        declineCode: decline ? (decline.declineCode ?? decline.code) : null,
      });
      const row = written ?? (await recorded.execute({ provider, key: req.idempotencyKey }))[0];
      if (!sameCharge(row.request)) {
        throw new ProviderError("Keys for idempotent requests can only be used with the same parameters they were first used with.", false);
      }
      return answer(row);
    },
  };
}
