import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { password_links } from "../db/schema";
import { randomToken, sha256 } from "./crypto";

/**
 * Single-use links. Reset links last an hour; invite links a week; a handoff (a signed-in member moved
 * from the back-office host to the sign-up host, whose cookies are separate) one minute.
 */
export const LINK_TTL_MS = { reset: 60 * 60 * 1000, invite: 7 * 24 * 60 * 60 * 1000, handoff: 60 * 1000 } as const;
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

export async function useLink(db: Db, id: number, now = new Date()) {
  await db.update(password_links).set({ used_at: now }).where(eq(password_links.id, id));
}
