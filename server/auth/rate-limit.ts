import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rate_limits } from "../db/schema";

/** Fixed-window counters kept in the database, so they hold across processes and restarts. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/** Seconds until `key` may be tried again, or 0 when it is under its limit. */
export async function blockedFor(db: Db, limit: Limit, now = new Date()): Promise<number> {
  const [row] = await db.select().from(rate_limits).where(eq(rate_limits.key, limit.key));
  if (!row || row.reset_at <= now || row.count < limit.max) return 0;
  return Math.ceil((row.reset_at.getTime() - now.getTime()) / 1000);
}

/** Counts one attempt against `key`, starting a new window when the old one has ended. */
export async function hit(db: Db, limit: Limit, now = new Date()): Promise<number> {
  const resetAt = new Date(now.getTime() + limit.windowMs);
  const [row] = await db
    .insert(rate_limits)
    .values({ key: limit.key, count: 1, reset_at: resetAt })
    .onConflictDoUpdate({
      target: rate_limits.key,
      set: {
        count: sql`case when ${rate_limits.reset_at} <= ${now.toISOString()}::timestamptz then 1 else ${rate_limits.count} + 1 end`,
        reset_at: sql`case when ${rate_limits.reset_at} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rate_limits.reset_at} end`,
      },
    })
    .returning({ count: rate_limits.count });
  return row.count;
}

export async function clear(db: Db, key: string) {
  await db.delete(rate_limits).where(eq(rate_limits.key, key));
}

/** "12 minutes", "30 seconds": how long a person must wait, in words. */
export function waitInWords(seconds: number) {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
