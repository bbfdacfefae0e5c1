import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { ORGANISATION_PRICE_FREQUENCIES } from "../../domain/billing";
import { OFFERING_TYPE_LABELS, SWITCH_LABELS, switchedFrequency, type OfferingPermissions, type PriceFrequencies } from "../../domain/offering";
import type { GracePeriodInput, MemberSelfServiceInput, MembershipTermsInput } from "../../domain/schemas/organisation";
import { offerings, organisations, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid } from "../core/errors";
import { organisationView } from "../entities/organisation";

export { organisationView };

/**
 * The organisation's own settings (issue 14, /organisation/settings): each section saved on its own. Switching off
 * an offering type or a billing frequency that live offerings or prices still use is refused with how many, so
 * nothing on sale is left breaking the organisation's own rules; archived ones are left out (they are not sold).
 */

type OrganisationRow = typeof organisations.$inferSelect;

export async function readOrganisation(t: Tenant) {
  const [o] = await t.db.select().from(organisations).where(eq(organisations.id, t.organisationId));
  return o;
}

async function update(t: Tenant, values: Partial<OrganisationRow>) {
  const [o] = await t.db
    .update(organisations)
    .set({ ...values, updated_at: new Date() })
    .where(eq(organisations.id, t.organisationId))
    .returning();
  return organisationView(o);
}

export const renameOrganisation = (t: Tenant, name: string) => update(t, { name });

export const setFailedPaymentGrace = (t: Tenant, g: GracePeriodInput) => update(t, { failed_payment_grace_period: g.period, failed_payment_grace_period_unit: g.unit });

export const setMinimumAge = (t: Tenant, age: number) => update(t, { minimum_age: age });

export const setMemberMail = (t: Tenant, m: { payment_receipts: boolean; signup_reminders: boolean }) => update(t, m);

export const setMembershipTerms = (t: Tenant, terms: MembershipTermsInput) => update(t, { membership_terms_text: terms.text ?? null, membership_terms_url: terms.url ?? null });

export const setMemberSelfService = (t: Tenant, m: MemberSelfServiceInput) => update(t, m);

export const setTermGrace = (t: Tenant, g: GracePeriodInput) => update(t, { term_membership_grace_period: g.period, term_membership_grace_period_unit: g.unit });

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function setOfferingPermissions(t: Tenant, p: OfferingPermissions) {
  const live = await t.db
    .select({ type: offerings.type, n: count() })
    .from(offerings)
    .where(t.where(offerings, isNull(offerings.archived_at)))
    .groupBy(offerings.type);
  const errors: Record<string, string[]> = {};
  const inUse = (type: "24_7" | "limited_access") => live.find((r) => r.type === type)?.n ?? 0;
  if (!p.non_stop && inUse("24_7")) errors.non_stop = [`${plural(inUse("24_7"), "live offering is", "live offerings are")} ${OFFERING_TYPE_LABELS["24_7"]}. Archive them first, or leave ${OFFERING_TYPE_LABELS["24_7"]} on.`];
  if (!p.limited_access && inUse("limited_access")) errors.limited_access = [`${plural(inUse("limited_access"), "live offering is", "live offerings are")} ${OFFERING_TYPE_LABELS.limited_access}. Archive them first, or leave ${OFFERING_TYPE_LABELS.limited_access} on.`];
  if (Object.keys(errors).length) throw invalid(errors);
  return update(t, { offering_permissions: p });
}

export async function setPriceFrequencies(t: Tenant, f: PriceFrequencies) {
  const off = ORGANISATION_PRICE_FREQUENCIES.filter((s) => !f[s]);
  const live = off.length
    ? await t.db
        .select({ billing_frequency: prices.billing_frequency, n: count() })
        .from(prices)
        .innerJoin(offerings, eq(offerings.id, prices.offering_id))
        .where(and(t.where(prices, isNull(prices.archived_at), inArray(prices.billing_frequency, off.map(switchedFrequency))), isNull(offerings.archived_at)))
        .groupBy(prices.billing_frequency)
    : [];
  const errors: Record<string, string[]> = {};
  for (const s of off) {
    const n = live.find((r) => r.billing_frequency === switchedFrequency(s))?.n ?? 0;
    if (n) errors[s] = [`${plural(n, "live price bills", "live prices bill")} ${SWITCH_LABELS[s].toLowerCase()}. Archive ${n === 1 ? "it" : "them"} first, or leave ${SWITCH_LABELS[s].toLowerCase()} on.`];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return update(t, { price_frequencies: f });
}
