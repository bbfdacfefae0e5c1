import { and, asc, count, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { formatCents } from "../../domain/money";
import type { OfferingType } from "../../domain/offering";
import { bulk_price_changes, gyms, offering_gyms, offering_hours, offerings, organisation_users, price_changes, prices, private_price_links, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { rowsOf } from "../core/db/values";
import { notFound } from "../core/errors";

/**
 * Reading offerings and prices for the back-office (issue 14): the list, one offering with its hours, gyms and
 * prices, and the organisation's every price. Counts are of members, from the membership rows' copy of their
 * latest subscription (organisation_users.latest_price_id, kept by drizzle/0009's triggers).
 */

/** Members whose latest membership is on a price and has not been cancelled. */
const holding = (t: Tenant, column: typeof organisation_users.latest_price_id | typeof organisation_users.latest_offering_id, ids: number[]) =>
  t.where(organisation_users, eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at), inArray(column, ids), or(isNull(organisation_users.latest_state), ne(organisation_users.latest_state, "cancelled")));

/** Members holding each price, and those moving to it at a scheduled price change: who pays it now or soon. */
export async function membersOnPrices(t: Tenant, priceIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!priceIds.length) return counts;
  const [held, moving] = await Promise.all([
    t.db.select({ id: organisation_users.latest_price_id, n: count() }).from(organisation_users).where(holding(t, organisation_users.latest_price_id, priceIds)).groupBy(organisation_users.latest_price_id),
    t.db
      .select({ id: subscriptions.transition_to_price_id, n: count() })
      .from(subscriptions)
      .where(t.where(subscriptions, inArray(subscriptions.transition_to_price_id, priceIds), isNull(subscriptions.cancelled_at)))
      .groupBy(subscriptions.transition_to_price_id),
  ]);
  for (const r of [...held, ...moving]) if (r.id !== null) counts.set(r.id, (counts.get(r.id) ?? 0) + r.n);
  return counts;
}

/** Whether any membership, past or present, or any price change names the price: then it can only be archived (SPEC §4). */
export async function priceHasHistory(t: Tenant, priceIds: number[]): Promise<boolean> {
  if (!priceIds.length) return false;
  const ids = sql`array[${sql.join(priceIds.map((i) => sql`${i}`), sql`, `)}]::int[]`;
  const [row] = rowsOf<{ used: boolean }>(await t.db.execute(sql`select (
      exists (select 1 from ${subscriptions} where ${subscriptions.organisation_id} = ${t.organisationId} and (${inArray(subscriptions.price_id, priceIds)} or ${inArray(subscriptions.transition_to_price_id, priceIds)}))
      or exists (select 1 from ${price_changes} where ${price_changes.organisation_id} = ${t.organisationId} and (${inArray(price_changes.from_price_id, priceIds)} or ${inArray(price_changes.to_price_id, priceIds)}))
      or exists (select 1 from ${bulk_price_changes} where ${bulk_price_changes.organisation_id} = ${t.organisationId} and (${inArray(bulk_price_changes.to_price_id, priceIds)} or ${bulk_price_changes.from_price_ids} && ${ids}))
    ) as used`));
  return Boolean(row?.used);
}

type PriceRow = typeof prices.$inferSelect;

/** A price as the API shows it (SPEC §3 Price), with the members who pay it. */
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

/** Prices shortest frequency first, PIF last, then by term and amount: the order every list shows them in. */
const priceOrder = [sql`${prices.archived_at} is not null`, sql`array_position(array['daily','weekly','fortnightly','monthly','bi_monthly','quarterly','twice_yearly','yearly','one_off'], ${prices.billing_frequency})`, asc(prices.term_amount), asc(prices.amount), asc(prices.id)];

async function pricesWhere(t: Tenant, where: SQL | undefined) {
  const rows = await t.db.select().from(prices).where(t.where(prices, where)).orderBy(...priceOrder);
  const members = await membersOnPrices(t, rows.map((p) => p.id));
  return rows.map((p) => priceView(p, members.get(p.id) ?? 0));
}

/** The list (SPEC §2 /offerings): each offering with its gyms, prices and members. */
export async function listOfferings(t: Tenant, status: "active" | "archived" | "all") {
  const list = await t.db
    .select()
    .from(offerings)
    .where(t.where(offerings, status === "active" ? isNull(offerings.archived_at) : status === "archived" ? isNotNull(offerings.archived_at) : undefined))
    .orderBy(asc(offerings.name), asc(offerings.id));
  const ids = list.map((o) => o.id);
  if (!ids.length) return [];
  const [priceRows, gymRows, memberRows] = await Promise.all([
    t.db.select().from(prices).where(t.where(prices, inArray(prices.offering_id, ids))).orderBy(...priceOrder),
    t.db.select({ offering_id: offering_gyms.offering_id, id: gyms.id, name: gyms.name }).from(offering_gyms).innerJoin(gyms, eq(gyms.id, offering_gyms.gym_id)).where(t.where(offering_gyms, inArray(offering_gyms.offering_id, ids))).orderBy(asc(gyms.name)),
    t.db.select({ id: organisation_users.latest_offering_id, n: count() }).from(organisation_users).where(holding(t, organisation_users.latest_offering_id, ids)).groupBy(organisation_users.latest_offering_id),
  ]);
  const members = new Map(memberRows.map((r) => [r.id, r.n]));
  return list.map((o) => {
    const own = priceRows.filter((p) => p.offering_id === o.id);
    return {
      id: o.id,
      name: o.name,
      type: o.type as OfferingType,
      all_gyms_access: o.all_gyms_access,
      archived_at: o.archived_at,
      gyms: gymRows.filter((g) => g.offering_id === o.id).map((g) => ({ id: g.id, name: g.name })),
      prices_count: own.filter((p) => !p.archived_at).length,
      members_count: members.get(o.id) ?? 0,
      prices: own.map((p) => ({
        id: p.id,
        amount: p.amount,
        billing_frequency: p.billing_frequency as BillingFrequency,
        term: termShorthand({ billing_frequency: p.billing_frequency as BillingFrequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null }),
        private: p.private,
        archived_at: p.archived_at,
      })),
    };
  });
}

