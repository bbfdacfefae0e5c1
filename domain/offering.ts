import { FREQUENCY_LABELS, ORGANISATION_PRICE_FREQUENCIES, type BillingFrequency, type OrganisationPriceFrequency } from "./billing";

/** Offering types (SPEC §3), each offered only when the organisation's offering_permissions allow it. */
export const OFFERING_TYPES = ["24_7", "limited_access"] as const;
export type OfferingType = (typeof OFFERING_TYPES)[number];
export const OFFERING_TYPE_LABELS: Record<OfferingType, string> = { "24_7": "24/7", limited_access: "Limited Hours" };

export type OfferingPermissions = { enable_offerings: boolean; non_stop: boolean; limited_access: boolean };
export type PriceFrequencies = Record<OrganisationPriceFrequency, boolean>;

/** The types an organisation may create: 24/7 if non_stop, Limited Hours if limited_access; none with offerings off. */
export function offeringTypesAllowed(p: OfferingPermissions): OfferingType[] {
  if (!p.enable_offerings) return [];
  return OFFERING_TYPES.filter((t) => (t === "24_7" ? p.non_stop : p.limited_access));
}

/** How a price's frequency reads after its amount: "$19.99 weekly", "$799.00 paid in full". */
export const perFrequency = (f: BillingFrequency) => (f === "one_off" ? "paid in full" : FREQUENCY_LABELS[f].toLowerCase());

/** Days 1 to 7, Monday first (SPEC §9). */
export const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export const dayName = (day: number) => DAY_NAMES[day - 1] ?? "—";

/** "09:00" or "09:00:00" → "9:00 AM"; a wall-clock time, so no time zone is involved. */
export function formatClock(time: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!m) return time;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? "AM" : "PM"}`;
}

/**
 * The organisation's switch that governs a billing frequency (SPEC §3 price_frequencies): six_monthly is
 * twice_yearly. Daily and bi-monthly have no switch (kept only by prices that already bill so), and PIF is not a
 * recurring frequency, so it is always on offer.
 */
export function frequencySwitch(f: BillingFrequency): OrganisationPriceFrequency | null {
  if (f === "twice_yearly") return "six_monthly";
  return (ORGANISATION_PRICE_FREQUENCIES as readonly string[]).includes(f) ? (f as OrganisationPriceFrequency) : null;
}

/** The billing frequency a switch turns on (the inverse of frequencySwitch). */
export const switchedFrequency = (s: OrganisationPriceFrequency): BillingFrequency => (s === "six_monthly" ? "twice_yearly" : s);

/** Labels for the settings page's six switches. */
export const SWITCH_LABELS: Record<OrganisationPriceFrequency, string> = {
  weekly: "Weekly",
  fortnightly: "Fortnightly",
  monthly: "Monthly",
  quarterly: "Quarterly",
  six_monthly: "Six-monthly",
  yearly: "Yearly",
};

/**
 * The frequencies a new price may bill at, shortest first: those the organisation has switched on, and PIF.
 * `keep`: a price's own frequency, which stays on offer while it is edited even if since switched off.
 */
export function frequenciesOnOffer(pf: PriceFrequencies, keep?: BillingFrequency): BillingFrequency[] {
  const on: BillingFrequency[] = ORGANISATION_PRICE_FREQUENCIES.filter((s) => pf[s]).map(switchedFrequency);
  on.push("one_off");
  if (keep && !on.includes(keep)) on.push(keep);
  const order = Object.keys(FREQUENCY_LABELS);
  return on.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** Why a new or changed price may not bill at `f`, or null when it may. */
export function frequencyRefusal(pf: PriceFrequencies, f: BillingFrequency): string | null {
  if (f === "one_off") return null;
  const s = frequencySwitch(f);
  if (!s) return `${FREQUENCY_LABELS[f]} prices can no longer be created. Choose another frequency.`;
  return pf[s] ? null : `${FREQUENCY_LABELS[f]} billing is switched off in the organisation's settings.`;
}
