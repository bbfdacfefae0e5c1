import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { OfferingType } from "../../domain/offering";
import { bulk_price_changes, gyms, offering_gyms, offering_hours, offerings, organisation_users, price_changes, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { rowsOf } from "../core/db/values";
import { notFound } from "../core/errors";
import type { EntityContext } from "../entities/context";
import { holding, priceEntities } from "../entities/price";

/**
 * Reading offerings and prices for the back-office (issue 14): the list, one offering with its hours, gyms and
 * prices, and the organisation's every price. Counts are of members, from the membership rows' copy of their
 * latest subscription (organisation_users.latest_price_id, kept by drizzle/0009's triggers).
 */

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

/** Prices shortest frequency first, PIF last, then by term and amount: the order every list shows them in. */
const priceOrder = [sql`${prices.archived_at} is not null`, sql`array_position(array['daily','weekly','fortnightly','monthly','bi_monthly','quarterly','twice_yearly','yearly','one_off'], ${prices.billing_frequency})`, asc(prices.term_amount), asc(prices.amount), asc(prices.id)];

/** SPEC's Price for each price matching `where`, in the lists' order. */
async function pricesWhere(t: Tenant, where: SQL | undefined, ctx: EntityContext) {
  const rows = await t.db.select().from(prices).where(t.where(prices, where)).orderBy(...priceOrder);
  const built = await priceEntities(t, rows, ctx);
  return rows.map((p) => built.get(p.id)!);
}

/** An offering's hours as the API shows them: HH:MM. */
const hourView = (h: { id: number; day: number; open_at: string; close_at: string }) => ({
  ...h,
  open_at: h.open_at.slice(0, 5),
  close_at: h.close_at.slice(0, 5),
});
const hourColumns = {
  id: offering_hours.id,
  offering_id: offering_hours.offering_id,
  day: offering_hours.day,
  open_at: offering_hours.open_at,
  close_at: offering_hours.close_at,
};

/** An offering's own fields (SPEC §3 Offering); `gym` is always null: an offering is the organisation's, sold at its `gyms`. */
const offeringFields = (o: OfferingRow) => ({
  id: o.id,
  name: o.name,
  description: o.description,
  type: o.type as OfferingType,
  all_gyms_access: o.all_gyms_access,
  mandated: o.mandated,
  hours_mandated: o.hours_mandated,
  prices_mandated: o.prices_mandated,
  gym: null,
  archived_at: o.archived_at,
  created_at: o.created_at,
  updated_at: o.updated_at,
});

/** The list (SPEC §2 /offerings): each offering (SPEC §3) with its gyms, hours, prices and members. */
export async function listOfferings(t: Tenant, status: "active" | "archived" | "all", ctx: EntityContext) {
  const list = await t.db
    .select()
    .from(offerings)
    .where(t.where(offerings, status === "active" ? isNull(offerings.archived_at) : status === "archived" ? isNotNull(offerings.archived_at) : undefined))
    .orderBy(asc(offerings.name), asc(offerings.id));
  const ids = list.map((o) => o.id);
  if (!ids.length) return [];
  const [priceList, gymRows, memberRows, hours] = await Promise.all([
    pricesWhere(t, inArray(prices.offering_id, ids), ctx),
    t.db
      .select({ offering_id: offering_gyms.offering_id, id: gyms.id, name: gyms.name })
      .from(offering_gyms)
      .innerJoin(gyms, eq(gyms.id, offering_gyms.gym_id))
      .where(t.where(offering_gyms, inArray(offering_gyms.offering_id, ids)))
      .orderBy(asc(gyms.name)),
    t.db
      .select({ id: organisation_users.latest_offering_id, n: count() })
      .from(organisation_users)
      .where(holding(t, organisation_users.latest_offering_id, ids))
      .groupBy(organisation_users.latest_offering_id),
    t.db
      .select(hourColumns)
      .from(offering_hours)
      .where(t.where(offering_hours, inArray(offering_hours.offering_id, ids)))
      .orderBy(asc(offering_hours.day), asc(offering_hours.open_at)),
  ]);
  const members = new Map(memberRows.map((r) => [r.id, r.n]));
  return list.map((o) => {
    const own = priceList.filter((p) => p.offering_id === o.id);
    return {
      ...offeringFields(o),
      gyms: gymRows.filter((g) => g.offering_id === o.id).map((g) => ({ id: g.id, name: g.name })),
      hours: hours.filter((h) => h.offering_id === o.id).map(({ offering_id: _o, ...h }) => hourView(h)),
      prices_count: own.filter((p) => !p.archived_at).length,
      members_count: members.get(o.id) ?? 0,
      prices: own.map((p) => ({ ...p, term: p.formatted_term })),
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
export async function offeringDetail(t: Tenant, id: number, ctx: EntityContext) {
  const o = await findOffering(t, id);
  const [hours, soldAt, priceList] = await Promise.all([
    t.db
      .select(hourColumns)
      .from(offering_hours)
      .where(t.where(offering_hours, eq(offering_hours.offering_id, id)))
      .orderBy(asc(offering_hours.day), asc(offering_hours.open_at)),
    offeringGyms(t, o),
    pricesWhere(t, eq(prices.offering_id, id), ctx),
  ]);
  const gymsWithCounts = [];
  for (const g of soldAt)
    gymsWithCounts.push({ id: g.id, name: g.name, uuid: g.uuid, archived: g.archived, unique_memberships: await uniqueMemberships(t, id, g.id) });
  return {
    ...offeringFields(o),
    hours: hours.map(({ offering_id: _o, ...h }) => hourView(h)),
    gyms: gymsWithCounts,
    prices: priceList,
    prices_count: priceList.filter((p) => !p.archived_at).length,
  };
}

/** Every price of the organisation (SPEC §7 GET /api/organisations/{id}/prices), by offering name. */
export async function organisationPrices(t: Tenant, ctx: EntityContext) {
  const list = await pricesWhere(t, undefined, ctx);
  return list.sort((a, b) => a.offering.name.localeCompare(b.offering.name) || a.offering.id - b.offering.id);
}
