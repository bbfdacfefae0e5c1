/** Units of an organisation's grace periods (SPEC §3 grace_period, term_grace_period). */
export const PERIOD_UNITS = ["day", "week", "month"] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];
export const PERIOD_UNIT_LABELS: Record<PeriodUnit, string> = { day: "Days", week: "Weeks", month: "Months" };

/** The youngest a person may join online by default without an age-bypass link (decision 0025); each organisation sets its own. */
export const DEFAULT_MINIMUM_AGE = 16;
