import { randomInt } from "node:crypto";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { email_codes } from "../db/schema";
import { hmac, safeEqual } from "./crypto";
import { blockedFor, clear, giveBack, take, type Limit } from "./rate-limit";

/** E-mailed sign-in codes: 6 digits, valid 10 minutes, 5 tries, a new one at most every 30 s. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_AFTER_MS = 30 * 1000;

/**
 * Every password sign-in mails a fresh code with fresh tries, so the tries per code alone do not stop
 * guessing: an account may enter 10 wrong codes an hour across all its codes. Then code entry is locked
 * until that hour's window ends — the right code is refused too, and no new code is mailed.
 */
const codeEntryLimit = (userId: number): Limit => ({ key: `code:account:${userId}`, max: 10, windowMs: 60 * 60 * 1000 });
const lockNoticeKey = (userId: number) => `code:locked-notice:${userId}`;
const codeSendLimit = (userId: number): Limit => ({ key: `code:send:${userId}`, max: 1, windowMs: RESEND_AFTER_MS });

export async function issueCode(db: Db, secret: string, userId: number, now = new Date()): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  // A new code replaces any earlier one.
  await db.update(email_codes).set({ used_at: now }).where(and(eq(email_codes.user_id, userId), isNull(email_codes.used_at)));
  await db.insert(email_codes).values({
    user_id: userId,
    code_hash: hmac(secret, `${userId}:${code}`),
    expires_at: new Date(now.getTime() + CODE_TTL_MS),
    created_at: now,
  });
  return code;
}

/**
 * Counts a code about to be sent; answers the seconds to wait when one was sent less than 30 s ago
 * (0: send it). Atomic, so two quick "send a new code" clicks mail one code. A sign-in always sends and
 * only starts the wait.
 */
export async function sendWait(db: Db, userId: number, now = new Date()): Promise<number> {
  const slot = await take(db, codeSendLimit(userId), now);
  return slot.allowed ? 0 : slot.retryAfter;
}

/** Seconds until code entry for this account opens again (0: open). */
export const codeEntryLockedFor = (db: Db, userId: number, now = new Date()) => blockedFor(db, codeEntryLimit(userId), now);

/** Ends a lock early (a password reset) and forgets its wrong codes; a later lock is mailed about again. */
export async function endCodeEntryLock(db: Db, userId: number) {
  await clear(db, codeEntryLimit(userId).key);
  await clear(db, lockNoticeKey(userId));
}

export type CodeCheck =
  | { result: "ok" | "wrong" | "expired" | "too_many_attempts" }
  /** `notify`: this request is the first to meet this lock, so the person should be told (once per lock). */
  | { result: "locked"; retryAfter: number; until: Date; notify: boolean };

export async function checkCode(db: Db, secret: string, userId: number, code: string, now = new Date()): Promise<CodeCheck> {
  // Counted before the code is compared, so parallel guesses cannot all slip under the cap.
  const limit = codeEntryLimit(userId);
  const entry = await take(db, limit, now);
  const locked = async (): Promise<CodeCheck> => {
    const notify = await firstToMeetLock(db, userId, entry.resetAt, now);
    return { result: "locked", retryAfter: entry.retryAfter, until: entry.resetAt, notify };
  };
  if (!entry.allowed) return locked();

  const outcome = await tryLatestCode(db, secret, userId, code, now);
  // Only a wrong code counts against the account.
  if (outcome !== "wrong" && outcome !== "wrong_last") {
    await giveBack(db, limit.key);
    return { result: outcome === "spent" ? "too_many_attempts" : outcome };
  }
  if (entry.count >= limit.max) return locked();
  return { result: outcome === "wrong" ? "wrong" : "too_many_attempts" };
}

/** Compares `code` with the account's live code, spending one of its tries atomically. */
async function tryLatestCode(db: Db, secret: string, userId: number, code: string, now: Date) {
  const [row] = await db
    .select()
    .from(email_codes)
    .where(and(eq(email_codes.user_id, userId), isNull(email_codes.used_at)))
    .orderBy(desc(email_codes.created_at))
    .limit(1);
  if (!row || row.expires_at <= now) return "expired";
  const [tried] = await db
    .update(email_codes)
    .set({ attempts: sql`${email_codes.attempts} + 1` })
    .where(and(eq(email_codes.id, row.id), isNull(email_codes.used_at), lt(email_codes.attempts, CODE_MAX_ATTEMPTS)))
    .returning({ attempts: email_codes.attempts });
  if (!tried) return "spent";
  if (safeEqual(row.code_hash, hmac(secret, `${userId}:${code}`))) {
    // Used once: of two requests racing with the right code, one wins.
    const [used] = await db
      .update(email_codes)
      .set({ used_at: now })
      .where(and(eq(email_codes.id, row.id), isNull(email_codes.used_at)))
      .returning({ id: email_codes.id });
    return used ? "ok" : "expired";
  }
  return tried.attempts >= CODE_MAX_ATTEMPTS ? "wrong_last" : "wrong";
}

/** True for exactly one caller per lock: a counter of its own that lives as long as the lock. */
async function firstToMeetLock(db: Db, userId: number, until: Date, now: Date) {
  const notice = await take(db, { key: lockNoticeKey(userId), max: 1, windowMs: until.getTime() - now.getTime() }, now);
  return notice.count === 1;
}
