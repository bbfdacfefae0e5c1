import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sandbox_door_members } from "../../db/schema";
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
