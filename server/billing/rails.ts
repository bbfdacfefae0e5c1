import { formatDateRange, localDay } from "../../domain/dates";
import type { PaymentTypeKind } from "../../domain/surcharge";
import { savedBankAccount, bankPaymentResult } from "../core/providers/bank/bank-provider";
import { savedCard } from "../core/providers/cards/card-provider";
import type { ChargeResult, PaymentProviderName } from "../core/providers/charge-result";
import { directDebitResult, savedMandate } from "../core/providers/direct-debit/direct-debit-provider";
import { ProviderError } from "../core/providers/errors";
import type { GymAccounts } from "../core/providers/gym-accounts";
import type { Providers } from "../core/providers/registry";

/**
 * One unsettled payment taken to its provider (the charge step, ./charge.ts): charged when we have no reference of
 * the provider's yet (sent with its idempotency key, so a crash after the provider acted and before we wrote it
 * down is answered with what it did the first time), or asked for its state when it is under way (a direct debit
 * before its confirmation, a bank payment on its way, a card in 3-D Secure). Which provider follows from the
 * member's payment type: a card goes to Stripe, a direct debit bank account to GoCardless, a connected bank
 * account to Akahu.
 */
export interface UnsettledPayment {
  id: number;
  subscriptionId: number | null;
  amount: number;
  surcharge: number;
  idempotencyKey: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  expectedChargeDate: string | null;
  references: { stripe: string | null; gocardless: string | null; akahu: string | null };
  /** What it is for when it is not a membership's period (a class drop-in's "Drop-in: Spin, …"). */
  description?: string | null;
  kind: PaymentTypeKind | null;
  details: Record<string, string | number> | null;
  gym: GymAccounts;
  /** The gym's bank account, which bank payments are made to. */
  destination: { name: string; account_number: string } | null;
  /** The member's Akahu token, unless their connection was revoked or needs signing in again. */
  bankToken: string | null;
}

const PROVIDER_OF: Record<PaymentTypeKind, PaymentProviderName> = { stripe_card: "stripe", gocardless_bank_account: "gocardless", bank_account: "akahu" };

export function providerOf(kind: PaymentTypeKind | null): PaymentProviderName | null {
  return kind ? PROVIDER_OF[kind] : null;
}

const declined = (declineCode: string, message: string): ChargeResult => ({ status: "declined", id: null, declineCode, message });

/**
 * What the charge is for, as Stripe's receipt and GoCardless's notice show it to the member: "Membership 19 – 26 Nov
 * 2026", in words in Auckland like every date a person reads (the receipt writes the same period the same way).
 */
export const chargeDescription = (p: Pick<UnsettledPayment, "periodStart" | "periodEnd">) => (p.periodStart && p.periodEnd ? `Membership ${formatDateRange(p.periodStart, p.periodEnd)}` : "Membership");

export async function pursue(providers: Providers, p: UnsettledPayment): Promise<{ provider: PaymentProviderName | null; result: ChargeResult }> {
  const total = p.amount + p.surcharge;
  const description = p.description ?? chargeDescription(p);
  const metadata = { payment_id: String(p.id), subscription_id: String(p.subscriptionId ?? "") };

  if (p.kind === "stripe_card") {
    const earlier = p.references.stripe ? await providers.cards.retrieve(p.references.stripe, p.gym.stripe_id) : null;
    const result =
      earlier ??
      (await providers.cards.charge({ amount: total, currency: "nzd", ...savedCard(p.details), account: p.gym.stripe_id, idempotencyKey: p.idempotencyKey, description, metadata }));
    return { provider: "stripe", result };
  }

  if (p.kind === "gocardless_bank_account") {
    const dd = providers.directDebit(p.gym);
    const earlier = p.references.gocardless ? await dd.retrieve(p.references.gocardless) : null;
    const payment =
      earlier ?? (await dd.collect({ amount: total, currency: "nzd", ...savedMandate(p.details), chargeDate: p.expectedChargeDate, idempotencyKey: p.idempotencyKey, description, metadata }));
    if (!payment.id) return { provider: "gocardless", result: declined(payment.cause ?? "failed", payment.description ?? "GoCardless refused the payment.") };
    return { provider: "gocardless", result: directDebitResult(payment) };
  }

  if (p.kind === "bank_account") {
    const { fromAccount, accountNumber } = savedBankAccount(p.details);
    if (!p.bankToken || !fromAccount) {
      return { provider: "akahu", result: declined("no_bank_connection", "The member's bank is not connected (or must be connected again) to pay from it.") };
    }
    // The gym's side is missing, not the member's: nothing is declined, the payment waits until the gym adds its account.
    if (!p.destination) throw new ProviderError("The gym has no bank account to be paid into.", true);
    const bank = providers.bank(p.gym);
    const earlier = p.references.akahu ? await bank.retrieve(p.bankToken, p.references.akahu) : null;
    const payment =
      earlier ??
      (await bank.pay({
        amount: total,
        token: p.bankToken,
        fromAccount,
        accountNumber,
        to: p.destination,
        statement: { particulars: "Membership", code: p.periodStart ? localDay(p.periodStart).replaceAll("-", "") : "", reference: `P${p.id}` },
        idempotencyKey: p.idempotencyKey,
      }));
    if (!payment.id) return { provider: "akahu", result: declined((payment.statusCode ?? "declined").toLowerCase(), payment.statusText ?? "Akahu refused the payment.") };
    return { provider: "akahu", result: bankPaymentResult(payment) };
  }

  return { provider: null, result: declined("no_payment_method", "The member has no payment method saved.") };
}
