import { and, eq, inArray, isNull } from "drizzle-orm";
import type { BillingFrequency } from "../../domain/billing";
import type { OfferingInput, PriceInput } from "../../domain/schemas/offerings";
import { gyms, offering_gyms, offering_hours, offerings, organisation_users, prices, private_price_links } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid } from "../core/errors";
import { isOrganisationAdmin, type CurrentUser } from "../core/current-user";
import { findOffering, priceHasHistory, type OfferingRow } from "./read";
import { membersOnPrices } from "../entities/price";
import { assertMayChangeOffering, assertOfferingsOn, assertTypeAllowed, frequencyError, IN_USE, organisationTerms, type OrganisationTerms } from "./rules";

/**
 * Creating and changing offerings and prices (issue 14). Every write runs inside the request's transaction
 * (server/core/middleware.ts), so a refusal half-way leaves nothing written.
 */

/** The gym ids, each of this organisation, or 422 on the field. */
async function ownGyms(t: Tenant, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await t.db.select({ id: gyms.id }).from(gyms).where(t.where(gyms, inArray(gyms.id, unique)));
  if (found.length !== unique.length) throw invalid({ gyms: ["Choose gyms from the list"] });
  return unique;
}

const offeringGymIds = async (t: Tenant, offeringId: number) =>
  (await t.db.select({ id: offering_gyms.gym_id }).from(offering_gyms).where(t.where(offering_gyms, eq(offering_gyms.offering_id, offeringId)))).map((g) => g.id);

/** Mandate flags are the organisation's: a gym admin's offering keeps what it had (none, for a new one). */
function flagsFor(user: CurrentUser, input: OfferingInput, current?: OfferingRow) {
  if (isOrganisationAdmin(user)) return { mandated: input.mandated, hours_mandated: input.hours_mandated, prices_mandated: input.prices_mandated };
  return { mandated: current?.mandated ?? false, hours_mandated: current?.hours_mandated ?? false, prices_mandated: current?.prices_mandated ?? false };
}

function hoursOf(input: OfferingInput) {
  // 24/7 is open at every hour: hours sent with it mean nothing and are not kept.
  return input.type === "24_7" ? [] : input.hours;
}

/** POST /api/offerings: the offering, its gyms, hours and prices, in one go. */
export async function createOffering(t: Tenant, user: CurrentUser, input: OfferingInput) {
  const terms = await organisationTerms(t);
  assertOfferingsOn(terms);
  assertTypeAllowed(terms, input.type);
  const gymIds = input.all_gyms_access ? [] : await ownGyms(t, input.gyms);
  const flags = flagsFor(user, input);
  assertMayChangeOffering(user, { ...flags, all_gyms_access: input.all_gyms_access, gymIds });
  const [o] = await t.db
    .insert(offerings)
    .values(t.owned({ name: input.name, description: input.description ?? null, type: input.type, all_gyms_access: input.all_gyms_access, ...flags }))
    .returning();
  await writeGymsAndHours(t, o.id, gymIds, hoursOf(input), false);
  await writePrices(t, o, input.prices, terms);
  return o.id;
}

/** PUT /api/offerings/{id}: details, gyms and hours as sent; prices sent with it are created (no id) or changed. */
export async function updateOffering(t: Tenant, user: CurrentUser, id: number, input: OfferingInput) {
  const current = await findOffering(t, id);
  const terms = await organisationTerms(t);
  assertOfferingsOn(terms);
  assertTypeAllowed(terms, input.type, current.type);
  const currentGyms = await offeringGymIds(t, id);
  assertMayChangeOffering(user, { ...current, gymIds: currentGyms });
  const gymIds = input.all_gyms_access ? [] : await ownGyms(t, input.gyms);
  const flags = flagsFor(user, input, current);
  // A gym admin may not widen an offering beyond their gyms, nor change hours or prices the organisation set.
  assertMayChangeOffering(user, { ...flags, all_gyms_access: input.all_gyms_access, gymIds });
  const hours = hoursOf(input);
  if (await hoursChanged(t, id, hours)) assertMayChangeOffering(user, { ...current, gymIds: currentGyms }, "hours");
  if (input.prices.length) assertMayChangeOffering(user, { ...current, gymIds: currentGyms }, "prices");
  const [o] = await t.db
    .update(offerings)
    .set({ name: input.name, description: input.description ?? null, type: input.type, all_gyms_access: input.all_gyms_access, ...flags, updated_at: new Date() })
    .where(t.where(offerings, eq(offerings.id, id)))
    .returning();
  await writeGymsAndHours(t, id, gymIds, hours, true);
  await writePrices(t, o, input.prices, terms);
  return id;
}

