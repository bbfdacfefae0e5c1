import { sql } from "drizzle-orm";
import type { Tenant } from "../core/db/tenant";
import { rowsOf } from "../core/db/values";

/**
 * Who may change a person's own details (decision 0048). An account and what is on it (name, e-mail, mobile, date
 * of birth, address, emergency contact, preferences) belong to the person; every organisation that holds them shows
 * the same. So an organisation writes them only while it is the only one that holds the person (now or in its
 * history: a removed member is still named in the other's records). Otherwise they are the person's to change, and
 * the organisation keeps its own side: notes, tags, home gym, roles.
 *
 * Row-level security hides other organisations' rows from a tenant; the database function answers yes or no and
 * nothing else (drizzle/0038).
 */
export async function heldElsewhere(t: Tenant, userId: number): Promise<boolean> {
  const [row] = rowsOf<{ elsewhere: boolean }>(await t.db.execute(sql`select person_known_elsewhere(${userId}) as elsewhere`));
  return Boolean(row?.elsewhere);
}

export const HELD_ELSEWHERE = "They also belong to another organisation, so only they can change this";
