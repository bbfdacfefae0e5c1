import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sandbox_ledger } from "../../db/schema";
import { ProviderError } from "../errors";
import { sandboxSessions } from "../sandbox-sessions";
import { systemClock, type SandboxClock } from "../clock";
import { sandboxDisputes, sandboxRefunds } from "../refunds";
import type { CardCharge, CardChargeResult, CardProvider, CardSetupResult, SavedCardDetails } from "./card-provider";

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
  return TEST_PAYMENT_METHODS[paymentMethod] ?? /^pm_sandbox_(\d{4})(?:_[0-9a-f]+)?$/.exec(paymentMethod)?.[1] ?? "4242";
}

const objectId = () => `pi_sandbox_${randomBytes(12).toString("hex")}`;

/**
 * The offline Stripe. It keeps its own books in `sandbox_ledger`, written by itself and outside the caller's
 * transaction, as a provider's are; a request sent again with the same idempotency key is answered from them
 * (the same result, nothing charged again), and the same key with other parameters is refused, as Stripe does.
 */
export function sandboxCards(db: Db, clock: SandboxClock = systemClock): CardProvider {
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
      // On the sandbox's clock, not the database's: under a simulated clock a charge and its webhook are of the run's day.
      created_at: sql.placeholder("createdAt"),
      next_event_at: sql.placeholder("createdAt"),
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
  const setups = sandboxSessions(db, "stripe", "cs");
  return {
    name: provider,
    mode: "sandbox",
    ...sandboxRefunds(db, "stripe", clock),
    ...sandboxDisputes(db),
    async startSetup(req) {
      const session = await setups.open({
        idempotencyKey: req.idempotencyKey,
        successUrl: req.successUrl,
        cancelUrl: req.cancelUrl,
        request: { email: req.email, name: req.name, client_reference_id: req.reference, account: req.account ?? null },
      });
      // "Stripe's" page is served by this app (app/routes/sandbox.stripe.checkout.$id.tsx), on the host the person is on.
      return { id: session.id, url: new URL(`/sandbox/stripe/checkout/${session.id}`, req.successUrl).href };
    },
    async readSetup(id): Promise<CardSetupResult | null> {
      const session = await setups.read(id);
      if (!session) return null;
      if (session.status !== "complete") return { status: session.status === "open" ? "open" : "expired" };
      const result = session.result as { customer: string; payment_method: string; card: SavedCardDetails };
      return { status: "complete", reference: session.request.client_reference_id ?? null, customer: result.customer, paymentMethod: result.payment_method, card: result.card };
    },
    /** As Stripe: an intent is found only on the account it was made on (asked on another, it does not exist). */
    async retrieve(id, account) {
      const [row] = await byObject.execute({ provider, id });
      if (!row || (row.request.account ?? null) !== (account ?? null)) return null;
      const made = { amount: row.amount, currency: row.currency, account: (row.request.account as string | null | undefined) ?? null, metadata: (row.request.metadata as Record<string, string> | undefined) ?? {} };
      return { ...answer(row), made };
    },
    /** As `paymentIntents.list({ created: { gte, lt } }, { stripeAccount })`: the account's intents made in the window. */
    async listCharges(window, account) {
      const made = sql`coalesce((${sandbox_ledger.request}->>'created')::timestamptz, ${sandbox_ledger.created_at})`;
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), gte(made, window.from), lt(made, window.until)))
        .orderBy(sandbox_ledger.id);
      return rows
        .filter((row) => (row.request.account ?? null) === (account ?? null))
        .map((row) => ({
          ...answer(row),
          made: { amount: row.amount, currency: row.currency, account: (row.request.account as string | null | undefined) ?? null, metadata: (row.request.metadata as Record<string, string> | undefined) ?? {} },
          created: row.request.created ? new Date(String(row.request.created)) : row.created_at,
        }));
    },
    async charge(req: CardCharge): Promise<CardChargeResult> {
      if (!Number.isSafeInteger(req.amount) || req.amount < 50) throw new ProviderError("Amount must be at least 50 cents (amount_too_small).", false);
      // A card saved without a payment method id (the seed's) is known to the sandbox by its last four digits.
      const paymentMethod = req.paymentMethod ?? `pm_sandbox_${req.lastFour ?? "4242"}`;
      const request = { amount: req.amount, currency: req.currency, customer: req.customer, payment_method: paymentMethod };
      const sameCharge = (stored: Record<string, unknown>) =>
        JSON.stringify([stored.amount, stored.currency, stored.customer, stored.payment_method]) === JSON.stringify([request.amount, request.currency, request.customer, request.payment_method]);
      const decline = DECLINES[sandboxCard(paymentMethod)];
      const now = clock.now();
      const [written] = await record.execute({
        provider,
        key: req.idempotencyKey,
        // When it was made on the sandbox's clock (a simulated run's day), as Stripe's `created`: what listCharges goes by.
        request: { ...request, metadata: req.metadata, account: req.account ?? null, created: now.toISOString() },
        objectId: objectId(),
        amount: req.amount,
        currency: req.currency,
        status: decline ? "requires_payment_method" : "succeeded",
        declineCode: decline ? (decline.declineCode ?? decline.code) : null,
        createdAt: now,
      });
      const row = written ?? (await recorded.execute({ provider, key: req.idempotencyKey }))[0];
      if (!sameCharge(row.request)) {
        throw new ProviderError("Keys for idempotent requests can only be used with the same parameters they were first used with.", false);
      }
      return answer(row);
    },
  };
}

