import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gyms, sandbox_door_locks, sandbox_door_members, sandbox_door_places } from "../../db/schema";
import type { DoorMember, DoorProvider } from "./door-provider";

/** The offline Kisi: its members, by account (one per organisation) and e-mail, with their access switch (`sandbox_door_members`). */
const accountOf = (m: DoorMember) => `org-${m.organisationId}`;

export function sandboxDoors(db: Db): DoorProvider {
  const find = async (m: DoorMember) =>
    (
      await db
        .select()
        .from(sandbox_door_members)
        .where(and(eq(sandbox_door_members.account, accountOf(m)), eq(sql`lower(${sandbox_door_members.email})`, m.email.toLowerCase())))
    )[0] ?? null;
  const asAccess = (row: typeof sandbox_door_members.$inferSelect) => ({ externalId: String(row.id), accessEnabled: row.access_enabled });
  return {
    name: "kisi",
    mode: "sandbox",
    async accessOf(member) {
      const row = await find(member);
      return row ? asAccess(row) : null;
    },
    async places(organisationId) {
      const account = `org-${organisationId}`;
      let rows = await db.select().from(sandbox_door_places).where(eq(sandbox_door_places.account, account)).orderBy(asc(sandbox_door_places.id));
      if (!rows.length) {
        // A new sandbox account comes set up as a gym's Kisi account would be: a place per gym, each with two doors.
        const names = await db.select({ name: gyms.name }).from(gyms).where(eq(gyms.organisation_id, organisationId)).orderBy(asc(gyms.id));
        for (const { name } of names.length ? names : [{ name: "Main building" }]) {
          const [place] = await db.insert(sandbox_door_places).values({ account, name }).returning();
          await db.insert(sandbox_door_locks).values([
            { place_id: place.id, name: "Front door" },
            { place_id: place.id, name: "Staff entrance" },
          ]);
        }
        rows = await db.select().from(sandbox_door_places).where(eq(sandbox_door_places.account, account)).orderBy(asc(sandbox_door_places.id));
      }
      return rows.map((r) => ({ id: String(r.id), name: r.name }));
    },
    async locks(organisationId, placeId) {
      if (!/^\d{1,9}$/.test(placeId)) return [];
      const rows = await db
        .select({ id: sandbox_door_locks.id, name: sandbox_door_locks.name })
        .from(sandbox_door_locks)
        .innerJoin(sandbox_door_places, eq(sandbox_door_places.id, sandbox_door_locks.place_id))
        .where(and(eq(sandbox_door_places.account, `org-${organisationId}`), eq(sandbox_door_places.id, Number(placeId))))
        .orderBy(asc(sandbox_door_locks.id));
      return rows.map((r) => ({ id: String(r.id), name: r.name }));
    },
    async setAccess(member, enabled) {
      const row = await find(member);
      if (!row) {
        if (!enabled) return null;
        const [added] = await db
          .insert(sandbox_door_members)
          .values({ account: accountOf(member), email: member.email, name: member.name, access_enabled: true })
          .onConflictDoNothing()
          .returning();
        return added ? asAccess(added) : asAccess((await find(member))!);
      }
      const [updated] = await db.update(sandbox_door_members).set({ access_enabled: enabled, updated_at: new Date() }).where(eq(sandbox_door_members.id, row.id)).returning();
      return asAccess(updated);
    },
  };
}

/**
 * Someone at a sandbox door (the door system's own test panel, app/routes/sandbox.kisi.places.$placeId.tsx): the
 * door opens for a person the account knows with access on, and stays shut for anyone else, as Kisi decides; either
 * way it makes the event Kisi would send us.
 */
export async function sandboxUnlock(db: Db, lockId: number, email: string, now: Date, organisationId: number) {
  const [lock] = await db
    .select({ id: sandbox_door_locks.id, name: sandbox_door_locks.name, account: sandbox_door_places.account, place_id: sandbox_door_locks.place_id })
    .from(sandbox_door_locks)
    .innerJoin(sandbox_door_places, eq(sandbox_door_places.id, sandbox_door_locks.place_id))
    .where(and(eq(sandbox_door_locks.id, lockId), eq(sandbox_door_places.account, `org-${organisationId}`)));
  if (!lock) return null;
  const [person] = await db
    .select({ access_enabled: sandbox_door_members.access_enabled })
    .from(sandbox_door_members)
    .where(and(eq(sandbox_door_members.account, lock.account), eq(sql`lower(${sandbox_door_members.email})`, email.toLowerCase())));
  const success = Boolean(person?.access_enabled);
  return {
    lock: lock.name,
    placeId: String(lock.place_id),
    event: { id: `evt_sbx_${randomUUID()}`, action: "unlock", object_type: "Lock", object_id: String(lock.id), success, actor_email: email.toLowerCase(), created_at: now.toISOString() },
  };
}

/** A sandbox place and its locks, for the test panel. */
export async function sandboxPlace(db: Db, placeId: number, organisationId: number) {
  const [place] = await db.select().from(sandbox_door_places).where(and(eq(sandbox_door_places.id, placeId), eq(sandbox_door_places.account, `org-${organisationId}`)));
  if (!place) return null;
  const locks = await db.select({ id: sandbox_door_locks.id, name: sandbox_door_locks.name }).from(sandbox_door_locks).where(eq(sandbox_door_locks.place_id, placeId)).orderBy(asc(sandbox_door_locks.id));
  return { id: place.id, name: place.name, locks };
}
