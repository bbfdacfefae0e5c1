import { sql } from "drizzle-orm";
import type { Db } from "../core/db/client";
import { organisations } from "../core/db/schema";

/** Seeds the demo into an empty database (first start of `npm start`). */
export async function seedDemoIfEmpty(db: Db) {
  const existing = await db.select({ id: organisations.id }).from(organisations).limit(1);
  if (existing.length) return false;
  const { seedDemo } = await import("./demo-data");
  await seedDemo(db);
  // Fresh planner statistics: PGlite has no autovacuum to gather them, and without them it picks poor plans.
  await db.execute(sql`analyze`);
  return true;
}