async function hoursChanged(t: Tenant, offeringId: number, hours: OfferingInput["hours"]) {
  const now = await t.db.select().from(offering_hours).where(t.where(offering_hours, eq(offering_hours.offering_id, offeringId)));
  const key = (h: { day: number; open_at: string; close_at: string }) => `${h.day} ${h.open_at.slice(0, 5)} ${h.close_at.slice(0, 5)}`;
  return now.map(key).sort().join("|") !== hours.map(key).sort().join("|");
}

async function writeGymsAndHours(t: Tenant, offeringId: number, gymIds: number[], hours: OfferingInput["hours"], replace: boolean) {
  if (replace) {
    await t.db.delete(offering_gyms).where(t.where(offering_gyms, eq(offering_gyms.offering_id, offeringId)));
    await t.db.delete(offering_hours).where(t.where(offering_hours, eq(offering_hours.offering_id, offeringId)));
  }
  if (gymIds.length) await t.db.insert(offering_gyms).values(gymIds.map((gym_id) => t.owned({ offering_id: offeringId, gym_id })));
  if (hours.length) await t.db.insert(offering_hours).values(hours.map((h) => t.owned({ offering_id: offeringId, day: h.day, open_at: h.open_at, close_at: h.close_at })));
}

/** The prices of an offering's form: each new one created, each existing one changed; errors keyed as the form names them. */
async function writePrices(t: Tenant, o: OfferingRow, list: PriceInput[], terms: OrganisationTerms) {
  const errors: Record<string, string[]> = {};
  const existingIds = list.flatMap((p) => (p.id ? [p.id] : []));
  const existing = existingIds.length ? await t.db.select().from(prices).where(t.where(prices, inArray(prices.id, existingIds), eq(prices.offering_id, o.id))) : [];
  const members = await membersOnPrices(t, existingIds);
  list.forEach((p, i) => {
    if (p.id && !existing.some((e) => e.id === p.id)) errors[`prices[${i}].id`] = ["This price is not one of this offering's."];
    const row = existing.find((e) => e.id === p.id);
    Object.assign(errors, priceChangeErrors(terms, p, row, members.get(p.id ?? 0) ?? 0, `prices[${i}].`));
  });
  if (Object.keys(errors).length) throw invalid(errors);
  for (const p of list) {
    const row = existing.find((e) => e.id === p.id);
    if (row) await t.db.update(prices).set({ ...priceColumns(p), updated_at: new Date() }).where(t.where(prices, eq(prices.id, row.id)));
    else await t.db.insert(prices).values(t.owned({ offering_id: o.id, ...priceColumns(p) }));
  }
}

const priceColumns = (p: PriceInput) => ({
  amount: p.amount,
  billing_frequency: p.billing_frequency,
  joining_fee: p.joining_fee,
  private: p.private,
  term_amount: p.term_amount ?? null,
  term_unit: p.term_unit ?? null,
});

/**
 * What stops a price being created or changed so: a frequency the organisation has off (archived prices are left
 * out: they are not sold), and, while members pay it, a new amount, frequency or term (SPEC §2: the bulk price
 * change moves members; a price is never changed under them).
 */
function priceChangeErrors(terms: OrganisationTerms, p: PriceInput, row: typeof prices.$inferSelect | undefined, members: number, prefix = "") {
  const errors: Record<string, string[]> = {};
  const archived = Boolean(row?.archived_at);
  if (!archived && (!row || row.billing_frequency !== p.billing_frequency)) Object.assign(errors, frequencyError(terms, p.billing_frequency as BillingFrequency, `${prefix}billing_frequency`));
  if (row && members > 0) {
    if (row.amount !== p.amount) errors[`${prefix}amount`] = [IN_USE.amount];
    if (row.billing_frequency !== p.billing_frequency) errors[`${prefix}billing_frequency`] = [IN_USE.billing_frequency];
    if ((row.term_amount ?? null) !== (p.term_amount ?? null) || (row.term_unit ?? null) !== (p.term_unit ?? null)) errors[`${prefix}term_amount`] = [IN_USE.term];
  }
  return errors;
}

/** POST /api/offerings/{id}/prices. */
export async function createPrice(t: Tenant, user: CurrentUser, offeringId: number, input: PriceInput) {
  const o = await findOffering(t, offeringId);
  assertMayChangeOffering(user, { ...o, gymIds: await offeringGymIds(t, o.id) }, "prices");
  const terms = await organisationTerms(t);
  assertOfferingsOn(terms);
  const errors = priceChangeErrors(terms, input, undefined, 0);
  if (Object.keys(errors).length) throw invalid(errors);
  const [row] = await t.db.insert(prices).values(t.owned({ offering_id: o.id, ...priceColumns(input) })).returning({ id: prices.id });
  return row.id;
}

