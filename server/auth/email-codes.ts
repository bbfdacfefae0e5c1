import { randomInt } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { email_codes } from "../db/schema";
import { hmac, safeEqual } from "./crypto";

/** E-mailed sign-in codes: 6 digits, valid 10 minutes, 5 tries, a new one at most every 30 s. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_AFTER_MS = 30 * 1000;

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

/** Seconds until another code may be sent (0 when one may be sent now). */
export async function resendWait(db: Db, userId: number, now = new Date()): Promise<number> {
  const [last] = await db
    .select({ created_at: email_codes.created_at })
    .from(email_codes)
    .where(eq(email_codes.user_id, userId))
    .orderBy(desc(email_codes.created_at))
    .limit(1);
  if (!last) return 0;
  const wait = last.created_at.getTime() + RESEND_AFTER_MS - now.getTime();
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

export type CodeCheck = "ok" | "wrong" | "expired" | "too_many_attempts";

export async function checkCode(db: Db, secret: string, userId: number, code: string, now = new Date()): Promise<CodeCheck> {
  const [row] = await db
    .select()
    .from(email_codes)
    .where(and(eq(email_codes.user_id, userId), isNull(email_codes.used_at)))
    .orderBy(desc(email_codes.created_at))
    .limit(1);
  if (!row || row.expires_at <= now) return "expired";
  if (row.attempts >= CODE_MAX_ATTEMPTS) return "too_many_attempts";
  if (safeEqual(row.code_hash, hmac(secret, `${userId}:${code}`))) {
    await db.update(email_codes).set({ used_at: now }).where(eq(email_codes.id, row.id));
    return "ok";
  }
  const attempts = row.attempts + 1;
  await db.update(email_codes).set({ attempts }).where(eq(email_codes.id, row.id));
  return attempts >= CODE_MAX_ATTEMPTS ? "too_many_attempts" : "wrong";
}
