import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { membershipsOf, type Membership } from "../db/memberships";
import { preparedFor } from "../db/prepared";
import { sessions, users } from "../db/schema";
import { randomToken, sha256 } from "./crypto";

/** Sessions end after 8 hours without a request, and 7 days after sign-in whatever happens. */
export const IDLE_MS = 8 * 60 * 60 * 1000;
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_MS = 60 * 1000;

export type SessionRow = typeof sessions.$inferSelect;

/** A new session with a fresh 256-bit id; returns the token for the cookie (only its hash is stored). */
export async function createSession(
  db: Db,
  userId: number,
  opts: { twoFactorPassed: boolean; ip?: string | null; userAgent?: string | null },
  now = new Date(),
): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    id: sha256(token),
    user_id: userId,
    two_factor_passed: opts.twoFactorPassed,
    ip: opts.ip ?? null,
    user_agent: opts.userAgent?.slice(0, 300) ?? null,
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + ABSOLUTE_MS),
  });
  return token;
}

// Every signed-in request reads this: prepared once (server/core/db/prepared.ts). The user's memberships come
// with it, so the request knows who and where the user is after one round trip.
const liveSession = preparedFor((db) =>
  db
    .select({ session: sessions, user: users, memberships: membershipsOf(users.id, users.current_organisation_id) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.id, sql.placeholder("id")),
        gt(sessions.expires_at, sql.placeholder("now")),
        gt(sessions.last_seen_at, sql.placeholder("idleSince")),
        isNull(users.deleted_at),
      ),
    )
    .prepare("live_session"),
);

/** The live session for a cookie token, with its (not deleted) user and the user's memberships, in one query. */
export async function readSession(
  db: Db,
  token: string | undefined,
  now = new Date(),
): Promise<{ session: SessionRow; user: typeof users.$inferSelect; memberships: Membership[] } | null> {
  if (!token || token.length > 100) return null;
  const id = sha256(token);
  const [row] = await liveSession(db).execute({ id, now, idleSince: new Date(now.getTime() - IDLE_MS) });
  if (!row) return null;
  if (now.getTime() - row.session.last_seen_at.getTime() > TOUCH_MS) {
    await db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.id, id));
  }
  return row;
}

export async function markTwoFactorPassed(db: Db, sessionId: string) {
  await db.update(sessions).set({ two_factor_passed: true }).where(eq(sessions.id, sessionId));
}

/** The session becomes a check-in kiosk at this gym (issue 32): until it ends, it answers only the kiosk. */
export async function makeKiosk(db: Db, sessionId: string, gymId: number) {
  await db.update(sessions).set({ kiosk_gym_id: gymId }).where(eq(sessions.id, sessionId));
}

export async function endSession(db: Db, sessionId: string) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function endAllSessions(db: Db, userId: number) {
  await db.delete(sessions).where(eq(sessions.user_id, userId));
}
