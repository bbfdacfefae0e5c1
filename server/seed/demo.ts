import type { Db } from "../db/client";
import { organisations } from "../db/schema";

export async function seedDemoIfEmpty(db: Db) {
  const existing = await db.select({ id: organisations.id }).from(organisations).limit(1);
  if (existing.length) return false;
  const { seedDemo } = await import("./demo-data");
  await seedDemo(db);
  return true;
}
