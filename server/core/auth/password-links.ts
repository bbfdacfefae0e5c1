import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { password_links } from "../db/schema";
import { randomToken, sha256 } from "./crypto";

/**
 * Single-use links. Reset links last an hour; invite links a week; a handoff (a signed-in member moved
 * from the back-office host to the sign-up host, whose cookies are separate) one minute; a member's e-mailed
 * sign-in link (issue 31) fifteen minutes; a walk-in's link to finish joining (issue 32), made at the desk and sent by
 * e-mail or text, a week.
 */
export const LINK_TTL_MS = { reset: 60 * 60 * 1000, invite: 7 * 24 * 60 * 60 * 1000, handoff: 60 * 1000, sign_in: 15 * 60 * 1000, join: 7 * 24 * 60 * 60 * 1000 } as const;
export type LinkPurpose = keyof typeof LINK_TTL_MS;

export async function createLink(db: Db, userId: number, purpose: LinkPurpose, now = new Date()) {
  const token = randomToken();
  await db.insert(password_links).values({
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    expires_at: new Date(now.getTime() + LINK_TTL_MS[purpose]),
    created_at: now,
  });
  return token;
}

export async function findLink(db: Db, token: string, now = new Date()) {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select()
    .from(password_links)
    .where(and(eq(password_links.token_hash, sha256(token)), isNull(password_links.used_at), gt(password_links.expires_at, now)));
  return row ?? null;
}

/**
 * Uses a link: the check and the mark are one UPDATE … WHERE used_at IS NULL, so of any number of simultaneous
 * uses exactly one gets the row back (the others wait on its row lock and then find it used). Nothing slow (a
 * password hash) runs between them: the caller does that before. Null when the link is unknown, used, expired or
 * not one of `purposes`.
 */
export async function claimLink(db: Db, token: string, purposes: readonly LinkPurpose[], now = new Date()) {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .update(password_links)
    .set({ used_at: now })
    .where(and(eq(password_links.token_hash, sha256(token)), isNull(password_links.used_at), gt(password_links.expires_at, now), inArray(password_links.purpose, [...purposes])))
    .returning();
  return row ?? null;
}

/** Ends every link of this person still outstanding (a password set: an older reset or invite link is void). */
export async function endLinks(db: Db, userId: number, now = new Date()) {
  await db.update(password_links).set({ used_at: now }).where(and(eq(password_links.user_id, userId), isNull(password_links.used_at)));
}
