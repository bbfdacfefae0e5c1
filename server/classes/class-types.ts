import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { ClassTypeInput } from "../../domain/schemas/class-types";
import { invalid, notFound } from "../core/errors";
import { class_type_inclusions, class_types, offerings, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Class types (issue 34): the organisation's kinds of class, each with its usual length, places, waitlist and colour,
 * which memberships include it (every price of an offering, or one price) and a drop-in price. Archived, never deleted:
 * classes on the timetable point at them.
 */
type TypeRow = typeof class_types.$inferSelect;

async function inclusionsOf(t: Tenant, typeIds: number[]) {
  if (!typeIds.length)
    return new Map<
      number,
      { offerings: { id: number; name: string }[]; prices: { id: number; offering: string; amount: number; billing_frequency: string }[] }
    >();
  const rows = await t.db
    .select({
      class_type_id: class_type_inclusions.class_type_id,
      offering_id: class_type_inclusions.offering_id,
      price_id: class_type_inclusions.price_id,
      offering: offerings.name,
      amount: prices.amount,
      billing_frequency: prices.billing_frequency,
    })
    .from(class_type_inclusions)
    .leftJoin(prices, eq(prices.id, class_type_inclusions.price_id))
    .innerJoin(offerings, sql`${offerings.id} = coalesce(${class_type_inclusions.offering_id}, ${prices.offering_id})`)
    .where(t.where(class_type_inclusions, inArray(class_type_inclusions.class_type_id, typeIds)))
    .orderBy(asc(offerings.name), asc(prices.amount));
  const out = new Map<
    number,
    { offerings: { id: number; name: string }[]; prices: { id: number; offering: string; amount: number; billing_frequency: string }[] }
  >();
  for (const r of rows) {
    const entry = out.get(r.class_type_id) ?? { offerings: [], prices: [] };
    if (r.offering_id) entry.offerings.push({ id: r.offering_id, name: r.offering });
    else if (r.price_id) entry.prices.push({ id: r.price_id, offering: r.offering, amount: r.amount!, billing_frequency: r.billing_frequency! });
    out.set(r.class_type_id, entry);
  }
  return out;
}

const present = (row: TypeRow, inc: Awaited<ReturnType<typeof inclusionsOf>>) => {
  const i = inc.get(row.id) ?? { offerings: [], prices: [] };
  return { ...row, archived: row.archived_at !== null, included_in: i, offering_ids: i.offerings.map((o) => o.id), price_ids: i.prices.map((p) => p.id) };
};
export type ClassType = ReturnType<typeof present>;

export async function listClassTypes(t: Tenant, q: { archived?: "0" | "1" } = {}) {
  const rows = await t.db
    .select()
    .from(class_types)
    .where(t.where(class_types, q.archived === "1" ? undefined : isNull(class_types.archived_at)))
    .orderBy(asc(sql`lower(${class_types.name})`), asc(class_types.id));
  const inc = await inclusionsOf(
    t,
    rows.map((r) => r.id),
  );
  return rows.map((r) => present(r, inc));
}

export async function findClassType(t: Tenant, id: number) {
  const [row] = await t.db
    .select()
    .from(class_types)
    .where(t.where(class_types, eq(class_types.id, id)));
  if (!row) throw notFound("No such class type.");
  return present(row, await inclusionsOf(t, [id]));
}

/** A live type of this organisation, for the timetable's forms (422 naming the field, not 404: it is a choice). */
export async function liveClassType(t: Tenant, id: number) {
  const [row] = await t.db
    .select()
    .from(class_types)
    .where(t.where(class_types, eq(class_types.id, id), isNull(class_types.archived_at)));
  if (!row) throw invalid({ class_type_id: ["Choose a class type from the list"] });
  return row;
}

/** What the form offers: the organisation's live offerings with their live prices. */
export async function inclusionChoices(t: Tenant) {
  const rows = await t.db
    .select({ offering_id: offerings.id, offering: offerings.name, price_id: prices.id, amount: prices.amount, billing_frequency: prices.billing_frequency })
    .from(offerings)
    .leftJoin(prices, and(eq(prices.offering_id, offerings.id), isNull(prices.archived_at)))
    .where(t.where(offerings, isNull(offerings.archived_at)))
    .orderBy(asc(offerings.name), asc(offerings.id), asc(prices.amount));
  const out: { id: number; name: string; prices: { id: number; amount: number; billing_frequency: string }[] }[] = [];
  for (const r of rows) {
    let o = out.find((x) => x.id === r.offering_id);
    if (!o) out.push((o = { id: r.offering_id, name: r.offering, prices: [] }));
    if (r.price_id) o.prices.push({ id: r.price_id, amount: r.amount!, billing_frequency: r.billing_frequency! });
  }
  return out;
}

/** The offerings and prices named must be this organisation's (a price of an offering included whole is left out: the offering covers it). */
async function checkedInclusions(t: Tenant, input: ClassTypeInput) {
  const found = input.offering_ids.length
    ? await t.db
        .select({ id: offerings.id })
        .from(offerings)
        .where(t.where(offerings, inArray(offerings.id, input.offering_ids)))
    : [];
  if (found.length !== input.offering_ids.length) throw invalid({ offering_ids: ["Choose offerings from the list"] });
  const priced = input.price_ids.length
    ? await t.db
        .select({ id: prices.id, offering_id: prices.offering_id })
        .from(prices)
        .where(t.where(prices, inArray(prices.id, input.price_ids)))
    : [];
  if (priced.length !== input.price_ids.length) throw invalid({ price_ids: ["Choose prices from the list"] });
  return { offeringIds: input.offering_ids, priceIds: priced.filter((p) => !input.offering_ids.includes(p.offering_id)).map((p) => p.id) };
}

async function nameTaken(t: Tenant, name: string, except?: number) {
  const [row] = await t.db
    .select({ id: class_types.id })
    .from(class_types)
    .where(
      t.where(
        class_types,
        sql`lower(${class_types.name}) = lower(${name})`,
        isNull(class_types.archived_at),
        except ? sql`${class_types.id} <> ${except}` : undefined,
      ),
    );
  return Boolean(row);
}

async function writeInclusions(t: Tenant, typeId: number, inc: { offeringIds: number[]; priceIds: number[] }) {
  await t.db.delete(class_type_inclusions).where(t.where(class_type_inclusions, eq(class_type_inclusions.class_type_id, typeId)));
  const rows = [
    ...inc.offeringIds.map((offering_id) => ({ offering_id, price_id: null })),
    ...inc.priceIds.map((price_id) => ({ offering_id: null, price_id })),
  ];
  if (rows.length) await t.db.insert(class_type_inclusions).values(rows.map((r) => t.owned({ class_type_id: typeId, ...r })));
}

const fields = (input: ClassTypeInput) => ({
  name: input.name,
  description: input.description ?? null,
  duration_minutes: input.duration_minutes,
  default_capacity: input.default_capacity,
  default_waitlist: input.default_waitlist,
  colour: input.colour,
  drop_in_amount: input.drop_in_amount,
});

export async function createClassType(t: Tenant, input: ClassTypeInput, now: Date) {
  if (await nameTaken(t, input.name)) throw invalid({ name: ["A class type with this name already exists"] });
  const inc = await checkedInclusions(t, input);
  const [made] = await t.db
    .insert(class_types)
    .values(t.owned({ ...fields(input), created_at: now, updated_at: now }))
    .returning({ id: class_types.id });
  await writeInclusions(t, made.id, inc);
  return findClassType(t, made.id);
}

/** Changes the type for classes scheduled from now on; classes already on the timetable keep their own length and places. */
export async function updateClassType(t: Tenant, id: number, input: ClassTypeInput, now: Date) {
  const was = await findClassType(t, id);
  if (was.archived) throw invalid({ _: ["This class type is archived: restore it first"] });
  if (await nameTaken(t, input.name, id)) throw invalid({ name: ["A class type with this name already exists"] });
  const inc = await checkedInclusions(t, input);
  await t.db
    .update(class_types)
    .set({ ...fields(input), updated_at: now })
    .where(t.where(class_types, eq(class_types.id, id)));
  await writeInclusions(t, id, inc);
  return findClassType(t, id);
}

/** Archived: no new classes of it; classes already on the timetable run as scheduled. Restoring needs its name free. */
export async function setClassTypeArchived(t: Tenant, id: number, archived: boolean, now: Date) {
  const was = await findClassType(t, id);
  if (!archived && was.archived && (await nameTaken(t, was.name, id)))
    throw invalid({ name: ["A class type with this name already exists: rename that one first"] });
  await t.db
    .update(class_types)
    .set({ archived_at: archived ? was.archived_at ?? now : null, updated_at: now })
    .where(t.where(class_types, eq(class_types.id, id), archived ? undefined : isNotNull(class_types.archived_at)));
  return findClassType(t, id);
}
