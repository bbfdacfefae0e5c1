import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rate_limits } from "../db/schema";

/** Fixed-window counters kept in the database, so they hold across processes and restarts. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

export interface Taken {
  /** Attempts in this window, this one included. */
  count: number;
  /** Whether this attempt is within the limit. */
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
  resetAt: Date;
}

/**
 * An ended window counts as no row at all (`take` starts again at 1, `blockedFor` says 0), so its row is only
 * clutter: every SWEEP_EVERY-th attempt a process counts also deletes the ended ones. The table then holds the
 * windows still running, however many addresses come and go.
 */
export const SWEEP_EVERY = 500;
let taken = 0;

export async function sweepEnded(db: Db, now = new Date()) {
  await db.delete(rate_limits).where(lte(rate_limits.reset_at, now));
}

/**
 * Counts one attempt against `limit` and says whether it may go ahead, in one statement
 * (INSERT … ON CONFLICT … DO UPDATE … RETURNING): parallel attempts each get their own count, so no more
 * than `max` of them pass, however many arrive at once. Count first, then do the guarded work; a window that
 * has ended starts again at 1.
 */
export async function take(db: Db, limit: Limit, now = new Date()): Promise<Taken> {
  if (++taken % SWEEP_EVERY === 0) await sweepEnded(db, now);
  const resetAt = new Date(now.getTime() + limit.windowMs);
  const ended = sql`${rate_limits.reset_at} <= ${now.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rate_limits)
    .values({ key: limit.key, count: 1, reset_at: resetAt })
    .onConflictDoUpdate({
      target: rate_limits.key,
      set: {
        count: sql`case when ${ended} then 1 else ${rate_limits.count} + 1 end`,
        reset_at: sql`case when ${ended} then ${resetAt.toISOString()}::timestamptz else ${rate_limits.reset_at} end`,
      },
    })
    .returning({ count: rate_limits.count, reset_at: rate_limits.reset_at });
  return {
    count: row.count,
    allowed: row.count <= limit.max,
    retryAfter: Math.max(1, Math.ceil((row.reset_at.getTime() - now.getTime()) / 1000)),
    resetAt: row.reset_at,
  };
}

/** Takes back an attempt counted by `take` that turned out not to count (a right code, a sign-up refused). */
export async function giveBack(db: Db, key: string) {
  await db
    .update(rate_limits)
    .set({ count: sql`${rate_limits.count} - 1` })
    .where(and(eq(rate_limits.key, key), gt(rate_limits.count, 0)));
}

/** Seconds until `key` may be tried again, or 0 when it is under its limit. Reads only: to tell, not to guard. */
export async function blockedFor(db: Db, limit: Limit, now = new Date()): Promise<number> {
  const [row] = await db.select().from(rate_limits).where(eq(rate_limits.key, limit.key));
  if (!row || row.reset_at <= now || row.count < limit.max) return 0;
  return Math.ceil((row.reset_at.getTime() - now.getTime()) / 1000);
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
