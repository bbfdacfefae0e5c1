import { eq } from "drizzle-orm";
import type { BillingFrequency } from "../../domain/billing";
import { frequencyRefusal, offeringTypesAllowed, OFFERING_TYPE_LABELS, type OfferingType } from "../../domain/offering";
import { organisations } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { forbidden, invalid } from "../core/errors";
import { assertCan } from "../core/permissions";
import { isOrganisationAdmin, type CurrentUser } from "../core/current-user";

/**
 * Who may change which offering (decision 0026). Organisation admins change anything. A gym admin changes an
 * offering sold only at gyms they admin and not set by the organisation (`mandated`); its hours unless
 * `hours_mandated`, its prices unless `prices_mandated`. The flags are the organisation's to set.
 */
export function assertMayChangeOffering(user: CurrentUser, o: { mandated: boolean; hours_mandated?: boolean; prices_mandated?: boolean; all_gyms_access: boolean; gymIds: number[] }, part: "offering" | "hours" | "prices" = "offering") {
  if (isOrganisationAdmin(user)) return;
  assertCan(user, "offerings.write");
  if (o.all_gyms_access) throw forbidden("This offering is sold at every gym: only organisation admins can change it.");
  for (const g of o.gymIds) assertCan(user, "offerings.write", g);
  if (o.mandated) throw forbidden("This offering is set by the organisation: only organisation admins can change it.");
  if (part === "hours" && o.hours_mandated) throw forbidden("This offering's hours are set by the organisation: only organisation admins can change them.");
  if (part === "prices" && o.prices_mandated) throw forbidden("This offering's prices are set by the organisation: only organisation admins can change them.");
}

/** The organisation's terms that offerings and prices must keep to. */
export async function organisationTerms(t: Tenant) {
  const [org] = await t.db
    .select({ offering_permissions: organisations.offering_permissions, price_frequencies: organisations.price_frequencies })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  return org;
}
export type OrganisationTerms = Awaited<ReturnType<typeof organisationTerms>>;

/** 403 while the organisation has offerings switched off (its settings' enable_offerings). */
export function assertOfferingsOn(terms: OrganisationTerms) {
  if (!terms.offering_permissions.enable_offerings) throw forbidden("Offerings are switched off for this organisation. An organisation admin can switch them on in Settings.");
}

/** 422 when the type is not one the organisation allows, unless the offering already has it. */
export function assertTypeAllowed(terms: OrganisationTerms, type: OfferingType, current?: OfferingType) {
  if (type === current || offeringTypesAllowed(terms.offering_permissions).includes(type)) return;
  throw invalid({ type: [`${OFFERING_TYPE_LABELS[type]} offerings are switched off in the organisation's settings.`] });
}

/** The error for a price billing at a frequency the organisation has switched off (`field`: where the form has it). */
export function frequencyError(terms: OrganisationTerms, f: BillingFrequency, field: string): Record<string, string[]> | null {
  const why = frequencyRefusal(terms.price_frequencies, f);
  return why ? { [field]: [why] } : null;
}

export const IN_USE = {
  amount: "Members pay this price, so its amount cannot change here. Use the bulk price change to move them to a new price.",
  billing_frequency: "Members pay this price, so how often it bills cannot change here. Use the bulk price change to move them to a new price.",
  term: "Members pay this price, so its term cannot change here. Create a new price instead.",
} as const;