/**
 * Stripe's test cards as a setup (saving a card, no charge) answers them: the cards Stripe declines outright fail
 * here, with its message; the ones that only fail when charged (insufficient funds: 4000 0000 0000 9995; "attaches
 * but charges fail": 4000 0000 0000 0341) are saved, and decline at the first payment.
 */
const SETUP_DECLINES = new Set(["0002", "9987", "9979", "0069", "0127", "0119"]);

export interface CardEntry {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

const brandOf = (digits: string) =>
  /^4/.test(digits) ? "visa" : /^(5[1-5]|2[2-7])/.test(digits) ? "mastercard" : /^3[47]/.test(digits) ? "amex" : /^6(011|5)/.test(digits) ? "discover" : "unknown";

/**
 * The sandbox's hosted card page (what Stripe Checkout does with what the person typed): checks the card as
 * Stripe's form does, declines Stripe's declining test cards, and otherwise saves it on a customer and completes
 * the session. Answers the field errors to show, or where to send the person.
 */
export async function submitSandboxCard(db: Db, id: string, entry: CardEntry, now = new Date()): Promise<{ errors: Record<string, string> } | { done: true }> {
  const setups = sandboxSessions(db, "stripe", "cs");
  const session = await setups.read(id, now);
  if (!session || session.status !== "open") return { errors: { form: "This page has expired. Go back to the gym's site and start again." } };
  const digits = entry.number.replace(/[\s-]/g, "");
  const errors: Record<string, string> = {};
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) errors.number = "Your card number is invalid.";
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(entry.expiry.trim());
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? Number(expiry[2].length === 2 ? `20${expiry[2]}` : expiry[2]) : 0;
  if (!expiry || month < 1 || month > 12) errors.expiry = "Your card's expiration date is incomplete.";
  else if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors.expiry = "Your card's expiration year is in the past.";
  if (!/^\d{3,4}$/.test(entry.cvc.trim())) errors.cvc = "Your card's security code is incomplete.";
  if (!entry.name.trim()) errors.name = "Enter the name on the card.";
  if (Object.keys(errors).length) return { errors };
  const lastFour = digits.slice(-4);
  if (SETUP_DECLINES.has(lastFour)) return { errors: { number: DECLINES[lastFour]?.message ?? "Your card was declined." } };
  const card: SavedCardDetails = { brand: brandOf(digits), last_four: lastFour, exp_month: month, exp_year: year, country: "NZ" };
  await setups.finish(id, "complete", {
    customer: `cus_sandbox_${randomBytes(8).toString("hex")}`,
    payment_method: `pm_sandbox_${lastFour}_${randomBytes(6).toString("hex")}`,
    card,
  });
  return { done: true };
}

/** The person gave up on the sandbox's card page. */
export async function cancelSandboxCard(db: Db, id: string) {
  const setups = sandboxSessions(db, "stripe", "cs");
  const session = await setups.read(id);
  if (session?.status === "open") await setups.finish(id, "cancelled", null);
}
