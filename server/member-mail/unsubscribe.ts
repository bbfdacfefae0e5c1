import { eq } from "drizzle-orm";
import { hmac, safeEqual } from "../core/auth/crypto";
import type { Db } from "../core/db/client";
import { users } from "../core/db/schema";

/**
 * A member's unsubscribe link (issue 31): `{user id}.{signature}`, an HMAC under the session secret (SESSION_SECRET, from the environment). It
 * works without signing in, from any mail app, and never runs out (a mail read a year later still unsubscribes);
 * all it can do is turn that member's e-mails off, which they can turn on again from their details page.
 */
const PURPOSE = "unsubscribe";

export function unsubscribeToken(secret: string, userId: number) {
  return `${userId}.${hmac(secret, `${PURPOSE}:${userId}`)}`;
}

/** The member a token names, or null for a token we did not sign. */
export function readUnsubscribeToken(secret: string, token: string): number | null {
  const [id, signature] = token.split(".");
  if (!/^[1-9][0-9]{0,9}$/.test(id ?? "") || !signature) return null;
  const expected = hmac(secret, `${PURPOSE}:${id}`);
  return safeEqual(signature, expected) ? Number(id) : null;
}

/** What the unsubscribe page says before the member confirms: the address, hidden in part, and whether e-mails are on. */
export async function unsubscribeState(db: Db, userId: number) {
  const [u] = await db.select({ email: users.email, on: users.email_notifications }).from(users).where(eq(users.id, userId));
  if (!u) return null;
  const [local, domain] = u.email.split("@");
  return { email: `${local.slice(0, 2)}${"•".repeat(Math.max(1, local.length - 2))}@${domain}`, email_notifications: u.on };
}

export async function unsubscribe(db: Db, userId: number, now: Date) {
  await db.update(users).set({ email_notifications: false, updated_at: now }).where(eq(users.id, userId));
}
