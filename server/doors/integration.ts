import { and, asc, eq, inArray } from "drizzle-orm";
import { ApiError, invalid, notFound } from "../core/errors";
import { openSecret, sealSecret } from "../core/crypto/secrets";
import { access_control_doors, access_control_integrations, access_control_places, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { DoorProvider } from "../core/providers/doors/door-provider";
import { kisiDoors } from "../core/providers/doors/kisi-live";
import { ProviderError } from "../core/providers/errors";

/**
 * The organisation's door system (issue 15; SPEC §7 Access control): connected once for the organisation, each gym
 * linked to one of its places, and each door of that place counting visits or not. Our rows mirror what the door
 * system holds (places and locks are its), kept in step whenever they are listed.
 */
export type Integration = typeof access_control_integrations.$inferSelect;

export async function integrationOf(t: Tenant): Promise<Integration | null> {
  const [row] = await t.db.select().from(access_control_integrations).where(t.where(access_control_integrations));
  return row ?? null;
}

/** The door system to call: the organisation's own Kisi account when it gave a key, else the server's (sandbox by default). */
export function doorSystemOf(integration: Integration | null, fallback: DoorProvider): DoorProvider {
  const key = integration?.api_key ? openSecret(integration.api_key) : null;
  return key ? kisiDoors({ apiKey: key }) : fallback;
}

/** Calls the door system, its failure a 503 with what it said. */
export async function askDoors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProviderError) throw new ApiError(503, `The door system did not answer: ${err.message}`, "door_system_unavailable");
    throw err;
  }
}

async function connected(t: Tenant) {
  const found = await integrationOf(t);
  if (!found) throw new ApiError(409, "Connect the door system first.", "door_system_not_connected");
  return found;
}

/** The SPEC §3 shape: the integration, and each door as a door integration with its gym. */
export async function integrationView(t: Tenant, mode: string) {
  const found = await integrationOf(t);
  const doors = await t.db
    .select({ id: access_control_doors.id, name: access_control_doors.name, door_id: access_control_doors.door_id, tracks_visits: access_control_doors.tracks_visits, gym_id: access_control_doors.gym_id, place_id: access_control_places.place_id })
    .from(access_control_doors)
    .innerJoin(access_control_places, eq(access_control_places.id, access_control_doors.place_row_id))
    .where(t.where(access_control_doors))
    .orderBy(asc(access_control_doors.gym_id), asc(access_control_doors.name));
  return {
    id: found?.id ?? null,
    integration_type: found?.integration_type ?? null,
    connected: Boolean(found),
    own_account: Boolean(found?.api_key),
    mode: found?.api_key ? "live" : mode,
    doors: doors.map((d) => ({ id: d.id, integration_type: "kisi" as const, gym_id: d.gym_id, place_id: d.place_id, integration: { id: d.id, name: d.name, door_id: d.door_id, tracks_visits: d.tracks_visits } })),
  };
}

/** POST …/access-control/integration { integration_type, api_key? }: connected (a key checked by listing its places). */
export async function connectDoorSystem(t: Tenant, fallback: DoorProvider, given: { integration_type: "kisi"; api_key?: string }) {
  const sealed = given.api_key ? sealSecret(given.api_key) : null;
  if (given.api_key) await askDoors(() => kisiDoors({ apiKey: given.api_key! }).places(t.organisationId));
  else if (fallback.mode === "unconfigured") throw invalid({ api_key: ["Enter your Kisi account's API key"] });
  await t.db
    .insert(access_control_integrations)
    .values(t.owned({ integration_type: given.integration_type, api_key: sealed }))
    .onConflictDoUpdate({ target: access_control_integrations.organisation_id, set: { integration_type: given.integration_type, api_key: sealed } });
}

/** POST …/access-control/integration { id, tracks_visits }: whether opening this door counts as a visit. */
export async function setDoorTracksVisits(t: Tenant, doorId: number, tracks: boolean) {
  const [door] = await t.db.update(access_control_doors).set({ tracks_visits: tracks }).where(t.where(access_control_doors, eq(access_control_doors.id, doorId))).returning();
  if (!door) throw notFound("No such door.");
  return door;
}

export async function doorGym(t: Tenant, doorId: number) {
  const [door] = await t.db.select({ gym_id: access_control_doors.gym_id }).from(access_control_doors).where(t.where(access_control_doors, eq(access_control_doors.id, doorId)));
  if (!door) throw notFound("No such door.");
  return door.gym_id;
}

/** The gym a door system's place is linked to, or null (not linked: the organisation's, for its admins only). */
export async function placeGym(t: Tenant, placeId: string): Promise<number | null> {
  const [place] = await t.db.select({ gym_id: access_control_places.gym_id }).from(access_control_places).where(t.where(access_control_places, eq(access_control_places.place_id, placeId)));
  return place?.gym_id ?? null;
}

