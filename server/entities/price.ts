import { asc, count, eq, getTableName, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { localDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { totalValue } from "../../domain/price-value";
import { surchargeFor } from "../../domain/surcharge";
import { preparedFor } from "../core/db/prepared";
import { gyms, offering_gyms, offerings, organisation_users, prices, private_price_links, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { signupAddress } from "../core/links";
import type { EntityContext } from "./context";
import { jsonArray, jsonObject, qualified as col } from "./sql";

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

/** What a Price is built from, as pricesJson gives it: its row, its offering and gym, and its links still good. */
interface PriceRead {
  id: number;
  offering_id: number;
  gym_id: number | null;
  amount: number;
  billing_frequency: string;
  joining_fee: number;
  private: boolean;
  term_amount: number | null;
  term_unit: string | null;
  grouping_unique_identifier: string;
  archived_at: string | null;
  offering: { name: string; archived_at: string | null } | null;
  gym: (SurchargeGym & { id: number; name: string }) | null;
  /** Newest first. */
  links: (Omit<LinkFields, "created_at"> & { created_at: string })[];
}
type SurchargeGym = { basisPoints: number; fixed: number };
/** The gym the user works in now, whose card surcharge a price with no gym of its own is quoted at. */
const currentGym = alias(gyms, "current_gym");
const currentGymJson = jsonObject({ basisPoints: currentGym.card_surcharge_basis_points, fixed: currentGym.card_surcharge_fixed });

const priceJson = jsonObject({
  id: prices.id,
  offering_id: prices.offering_id,
  gym_id: prices.gym_id,
  amount: prices.amount,
  billing_frequency: prices.billing_frequency,
  joining_fee: prices.joining_fee,
  private: prices.private,
  term_amount: prices.term_amount,
  term_unit: prices.term_unit,
  grouping_unique_identifier: prices.grouping_unique_identifier,
  archived_at: prices.archived_at,
  offering: sql`case when ${col(offerings.id)} is null then null else ${jsonObject({ name: offerings.name, archived_at: offerings.archived_at })} end`,
  gym: sql`case when ${col(gyms.id)} is null then null
    else ${jsonObject({ id: gyms.id, name: gyms.name, basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed })} end`,
  links: jsonArray(
    jsonObject({
      id: private_price_links.id,
      price_id: private_price_links.price_id,
      token: private_price_links.token,
      age_bypass: private_price_links.age_bypass,
      created_at: private_price_links.created_at,
    }),
    sql`${private_price_links} where ${col(private_price_links.organisation_id)} = ${col(prices.organisation_id)}
      and ${col(private_price_links.price_id)} = ${col(prices.id)} and ${col(private_price_links.revoked_at)} is null`,
    sql`${col(private_price_links.created_at)} desc, ${col(private_price_links.id)} desc`,
  ),
});

/**
 * What the prices with an id in `ids` (SQL giving an int[]) are built from, as one JSON array (PriceRead): their rows,
 * offerings, gyms and links still good in one subquery. The members' and subscriptions' own statements embed it, so a
 * page of members reads its prices in the same round trip.
 */
export const pricesJson = (ids: SQL): SQL<PriceRead[]> => sql`(select coalesce(json_agg(${priceJson}), '[]') from ${prices}
  left join ${offerings} on ${col(offerings.organisation_id)} = ${col(prices.organisation_id)} and ${col(offerings.id)} = ${col(prices.offering_id)}
  left join ${gyms} on ${col(gyms.organisation_id)} = ${col(prices.organisation_id)} and ${col(gyms.id)} = ${col(prices.gym_id)}
  where ${col(prices.organisation_id)} = ${sql.placeholder("org")} and ${col(prices.id)} = any(${ids}))`;

/** The card surcharge of the gym the user works in now (placeholder `gym`), as JSON, or null without one. */
export const currentGymSurcharge: SQL<SurchargeGym | null> = sql`(select ${currentGymJson} from ${gyms} as ${sql.identifier(getTableName(currentGym))}
  where ${col(currentGym.organisation_id)} = ${sql.placeholder("org")} and ${col(currentGym.id)} = ${sql.placeholder("gym")})`;

/** Prices by id: one prepared statement (server/core/db/prepared.ts) where the rows, offerings, gyms and links were four queries. */
const pricesRead = preparedFor((db) =>
  db
    .select({ prices: pricesJson(sql`${sql.placeholder("ids")}::int[]`), current_gym: currentGymSurcharge })
    // One row: everything is in the subqueries.
    .from(sql`(values (1)) as ${sql.identifier("one")}`)
    .prepare("price_entities"),
);

type LinkFields = Pick<LinkRow, "id" | "price_id" | "token" | "age_bypass" | "created_at">;

/** A sign-up link with its address at each gym where it can be used. */
export const linkView = (l: LinkFields, at: LinkGym[], base: string) => ({
  id: l.id,
  price_id: l.price_id,
  token: l.token,
  age_bypass: l.age_bypass,
  created_at: l.created_at,
  urls: at.map((g) => ({ gym: g.name, url: signupAddress(base, g.uuid, { link: l.token }) })),
});
export type LinkView = ReturnType<typeof linkView>;

type PriceFields = Pick<
  PriceRow,
  | "id"
  | "offering_id"
  | "gym_id"
  | "amount"
  | "billing_frequency"
  | "joining_fee"
  | "private"
  | "term_amount"
  | "term_unit"
  | "grouping_unique_identifier"
  | "archived_at"
>;

/** A price's own fields as the API shows them, with the members who pay it. */
export function priceView(p: PriceFields, members: number) {
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

const date = (d: string | null) => (d === null ? null : new Date(d));

/** SPEC's Price for each row, by id (read afresh with what it needs, in one statement). */
export async function priceEntities(t: Tenant, rows: PriceRow[], ctx: EntityContext) {
  const built = await pricesById(
    t,
    rows.map((p) => p.id),
    ctx,
  );
  return new Map(built.map((p) => [p.id, p]));
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
  const [[{ prices: found, current_gym }], members] = await Promise.all([
    pricesRead(t.db).execute({ org: t.organisationId, ids: unique, gym: t.gymId }),
    membersPaying(t, unique, ctx),
  ]);
  const built = await pricesFrom(t, { prices: found, current_gym }, ctx, members);
  return unique.flatMap((id) => (built.has(id) ? [built.get(id)!] : []));
}

/** Members paying each price, afresh or (for prices nested in a list of members) up to PRICE_COUNT_TTL_MS old. */
const membersPaying = (t: Tenant, ids: number[], ctx: EntityContext) => (ctx.countsMayLag ? membersOnPricesLagging(t, ids, ctx.at) : membersOnPrices(t, ids));

/** What prices are built from: pricesJson's array, and currentGymSurcharge. */
export interface PricesRead {
  prices: PriceRead[];
  current_gym: SurchargeGym | null;
}

/** SPEC's Price for each one read (pricesJson), by id; `members` paying each when already counted. */
export async function pricesFrom(t: Tenant, read: PricesRead, ctx: EntityContext, members?: Map<number, number>) {
  const out = new Map<number, PriceEntity>();
  if (!read.prices.length) return out;
  const ids = read.prices.map((p) => p.id);
  const paying = members ?? (await membersPaying(t, ids, ctx));
  // Where each link can be used: asked only when there are links (most prices have none).
  const withLinks = read.prices.filter((p) => p.links.length);
  const soldAt = withLinks.length ? await gymsOfOfferings(t, [...new Set(withLinks.map((p) => p.offering_id))]) : () => [];
  const today = localDay(ctx.at);
  for (const p of read.prices) {
    const frequency = p.billing_frequency as BillingFrequency;
    // The card surcharge where the price is sold: its own gym, else the gym the user works in now.
    const surchargeGym = p.gym ?? read.current_gym;
    const surcharge = surchargeGym ? surchargeFor(p.amount, "stripe_card", surchargeGym) : null;
    // Object.assign, not a spread and more fields: V8 makes a new hidden class for each object spread that way,
    // which costs a page of members about a millisecond (and its garbage).
    const view = priceView({ ...p, archived_at: date(p.archived_at) }, paying.get(p.id) ?? 0);
    out.set(
      p.id,
      Object.assign(view, {
        gym: p.gym ? { id: p.gym.id, name: p.gym.name } : null,
        offering: { id: p.offering_id, name: p.offering?.name ?? "", archived_at: date(p.offering?.archived_at ?? null) },
        total_value: totalValue(
          { amount: p.amount, joining_fee: p.joining_fee, billing_frequency: frequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null },
          today,
        ),
        formatted_surcharge: surcharge === null ? null : formatCents(surcharge),
        formatted_amount_with_surcharge: surcharge === null ? null : formatCents(p.amount + surcharge),
        private_links: p.links.map((l) => linkView({ ...l, created_at: new Date(l.created_at) }, soldAt(p.offering_id), ctx.signupBase)),
      }),
    );
  }
  return out;
}
