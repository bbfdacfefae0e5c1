import { eq } from "drizzle-orm";
import { gyms } from "./db/schema";
import type { Tenant } from "./db/tenant";
import { notFound } from "./errors";

/** A gym of the request's organisation, or 404: for every resource that acts on one (settings, doors, imports). */
export async function findGym(t: Tenant, id: number) {
  const [g] = await t.db
    .select()
    .from(gyms)
    .where(t.where(gyms, eq(gyms.id, id)));
  if (!g) throw notFound("No such gym.");
  return g;
}
