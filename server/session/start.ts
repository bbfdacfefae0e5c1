import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { eq } from "drizzle-orm";
import { sha256 } from "../core/auth/crypto";
import { codeEntryLockedFor, issueCode, sendWait } from "../core/auth/email-codes";
import { waitInWords } from "../core/auth/rate-limit";
import { createSession, endSession } from "../core/auth/sessions";
import { deviceTrusted, TRUSTED_DEVICE_COOKIE } from "../core/auth/trusted-device";
import type { Db } from "../core/db/client";
import { organisation_users, organisations, users } from "../core/db/schema";
import { confirmEmailCodeMail, signInCodeMail } from "../core/mail/templates";
import type { ApiEnv } from "../core/context";
import { tooMany } from "../core/errors";
import { clientIp, now, setSessionCookie } from "../core/middleware";

/** A trusted device's mark is bound to the password it was trusted under: a new password ends the trust. */
export const passwordStamp = (hash: string | null) => sha256(hash ?? "").slice(0, 16);

/** Every organisation the person belongs to or belonged to, with their role there (decision 0048: roles live here). */
export async function placesOf(db: Db, userId: number) {
  // In the order the session picks a current organisation when none is chosen (server/core/db/memberships.ts: by name).
  return db
    .select({
      organisation_id: organisation_users.organisation_id,
      role: organisation_users.role,
      deleted_at: organisation_users.deleted_at,
      deactivated_at: organisation_users.deactivated_at,
    })
    .from(organisation_users)
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .where(eq(organisation_users.user_id, userId))
    .orderBy(organisations.name, organisations.id);
}
export const active = (p: { deleted_at: Date | null; deactivated_at: Date | null }) => !p.deleted_at && !p.deactivated_at;

/**
 * Staff sign in to the back-office: someone who is staff of one organisation and a member of another starts in an
 * organisation where they are staff. Answers whether they are staff anywhere they may sign in to.
 */
async function startWhereStaff(db: Db, user: typeof users.$inferSelect): Promise<boolean> {
  const places = (await placesOf(db, user.id)).filter(active);
  const staffAt = places.filter((p) => p.role !== "member");
  if (!staffAt.length) return false;
  const current = places.find((p) => p.organisation_id === user.current_organisation_id) ?? places[0];
  if (current.role === "member") {
    await db.update(users).set({ current_organisation_id: staffAt[0].organisation_id, current_gym_id: null }).where(eq(users.id, user.id));
  }
  return true;
}

export const COMMON_PASSWORD = "This password is too common. Choose one that is harder to guess.";

export const codeEntryLocked = (seconds: number) =>
  tooMany(`Too many wrong codes. Signing in to this account is paused for ${waitInWords(seconds)}; we have e-mailed you about it.`, seconds);

/** Signs `user` in on a fresh session id; asks for the e-mailed code unless this browser is trusted. */
/** `gymName`: the gym a person has just signed up to, which their first code's e-mail welcomes them to. */
export async function startSession(c: Context<ApiEnv>, user: typeof users.$inferSelect, opts: { gymName?: string } = {}) {
  const { db, config } = c.var.deps;
  const trusted = deviceTrusted(config.SESSION_SECRET, getCookie(c, TRUSTED_DEVICE_COOKIE), user.id, passwordStamp(user.password_hash), now(c));
  if (!trusted) {
    // While code entry is locked a sign-in mails no code: there would be nothing to do with it.
    const locked = await codeEntryLockedFor(db, user.id, now(c));
    if (locked > 0) throw codeEntryLocked(locked);
  }
  if (c.var.session) await endSession(db, c.var.session.id);
  const token = await createSession(db, user.id, { twoFactorPassed: trusted, ip: clientIp(c), userAgent: c.req.header("user-agent") }, now(c));
  setSessionCookie(c, token);
  if (!trusted) {
    await sendWait(db, user.id, now(c)); // a sign-in always sends; this starts the wait before "send a new code"
    await mailCode(c, user, opts.gymName);
  }
  return { two_factor_required: !trusted, is_staff: await startWhereStaff(db, user) };
}

/** A sign-in's code; for an address never confirmed (a new sign-up) the e-mail says so instead. */
export async function mailCode(c: Context<ApiEnv>, user: typeof users.$inferSelect, gymName?: string) {
  const { db, mailer, config } = c.var.deps;
  const code = await issueCode(db, config.SESSION_SECRET, user.id, now(c));
  await mailer.send(user.email_verified_at ? signInCodeMail(user.email, user.name, code) : confirmEmailCodeMail(user.email, user.name, code, gymName));
}