/** The offering row, of this organisation, or 404 (another organisation's answers the same as none). */
export async function findOffering(t: Tenant, id: number) {
  const [row] = await t.db.select().from(offerings).where(t.where(offerings, eq(offerings.id, id)));
  if (!row) throw notFound("No such offering.");
  return row;
}
export type OfferingRow = Awaited<ReturnType<typeof findOffering>>;

/** The price row with its offering, of this organisation, or 404. */
export async function findPrice(t: Tenant, id: number) {
  const [row] = await t.db.select({ price: prices, offering: offerings }).from(prices).innerJoin(offerings, eq(offerings.id, prices.offering_id)).where(t.where(prices, eq(prices.id, id)));
  if (!row) throw notFound("No such price.");
  return row;
}

/** The gyms the offering is sold at: every gym of the organisation when it is open to all. */
export async function offeringGyms(t: Tenant, o: OfferingRow) {
  const columns = { id: gyms.id, name: gyms.name, uuid: gyms.uuid, archived: sql<boolean>`${gyms.archived_at} is not null` };
  if (o.all_gyms_access) return t.db.select(columns).from(gyms).where(t.where(gyms)).orderBy(asc(gyms.name));
  return t.db
    .select(columns)
    .from(offering_gyms)
    .innerJoin(gyms, eq(gyms.id, offering_gyms.gym_id))
    .where(t.where(offering_gyms, eq(offering_gyms.offering_id, o.id)))
    .orderBy(asc(gyms.name));
}

/** Members with a live membership of the offering at a gym, each counted once (SPEC §7 unique-memberships). */
export async function uniqueMemberships(t: Tenant, offeringId: number, gymId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`count(distinct ${organisation_users.user_id})::int` })
    .from(organisation_users)
    .innerJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
    .where(and(holding(t, organisation_users.latest_offering_id, [offeringId]), eq(subscriptions.gym_id, gymId)));
  return row?.n ?? 0;
}

/** One offering for its page and its form: details, hours, gyms (with members at each) and prices. */
export async function offeringDetail(t: Tenant, id: number) {
  const o = await findOffering(t, id);
  const [hours, soldAt, priceList] = await Promise.all([
    t.db.select({ id: offering_hours.id, day: offering_hours.day, open_at: offering_hours.open_at, close_at: offering_hours.close_at }).from(offering_hours).where(t.where(offering_hours, eq(offering_hours.offering_id, id))).orderBy(asc(offering_hours.day), asc(offering_hours.open_at)),
    offeringGyms(t, o),
    pricesWhere(t, eq(prices.offering_id, id)),
  ]);
  const gymsWithCounts = [];
  for (const g of soldAt) gymsWithCounts.push({ id: g.id, name: g.name, uuid: g.uuid, archived: g.archived, unique_memberships: await uniqueMemberships(t, id, g.id) });
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    type: o.type as OfferingType,
    all_gyms_access: o.all_gyms_access,
    mandated: o.mandated,
    hours_mandated: o.hours_mandated,
    prices_mandated: o.prices_mandated,
    archived_at: o.archived_at,
    created_at: o.created_at,
    updated_at: o.updated_at,
    hours: hours.map((h) => ({ ...h, open_at: h.open_at.slice(0, 5), close_at: h.close_at.slice(0, 5) })),
    gyms: gymsWithCounts,
    prices: priceList,
    prices_count: priceList.filter((p) => !p.archived_at).length,
  };
}

/** Every price of the organisation with its offering's name (SPEC §7 GET /api/organisations/{id}/prices). */
export async function organisationPrices(t: Tenant) {
  const [list, names] = await Promise.all([pricesWhere(t, undefined), t.db.select({ id: offerings.id, name: offerings.name, archived_at: offerings.archived_at }).from(offerings).where(t.where(offerings))]);
  const byId = new Map(names.map((o) => [o.id, o]));
  return list
    .map((p) => ({ ...p, offering: { id: p.offering_id, name: byId.get(p.offering_id)?.name ?? "", archived_at: byId.get(p.offering_id)?.archived_at ?? null } }))
    .sort((a, b) => a.offering.name.localeCompare(b.offering.name) || a.offering.id - b.offering.id);
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
