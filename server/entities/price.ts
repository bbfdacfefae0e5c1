import { asc, count, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { localDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { totalValue } from "../../domain/price-value";
import { surchargeFor } from "../../domain/surcharge";
import { gyms, offering_gyms, offerings, organisation_users, prices, private_price_links, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { signupAddress } from "../core/links";
import type { EntityContext } from "./context";

/**
 * SPEC §3 Price, as every answer that names a price gives it (an offering's, the organisation's, a subscription's):
 * its own fields, its gym and offering, the members paying it, its total value, its card surcharge, and its private
 * links with their addresses at each gym its offering is sold at. Built for a batch of prices in a fixed number of queries.
 */

type PriceRow = typeof prices.$inferSelect;
type LinkRow = typeof private_price_links.$inferSelect;
type LinkGym = { name: string; uuid: string };

/** Members whose latest membership is on a price and has not been cancelled. */
export const holding = (t: Tenant, column: typeof organisation_users.latest_price_id | typeof organisation_users.latest_offering_id, ids: number[]) =>
  t.where(
    organisation_users,
    eq(organisation_users.role, "member"),
    isNull(organisation_users.deleted_at),
    inArray(column, ids),
    or(isNull(organisation_users.latest_state), ne(organisation_users.latest_state, "cancelled")),
  );

/** How old a count nested in a members list may be (EntityContext.countsMayLag). */
export const PRICE_COUNT_TTL_MS = 60_000;
/** Counts recently made, per organisation and price, in this process. */
const recentCounts = new Map<string, { n: number; at: number }>();

/**
 * membersOnPrices, allowed to answer counts made in the last minute: the members list shows each member's price, and
 * its holders are the same few prices on every page.
 */
async function membersOnPricesLagging(t: Tenant, priceIds: number[], at: Date): Promise<Map<number, number>> {
  const key = (id: number) => `${t.organisationId}:${id}`;
  const fresh = (id: number) => {
    const hit = recentCounts.get(key(id));
    return hit && at.getTime() - hit.at < PRICE_COUNT_TTL_MS && hit.at <= at.getTime() ? hit : undefined;
  };
  const missing = priceIds.filter((id) => !fresh(id));
  const counted = await membersOnPrices(t, missing);
  for (const id of missing) recentCounts.set(key(id), { n: counted.get(id) ?? 0, at: at.getTime() });
  if (recentCounts.size > 10_000) recentCounts.clear();
  return new Map(priceIds.map((id) => [id, fresh(id)?.n ?? counted.get(id) ?? 0]));
}

/** Members holding each price, and those moving to it at a scheduled price change: who pays it now or soon. */
export async function membersOnPrices(t: Tenant, priceIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!priceIds.length) return counts;
  const [held, moving] = await Promise.all([
    t.db
      .select({ id: organisation_users.latest_price_id, n: count() })
      .from(organisation_users)
      .where(holding(t, organisation_users.latest_price_id, priceIds))
      .groupBy(organisation_users.latest_price_id),
    t.db
      .select({ id: subscriptions.transition_to_price_id, n: count() })
      .from(subscriptions)
      .where(t.where(subscriptions, inArray(subscriptions.transition_to_price_id, priceIds), isNull(subscriptions.cancelled_at)))
      .groupBy(subscriptions.transition_to_price_id),
  ]);
  for (const r of [...held, ...moving]) if (r.id !== null) counts.set(r.id, (counts.get(r.id) ?? 0) + r.n);
  return counts;
}

/** The private links of prices that are still good, newest first. */
export async function activeLinks(t: Tenant, priceIds: number[]) {
  if (!priceIds.length) return [];
  return t.db
    .select()
    .from(private_price_links)
    .where(t.where(private_price_links, inArray(private_price_links.price_id, priceIds), isNull(private_price_links.revoked_at)))
    .orderBy(sql`${private_price_links.created_at} desc`, sql`${private_price_links.id} desc`);
}

/** A sign-up link with its address at each gym where it can be used. */
export const linkView = (l: LinkRow, at: LinkGym[], base: string) => ({
  id: l.id,
  price_id: l.price_id,
  token: l.token,
  age_bypass: l.age_bypass,
  created_at: l.created_at,
  urls: at.map((g) => ({ gym: g.name, url: signupAddress(base, g.uuid, { link: l.token }) })),
});
export type LinkView = ReturnType<typeof linkView>;

/** A price's own fields as the API shows them, with the members who pay it. */
export function priceView(p: PriceRow, members: number) {
  const frequency = p.billing_frequency as BillingFrequency;
  const term = termShorthand({ billing_frequency: frequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null });
  return {
    id: p.id,
    offering_id: p.offering_id,
    gym_id: p.gym_id,
    amount: p.amount,
    formatted_amount: formatCents(p.amount),
    billing_frequency: frequency,
    frequency_label: FREQUENCY_LABELS[frequency],
    joining_fee: p.joining_fee,
    private: p.private,
    term_amount: p.term_amount,
    term_unit: p.term_unit as TermUnit | null,
    is_term_membership: Boolean(p.term_amount && p.term_unit),
    formatted_term: term,
    grouping_unique_identifier: p.grouping_unique_identifier,
    archived_at: p.archived_at,
    subscriptions_count: members,
  };
}

/** The gyms each offering is sold at: every gym of the organisation when it is open to all. */
async function gymsOfOfferings(t: Tenant, offeringIds: number[]) {
  const [all, chosen, open] = await Promise.all([
    t.db.select({ id: gyms.id, name: gyms.name, uuid: gyms.uuid }).from(gyms).where(t.where(gyms)).orderBy(asc(gyms.name)),
    t.db
      .select({ offering_id: offering_gyms.offering_id, gym_id: offering_gyms.gym_id })
      .from(offering_gyms)
      .where(t.where(offering_gyms, inArray(offering_gyms.offering_id, offeringIds))),
    t.db
      .select({ id: offerings.id, all: offerings.all_gyms_access })
      .from(offerings)
      .where(t.where(offerings, inArray(offerings.id, offeringIds))),
  ]);
  const everywhere = new Set(open.filter((o) => o.all).map((o) => o.id));
  return (offeringId: number) => (everywhere.has(offeringId) ? all : all.filter((g) => chosen.some((c) => c.offering_id === offeringId && c.gym_id === g.id)));
}

const offeringOfPrice = (rows: PriceRow[], priceId: number) => rows.find((p) => p.id === priceId)!.offering_id;

/** SPEC's Price for each row, by id. */
export async function priceEntities(t: Tenant, rows: PriceRow[], ctx: EntityContext) {
  const out = new Map<number, PriceEntity>();
  if (!rows.length) return out;
  const ids = rows.map((p) => p.id);
  const offeringIds = [...new Set(rows.map((p) => p.offering_id))];
  const gymIds = [...new Set([...rows.map((p) => p.gym_id), t.gymId].filter((g): g is number => g !== null))];
  const [members, offeringRows, gymRows, links] = await Promise.all([
    ctx.countsMayLag ? membersOnPricesLagging(t, ids, ctx.at) : membersOnPrices(t, ids),
    t.db
      .select({ id: offerings.id, name: offerings.name, archived_at: offerings.archived_at })
      .from(offerings)
      .where(t.where(offerings, inArray(offerings.id, offeringIds))),
    gymIds.length
      ? t.db
          .select({ id: gyms.id, name: gyms.name, basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed })
          .from(gyms)
          .where(t.where(gyms, inArray(gyms.id, gymIds)))
      : [],
    activeLinks(t, ids),
  ]);
  // Where each link can be used: asked only when there are links (most prices have none).
  const soldAt = links.length ? await gymsOfOfferings(t, [...new Set(links.map((l) => offeringOfPrice(rows, l.price_id!)))]) : () => [];
  const offeringOf = new Map(offeringRows.map((o) => [o.id, o]));
  const gymOf = new Map(gymRows.map((g) => [g.id, g]));
  const today = localDay(ctx.at);
  for (const p of rows) {
    const frequency = p.billing_frequency as BillingFrequency;
    const gym = p.gym_id !== null ? gymOf.get(p.gym_id) : undefined;
    // The card surcharge where the price is sold: its own gym, else the gym the user works in now.
    const surchargeGym = gym ?? (t.gymId !== null ? gymOf.get(t.gymId) : undefined);
    const surcharge = surchargeGym ? surchargeFor(p.amount, "stripe_card", surchargeGym) : null;
    const offering = offeringOf.get(p.offering_id);
    out.set(p.id, {
      ...priceView(p, members.get(p.id) ?? 0),
      gym: gym ? { id: gym.id, name: gym.name } : null,
      offering: { id: p.offering_id, name: offering?.name ?? "", archived_at: offering?.archived_at ?? null },
      total_value: totalValue(
        { amount: p.amount, joining_fee: p.joining_fee, billing_frequency: frequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null },
        today,
      ),
      formatted_surcharge: surcharge === null ? null : formatCents(surcharge),
      formatted_amount_with_surcharge: surcharge === null ? null : formatCents(p.amount + surcharge),
      private_links: links.filter((l) => l.price_id === p.id).map((l) => linkView(l, soldAt(p.offering_id), ctx.signupBase)),
    });
  }
  return out;
}

export type PriceEntity = ReturnType<typeof priceView> & {
  gym: { id: number; name: string } | null;
  offering: { id: number; name: string; archived_at: Date | null };
  total_value: number | null;
  formatted_surcharge: string | null;
  formatted_amount_with_surcharge: string | null;
  private_links: LinkView[];
};

/** SPEC's Price for each price id of this organisation, in the order given (unknown ids left out). */
export async function pricesById(t: Tenant, ids: number[], ctx: EntityContext): Promise<PriceEntity[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await t.db
    .select()
    .from(prices)
    .where(t.where(prices, inArray(prices.id, unique)));
  const built = await priceEntities(t, rows, ctx);
  return unique.flatMap((id) => (built.has(id) ? [built.get(id)!] : []));
}
