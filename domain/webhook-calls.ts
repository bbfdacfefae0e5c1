/** The webhook calls' vocabulary, without the schemas (./schemas/webhooks.ts), so pages that only show it load no zod. */

/** The providers that call us, as staff see their names (cards, direct debit, bank payments). */
export const WEBHOOK_PROVIDER_NAMES = { stripe: "Stripe", gocardless: "GoCardless", akahu: "Akahu" } as const;

export const WEBHOOK_CALL_STATUSES = ["received", "processed", "duplicate", "ignored", "refused", "failed", "rejected"] as const;