/** PUT /api/prices/{id}. */
export async function updatePrice(t: Tenant, user: CurrentUser, price: typeof prices.$inferSelect, o: OfferingRow, input: PriceInput) {
  assertMayChangeOffering(user, { ...o, gymIds: await offeringGymIds(t, o.id) }, "prices");
  const terms = await organisationTerms(t);
  assertOfferingsOn(terms);
  const members = (await membersOnPrices(t, [price.id])).get(price.id) ?? 0;
  const errors = priceChangeErrors(terms, input, price, members);
  if (Object.keys(errors).length) throw invalid(errors);
  await t.db.update(prices).set({ ...priceColumns(input), updated_at: new Date() }).where(t.where(prices, eq(prices.id, price.id)));
}

/** A price or offering that members hold or held: it can only be archived (SPEC §4), and the answer says so. */
const inUse = (what: "price" | "offering") =>
  new ApiError(
    409,
    what === "price"
      ? "Members have held this price, so it cannot be deleted. Archive it instead: it stops being sold and its members keep it."
      : "Members have held prices of this offering, so it cannot be deleted. Archive it instead: it stops being sold and its members keep it.",
    `${what}_in_use`,
  );

export async function assertMayChangePrice(t: Tenant, user: CurrentUser, o: OfferingRow) {
  assertMayChangeOffering(user, { ...o, gymIds: await offeringGymIds(t, o.id) }, "prices");
}

export async function setPriceArchived(t: Tenant, priceId: number, archived: boolean, terms?: OrganisationTerms) {
  if (!archived && terms) {
    // Restored, it is sold again: at a frequency the organisation has on.
    const [row] = await t.db.select().from(prices).where(t.where(prices, eq(prices.id, priceId)));
    const err = frequencyError(terms, row.billing_frequency as BillingFrequency, "billing_frequency");
    if (err) throw invalid(err, `This price cannot be restored: ${err.billing_frequency[0].charAt(0).toLowerCase()}${err.billing_frequency[0].slice(1)}`);
  }
  await t.db.update(prices).set({ archived_at: archived ? new Date() : null, updated_at: new Date() }).where(t.where(prices, eq(prices.id, priceId)));
}

/** DELETE /api/prices/{id}: only a price nobody ever held; its links and the sign-ups that named it let go of it. */
export async function deletePrice(t: Tenant, priceId: number) {
  if (await priceHasHistory(t, [priceId])) throw inUse("price");
  await forgetPrices(t, [priceId]);
  await t.db.delete(prices).where(t.where(prices, eq(prices.id, priceId)));
}

async function forgetPrices(t: Tenant, ids: number[]) {
  if (!ids.length) return;
  const links = await t.db.select({ id: private_price_links.id }).from(private_price_links).where(t.where(private_price_links, inArray(private_price_links.price_id, ids)));
  if (links.length) await t.db.update(organisation_users).set({ signup_link_id: null }).where(t.where(organisation_users, inArray(organisation_users.signup_link_id, links.map((l) => l.id))));
  await t.db.update(organisation_users).set({ signup_price_id: null }).where(t.where(organisation_users, inArray(organisation_users.signup_price_id, ids)));
  await t.db.delete(private_price_links).where(t.where(private_price_links, inArray(private_price_links.price_id, ids)));
}

export async function setOfferingArchived(t: Tenant, user: CurrentUser, id: number, archived: boolean) {
  const o = await findOffering(t, id);
  assertMayChangeOffering(user, { ...o, gymIds: await offeringGymIds(t, id) });
  await t.db.update(offerings).set({ archived_at: archived ? new Date() : null, updated_at: new Date() }).where(t.where(offerings, eq(offerings.id, id)));
}

/** DELETE /api/offerings/{id}: only one whose prices nobody ever held; its prices, hours and gyms go with it. */
export async function deleteOffering(t: Tenant, user: CurrentUser, id: number) {
  const o = await findOffering(t, id);
  assertMayChangeOffering(user, { ...o, gymIds: await offeringGymIds(t, id) });
  const ids = (await t.db.select({ id: prices.id }).from(prices).where(t.where(prices, eq(prices.offering_id, id)))).map((p) => p.id);
  if (await priceHasHistory(t, ids)) throw inUse("offering");
  await forgetPrices(t, ids);
  if (ids.length) await t.db.delete(prices).where(t.where(prices, inArray(prices.id, ids)));
  await t.db.delete(offering_hours).where(t.where(offering_hours, eq(offering_hours.offering_id, id)));
  await t.db.delete(offering_gyms).where(t.where(offering_gyms, eq(offering_gyms.offering_id, id)));
  await t.db.update(organisation_users).set({ latest_offering_id: null }).where(and(t.where(organisation_users, eq(organisation_users.latest_offering_id, id)), isNull(organisation_users.latest_subscription_id)));
  await t.db.delete(offerings).where(t.where(offerings, eq(offerings.id, id)));
}
