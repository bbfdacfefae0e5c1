import { and, asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { dayName, formatClock } from "../../domain/offering";
import { gyms, offering_gyms, offering_hours, offerings, prices, private_price_links } from "../core/db/schema";
import type { Db } from "../core/db/client";
import { withTenant, type Tenant } from "../core/db/tenant";

/**
 * A price is sold at a gym when it names that gym or none, and its offering is open to every gym or to that one; and
 * nothing is sold at an archived gym (issue 32).
 */
export function soldAtGym(gymId: number): SQL {
  return and(
    sql`exists (select 1 from ${gyms} g where g.id = ${gymId} and g.archived_at is null)`,
    or(isNull(prices.gym_id), eq(prices.gym_id, gymId)),
    or(eq(offerings.all_gyms_access, true), sql`exists (select 1 from ${offering_gyms} og where og.offering_id = ${offerings.id} and og.gym_id = ${gymId})`),
  )!;
}

export interface SignupPrice {
  id: number;
  /** `hours`: a limited-access offering's opening hours in words ("Monday 6:00 AM – 4:00 PM"); null when open at every hour. */
  offering: { id: number; name: string; description: string | null; hours: string[] | null };
  amount: number;
  joining_fee: number;
  billing_frequency: BillingFrequency;
  frequency_label: string;
  term_amount: number | null;
  term_unit: TermUnit | null;
  term: string | null;
  private: boolean;
}

/** The sign-up link a person came by, when it is still good (not revoked): a private price's, or an age-bypass link (no price). */
export async function privateLink(t: Tenant, linkId: number | null) {
  if (!linkId) return null;
  const [link] = await t.db
    .select()
    .from(private_price_links)
    .where(t.where(private_price_links, eq(private_price_links.id, linkId), isNull(private_price_links.revoked_at)));
  return link ?? null;
}

/**
 * What a person joining at a gym may choose from (SPEC §2 confirm-subscription): the public prices on sale there,
 * grouped by offering in the page's order, and the private price of the link they came by, if any.
 */
export async function pricesOnSale(t: Tenant, gymId: number, linkId: number | null): Promise<SignupPrice[]> {
  const link = await privateLink(t, linkId);
  const rows = await t.db
    .select({ price: prices, offering: { id: offerings.id, name: offerings.name, description: offerings.description, type: offerings.type } })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(
      t.where(
        prices,
        isNull(prices.archived_at),
        isNull(offerings.archived_at),
        soldAtGym(gymId),
        link?.price_id ? or(eq(prices.private, false), eq(prices.id, link.price_id)) : eq(prices.private, false),
      ),
    )
    .orderBy(asc(offerings.name), asc(offerings.id), sql`${prices.billing_frequency} = 'one_off'`, asc(prices.term_amount), asc(prices.amount), asc(prices.id));
  const limited = [...new Set(rows.filter((r) => r.offering.type === "limited_access").map((r) => r.offering.id))];
  const hours = limited.length
    ? await t.db
        .select()
        .from(offering_hours)
        .where(t.where(offering_hours, inArray(offering_hours.offering_id, limited)))
        .orderBy(asc(offering_hours.day), asc(offering_hours.open_at))
    : [];
  const hoursOf = (offeringId: number) =>
    hours
      .filter((h) => h.offering_id === offeringId)
      .map((h) => `${dayName(h.day)} ${formatClock(h.open_at.slice(0, 5))} – ${formatClock(h.close_at.slice(0, 5))}`);
  return rows.map(({ price: p, offering: { type, ...offering } }) => {
    const frequency = p.billing_frequency as BillingFrequency;
    return {
      id: p.id,
      offering: { ...offering, hours: type === "limited_access" ? hoursOf(offering.id) : null },
      amount: p.amount,
      joining_fee: p.joining_fee,
      billing_frequency: frequency,
      frequency_label: FREQUENCY_LABELS[frequency],
      term_amount: p.term_amount,
      term_unit: p.term_unit as TermUnit | null,
      term: termShorthand({ billing_frequency: frequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null }),
      private: p.private,
    };
  });
}

/**
 * What a sign-up link names (an integrator's /?gym=…&price=…, or a private link's /?gym=…&link=…), read before
 * anyone is signed in: the price, when it is on sale at that gym (a private one only through its link), and the
 * link. Anything else names nothing, and the person chooses on the confirm page. `onSale`: the gym's public prices,
 * which integrators build their links from.
 */
export async function signupChoice(db: Db, gym: { id: number; organisation_id: number }, wanted: { price?: number | null; link?: string | null }) {
  const token = wanted.link && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(wanted.link) ? wanted.link.toLowerCase() : null;
  return withTenant(db, gym.organisation_id, gym.id, async (t) => {
    const [link] = token
      ? await t.db
          .select({ id: private_price_links.id, price_id: private_price_links.price_id, age_bypass: private_price_links.age_bypass })
          .from(private_price_links)
          .where(t.where(private_price_links, eq(private_price_links.token, token), isNull(private_price_links.revoked_at)))
      : [];
    const on = await pricesOnSale(t, gym.id, link?.id ?? null);
    const price = on.find((p) => p.id === (link?.price_id ?? wanted.price)) ?? null;
    // A private price's link counts when its price is on sale; an organisation's age-bypass link (no price) always.
    const good = Boolean(link && (price || link.price_id === null));
    return { price, linkId: good ? link!.id : null, ageBypass: good && Boolean(link?.age_bypass), onSale: on.filter((p) => !p.private) };
  });
}

/** A price on sale as the public answers and join links show it (GET /api/public/gyms/{uuid}, a gym's join links). */
export const publicOffer = (p: SignupPrice) => ({
  id: p.id,
  offering: p.offering.name,
  amount: p.amount,
  joining_fee: p.joining_fee,
  billing_frequency: p.billing_frequency,
  frequency_label: p.frequency_label,
  term: p.term,
});
