import { formatCents } from "./money";

/** SPEC §3 payment types; only cards carry the gym's surcharge (direct debit and bank payments cost the gym a flat fee it does not pass on). */
export const PAYMENT_TYPE_KINDS = ["stripe_card", "gocardless_bank_account", "bank_account"] as const;
export type PaymentTypeKind = (typeof PAYMENT_TYPE_KINDS)[number];

export interface CardSurcharge {
  /** Hundredths of a percent: 150 is 1.5 %. */
  basisPoints: number;
  /** Cents added to every card payment. */
  fixed: number;
}

/** The surcharge on `amount` cents paid by `kind`: the percentage rounded to the cent, half up, plus the fixed part. */
export function surchargeFor(amount: number, kind: PaymentTypeKind, { basisPoints, fixed }: CardSurcharge): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError("An amount is a whole number of cents from 0");
  if (kind !== "stripe_card" || amount === 0) return 0;
  return Math.floor((2 * amount * basisPoints + 10_000) / 20_000) + fixed;
}

/** "1.5% + $0.30", "2%", "$0.50", or null when cards carry no surcharge. */
export function formatSurcharge({ basisPoints, fixed }: CardSurcharge): string | null {
  const percent = basisPoints ? `${(basisPoints / 100).toFixed(2).replace(/\.?0+$/, "")}%` : null;
  const flat = fixed ? formatCents(fixed) : null;
  return [percent, flat].filter(Boolean).join(" + ") || null;
}