/** GET …/access-control/places: the door system's places, each with the gym it is linked to. */
export async function listPlaces(t: Tenant, doors: DoorProvider) {
  await connected(t);
  const places = await askDoors(() => doors.places(t.organisationId));
  const links = await t.db
    .select({ id: access_control_places.id, place_id: access_control_places.place_id, gym_id: access_control_places.gym_id, gym: gyms.name })
    .from(access_control_places)
    .innerJoin(gyms, eq(gyms.id, access_control_places.gym_id))
    .where(t.where(access_control_places));
  return places.map((p) => {
    const link = links.find((l) => l.place_id === p.id);
    // SPEC §3 Place: our row's id once it is linked to a gym (null before), its name and the door system's id.
    return { id: link?.id ?? null, place_id: p.id, name: p.name, gym_id: link?.gym_id ?? null, gym: link?.gym ?? null };
  });
}

/** Our copy of a place's doors brought in step with the door system's locks (new ones added, gone ones dropped). */
async function syncDoors(t: Tenant, doors: DoorProvider, place: typeof access_control_places.$inferSelect) {
  const locks = await askDoors(() => doors.locks(t.organisationId, place.place_id));
  const held = await t.db.select().from(access_control_doors).where(t.where(access_control_doors, eq(access_control_doors.place_row_id, place.id)));
  const gone = held.filter((d) => !locks.some((l) => l.id === d.door_id)).map((d) => d.id);
  if (gone.length) await t.db.delete(access_control_doors).where(t.where(access_control_doors, inArray(access_control_doors.id, gone)));
  for (const lock of locks) {
    const mine = held.find((d) => d.door_id === lock.id);
    if (mine) {
      if (mine.name !== lock.name) await t.db.update(access_control_doors).set({ name: lock.name }).where(t.where(access_control_doors, eq(access_control_doors.id, mine.id)));
    } else {
      await t.db.insert(access_control_doors).values(t.owned({ place_row_id: place.id, gym_id: place.gym_id, door_id: lock.id, name: lock.name }));
    }
  }
}

/** POST /api/gyms/{id}/access-control/places { place_id }: the gym's place (one each), its doors brought in. */
export async function linkPlace(t: Tenant, doors: DoorProvider, gymId: number, placeId: string) {
  await connected(t);
  const place = (await askDoors(() => doors.places(t.organisationId))).find((p) => p.id === placeId);
  if (!place) throw invalid({ place_id: ["Choose one of the door system's places"] });
  const [taken] = await t.db
    .select({ gym_id: access_control_places.gym_id, gym: gyms.name })
    .from(access_control_places)
    .innerJoin(gyms, eq(gyms.id, access_control_places.gym_id))
    .where(t.where(access_control_places, eq(access_control_places.place_id, placeId)));
  if (taken && taken.gym_id !== gymId) throw invalid({ place_id: [`${place.name} is linked to ${taken.gym} already`] });
  // A gym has one place: linking another replaces it (its doors go with it).
  await t.db.delete(access_control_places).where(t.where(access_control_places, eq(access_control_places.gym_id, gymId)));
  const [row] = await t.db.insert(access_control_places).values(t.owned({ gym_id: gymId, place_id: place.id, name: place.name })).returning();
  await syncDoors(t, doors, row);
  return row;
}

/** GET …/places/{placeId}/doors: a linked place's doors, in step with the door system. */
export async function placeDoors(t: Tenant, doors: DoorProvider, placeId: string) {
  await connected(t);
  const [place] = await t.db.select().from(access_control_places).where(t.where(access_control_places, eq(access_control_places.place_id, placeId)));
  if (!place) {
    // A place not linked to a gym yet: its locks as the door system has them, none counting visits.
    const locks = await askDoors(() => doors.locks(t.organisationId, placeId));
    if (!locks.length && !(await askDoors(() => doors.places(t.organisationId))).some((p) => p.id === placeId)) throw notFound("No such place.");
    return locks.map((l) => asDoorIntegration({ id: null, name: l.name, door_id: l.id, tracks_visits: false, gym_id: null }));
  }
  await syncDoors(t, doors, place);
  const held = await t.db
    .select({ id: access_control_doors.id, name: access_control_doors.name, door_id: access_control_doors.door_id, tracks_visits: access_control_doors.tracks_visits, gym_id: access_control_doors.gym_id })
    .from(access_control_doors)
    .where(t.where(access_control_doors, eq(access_control_doors.place_row_id, place.id)))
    .orderBy(asc(access_control_doors.name));
  return held.map(asDoorIntegration);
}

/** The gym's place and doors, for its pages. */
export async function gymDoors(t: Tenant, gymId: number) {
  const [place] = await t.db.select().from(access_control_places).where(t.where(access_control_places, eq(access_control_places.gym_id, gymId)));
  if (!place) return { place: null, doors: [] };
  const doors = await t.db
    .select({ id: access_control_doors.id, name: access_control_doors.name, door_id: access_control_doors.door_id, tracks_visits: access_control_doors.tracks_visits })
    .from(access_control_doors)
    .where(t.where(access_control_doors, and(eq(access_control_doors.place_row_id, place.id))))
    .orderBy(asc(access_control_doors.name));
  return { place: { id: place.id, name: place.name, place_id: place.place_id }, doors: doors.map(asDoorIntegration) };
}

/** A door as SPEC §3's Door integration (id, integration_type, integration), its own fields kept beside it. */
export function asDoorIntegration<D extends { id: number | null; name: string; door_id: string; tracks_visits: boolean }>(d: D) {
  return { ...d, integration_type: "kisi" as const, integration: { id: d.id, name: d.name, door_id: d.door_id, tracks_visits: d.tracks_visits } };
}
