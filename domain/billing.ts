/** Billing frequencies, shortest to longest (SPEC §3). one_off is PIF, paid in full. */
export const BILLING_FREQUENCIES = [
  "daily",
  "weekly",
  "fortnightly",
  "monthly",
  "bi_monthly",
  "quarterly",
  "twice_yearly",
  "yearly",
  "one_off",
] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];

/** The six frequencies an organisation can switch on or off (SPEC §3 price_frequencies). */
export const ORGANISATION_PRICE_FREQUENCIES = [
  "weekly",
  "fortnightly",
  "monthly",
  "quarterly",
  "six_monthly",
  "yearly",
] as const;
export type OrganisationPriceFrequency = (typeof ORGANISATION_PRICE_FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<BillingFrequency, string> = {
  daily: "Daily",
  weekly: "Weekly",
  fortnightly: "Fortnightly",
  monthly: "Monthly",
  bi_monthly: "Bi-monthly",
  quarterly: "Quarterly",
  twice_yearly: "Twice yearly",
  yearly: "Yearly",
  one_off: "PIF",
};

export function compareFrequencies(a: BillingFrequency, b: BillingFrequency) {
  return BILLING_FREQUENCIES.indexOf(a) - BILLING_FREQUENCIES.indexOf(b);
}

/** Length of one billing period, as calendar units (DST-safe when applied in Pacific/Auckland). */
export function periodLength(f: BillingFrequency): { days?: number; months?: number } | null {
  switch (f) {
    case "daily":
      return { days: 1 };
    case "weekly":
      return { days: 7 };
    case "fortnightly":
      return { days: 14 };
    case "monthly":
      return { months: 1 };
    case "bi_monthly":
      return { months: 2 };
    case "quarterly":
      return { months: 3 };
    case "twice_yearly":
      return { months: 6 };
    case "yearly":
      return { months: 12 };
    case "one_off":
      return null;
  }
}

export const TERM_UNITS = ["day", "week", "month", "year"] as const;
export type TermUnit = (typeof TERM_UNITS)[number];

/** "6m Term" for a six-month term, "PIF" for a paid-in-full price, null otherwise (SPEC §9). */
export function termShorthand(price: {
  billing_frequency: BillingFrequency;
  term_amount?: number | null;
  term_unit?: TermUnit | null;
}): string | null {
  if (price.billing_frequency === "one_off") return "PIF";
  if (price.term_amount && price.term_unit) return `${price.term_amount}${price.term_unit[0]} Term`;
  return null;
}
