import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  forgotPasswordSchema,
  loginSchema,
  setPasswordSchema,
  twoFactorSchema,
  validateLinkSchema,
} from "../../domain/schemas/auth";
import { sha256 } from "../core/auth/crypto";
import { checkCode, codeEntryLockedFor, endCodeEntryLock, issueCode, sendWait } from "../core/auth/email-codes";
import { hashPassword, isCommonPassword, verifyPassword } from "../core/auth/password";
import { claimLink, createLink, endLinks, findLink } from "../core/auth/password-links";
import { clear, giveBack, take, waitInWords, type Limit } from "../core/auth/rate-limit";
import { createSession, endAllSessions, endSession, markTwoFactorPassed } from "../core/auth/sessions";
import { addDevice, deviceTrusted, signDevice, TRUSTED_DEVICE_COOKIE, TRUSTED_DEVICE_MS } from "../core/auth/trusted-device";
import { organisation_users, organisations, users } from "../core/db/schema";
import { codeEntryLockedMail, confirmEmailCodeMail, resetPasswordMail, signInCodeMail } from "../core/mail/templates";
import type { ApiEnv } from "../core/context";
import { ApiError, invalid, tooMany } from "../core/errors";
import { readBody } from "../core/body";
import { isSignupHost, publicOrigin } from "../core/links";
import {
  clearSessionCookie,
  clientIp,
  now,
  requireSession,
  requireVerified,
  secureCookies,
  setSessionCookie,
} from "../core/middleware";
import { mePayload } from "./me";
import type { Context } from "hono";
import type { Db } from "../core/db/client";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Five wrong passwords lock an account for 15 minutes; an address gets 20 across all accounts. */
const accountLimit = (email: string): Limit => ({ key: `login:account:${email}`, max: 5, windowMs: FIFTEEN_MINUTES });
const ipLimit = (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 20, windowMs: FIFTEEN_MINUTES });
const forgotLimit = (ip: string): Limit => ({ key: `forgot:ip:${ip}`, max: 10, windowMs: 60 * 60 * 1000 });
const forgotPerEmail = (email: string): Limit => ({ key: `forgot:email:${email}`, max: 3, windowMs: 60 * 60 * 1000 });

const passwordStamp = (hash: string | null) => sha256(hash ?? "").slice(0, 16);

export const sessionRoutes = new Hono<ApiEnv>()
  .get("/me", requireVerified, async (c) => c.json({ data: mePayload(c.var.user!) }))

  .post("/login", async (c) => {
    const { db } = c.var.deps;
    const body = await readBody(c, loginSchema);
    const at = now(c);
    const ip = clientIp(c);
    // Each attempt is counted before its password is checked, in one statement per counter, so parallel
    // guesses cannot all pass a check made before any of them was counted.
    const byIp = await take(db, ipLimit(ip), at);
    if (!byIp.allowed) throw tooMany(`Too many sign-in attempts. Try again in ${waitInWords(byIp.retryAfter)}.`, byIp.retryAfter);
    const byAccount = await take(db, accountLimit(body.email), at);
    if (!byAccount.allowed) {
      // Not checked, so not counted against the address: hammering one locked account must not lock out
      // everyone else behind the same address.
      await giveBack(db, ipLimit(ip).key);
      throw tooMany(`Too many sign-in attempts. Try again in ${waitInWords(byAccount.retryAfter)}.`, byAccount.retryAfter);
    }

    const [user] = await db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${body.email}`, isNull(users.deleted_at)));
    if (!(await verifyPassword(body.password, user?.password_hash))) throw invalid({ email: ["These credentials do not match our records."] });
    // Only wrong passwords count: a right one clears the account's count and takes back its address's.
    await clear(db, accountLimit(body.email).key);
    await giveBack(db, ipLimit(ip).key);
    // Staff switched off or removed everywhere have nowhere to sign in to (issue 15); told only once the password is right.
    const places = await placesOf(db, user.id);
    if (!places.some(active) && places.some((p) => p.role !== "member")) throw forbiddenSignIn();
    return c.json({ data: await startSession(c, user) });
  })

  .post("/logout", async (c) => {
    if (c.var.session) await endSession(c.var.deps.db, c.var.session.id);
    clearSessionCookie(c);
    return c.json({ data: { message: "You have been signed out." } });
  })

  .post("/email/verify", requireSession, async (c) => {
    const { db, config } = c.var.deps;
    const { code } = await readBody(c, twoFactorSchema);
    const user = c.var.user!.row;
    const session = c.var.session!;
    if (session.two_factor_passed) return c.json({ data: { verified: true } });
    const check = await checkCode(db, config.SESSION_SECRET, user.id, code, now(c));
    if (check.result === "locked") {
      if (check.notify) await c.var.deps.mailer.send(codeEntryLockedMail(user.email, user.name, check.until, `${publicOrigin(c)}/forgot-password`));
      throw codeEntryLocked(check.retryAfter);
    }
    const { result } = check;
    if (result === "expired") throw invalid({ code: ["That code has expired. Send a new one."] });
    if (result === "too_many_attempts") throw invalid({ code: ["Too many wrong codes. Send a new one."] });
    if (result === "wrong") throw invalid({ code: ["That code is not right. Check the e-mail and try again."] });
    await markTwoFactorPassed(db, session.id);
    if (!user.email_verified_at) await db.update(users).set({ email_verified_at: now(c) }).where(eq(users.id, user.id));
    const device = signDevice(config.SESSION_SECRET, user.id, passwordStamp(user.password_hash), now(c));
    setCookie(c, TRUSTED_DEVICE_COOKIE, addDevice(getCookie(c, TRUSTED_DEVICE_COOKIE), device, user.id, now(c)), {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: secureCookies(config),
      maxAge: TRUSTED_DEVICE_MS / 1000,
    });
    return c.json({ data: { verified: true } });
  })

  .post("/email/resend", requireSession, async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!.row;
    if (c.var.session!.two_factor_passed) return c.json({ data: { message: "You are already verified." } });
    const locked = await codeEntryLockedFor(db, user.id, now(c));
    if (locked > 0) throw codeEntryLocked(locked);
    const wait = await sendWait(db, user.id, now(c));
    if (wait > 0) throw tooMany(`You can ask for a new code in ${waitInWords(wait)}.`, wait);
    await mailCode(c, user, c.var.user!.gym?.name);
    return c.json({ data: { message: "We sent a new code." } });
  })

  .post("/forgot-password", async (c) => {
    const { db, mailer } = c.var.deps;
    const { email } = await readBody(c, forgotPasswordSchema);
    const at = now(c);
    const ip = clientIp(c);
    const byIp = await take(db, forgotLimit(ip), at);
    if (!byIp.allowed) throw tooMany(`Too many requests. Try again in ${waitInWords(byIp.retryAfter)}.`, byIp.retryAfter);
    // The same answer whether or not the address has an account.
    const answer = c.json({ data: { message: "If that e-mail address has an account, we have sent it a link to reset the password." } });
    const [user] = await db.select().from(users).where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deleted_at)));
    if (!user || !(await take(db, forgotPerEmail(email), at)).allowed) return answer;
    const token = await createLink(db, user.id, "reset", at);
    const url = `${publicOrigin(c, isSignupHost(c) ? "signup" : "backoffice")}/reset-password?token=${token}`;
    await mailer.send(resetPasswordMail(user.email, user.name, url));
    return answer;
  })

  /** A one-minute, single-use token that carries this verified session to the sign-up host. */
  .post("/session/handoff", requireVerified, async (c) => {
    const token = await createLink(c.var.deps.db, c.var.user!.row.id, "handoff", now(c));
    return c.json({ data: { token } });
  })

  /** Redeems a handoff token for a new, already verified session on this host. */
  .post("/session/claim", async (c) => {
    const { db } = c.var.deps;
    const { token } = await readBody(c, validateLinkSchema);
    const at = now(c);
    const link = await claimLink(db, token, ["handoff"], at);
    if (!link) throw new ApiError(422, "This sign-in link has expired. Sign in again.", "invalid_link");
    if (c.var.session) await endSession(db, c.var.session.id);
    const session = await createSession(db, link.user_id, { twoFactorPassed: true, ip: clientIp(c), userAgent: c.req.header("user-agent") }, at);
    setSessionCookie(c, session);
    return c.json({ data: { signed_in: true } });
  })

  .post("/validate-link", async (c) => {
    const { db } = c.var.deps;
    const { token } = await readBody(c, validateLinkSchema);
    const link = await findLink(db, token, now(c));
    if (!link || link.purpose === "handoff") throw new ApiError(422, "This link has expired or was already used. Ask for a new one.", "invalid_link");
    const [user] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, link.user_id));
    return c.json({ data: { valid: true, purpose: link.purpose, name: user.name, email: user.email, needs_name: link.purpose === "invite" && !user.name } });
  })

  .post("/reset-password", async (c) => {
    const { db } = c.var.deps;
    const body = await readBody(c, setPasswordSchema);
    if (await isCommonPassword(body.password)) throw invalid({ password: [COMMON_PASSWORD] });
    const at = now(c);
    const expired = () => new ApiError(422, "This link has expired or was already used. Ask for a new one.", "invalid_link");
    const seen = await findLink(db, body.token, at);
    if (!seen || seen.purpose === "handoff") throw expired();
    const [person] = await db.select({ name: users.name }).from(users).where(eq(users.id, seen.user_id));
    // An invitee whose inviter left the name out gives it now (issue 15).
    if (seen.purpose === "invite" && !person.name && !body.name) throw invalid({ name: ["Value is required"] });
    // The slow hash runs before the link is claimed: the claim and the new password are one short transaction.
    const hash = await hashPassword(body.password);
    await db.transaction(async (tx) => {
      const link = await claimLink(tx, body.token, ["reset", "invite"], at);
      if (!link) throw expired();
      // Setting a password ends every other link still out (a second reset mailed earlier, an invitation).
      await endLinks(tx, link.user_id, at);
      await tx
        .update(users)
        .set({
          password_hash: hash,
          updated_at: at,
          ...(link.purpose === "invite" ? { email_verified_at: at, ...(!person.name && body.name ? { name: body.name } : {}) } : {}),
        })
        .where(eq(users.id, link.user_id));
      // An invitation answered: no longer pending anywhere.
      if (link.purpose === "invite") await tx.update(organisation_users).set({ pending_invite: false }).where(eq(organisation_users.user_id, link.user_id));
      // A new password ends every session, here and on every other device.
      await endAllSessions(tx, link.user_id);
      // and ends a lock on code entry: whoever resets holds the mailbox the codes go to, and the old password is void.
      await endCodeEntryLock(tx, link.user_id);
    });
    clearSessionCookie(c);
    return c.json({ data: { message: "Your password has been set. Sign in with it now." } });
  });

export const SWITCHED_OFF = "Your access has been switched off. Ask your organisation's admin to switch it back on.";
const forbiddenSignIn = () => new ApiError(403, SWITCHED_OFF, "access_switched_off", { email: [SWITCHED_OFF] });

/** Every organisation the person belongs to or belonged to, with their role there (decision 0048: roles live here). */
async function placesOf(db: Db, userId: number) {
  // In the order the session picks a current organisation when none is chosen (server/core/db/memberships.ts: by name).
  return db
    .select({ organisation_id: organisation_users.organisation_id, role: organisation_users.role, deleted_at: organisation_users.deleted_at, deactivated_at: organisation_users.deactivated_at })
    .from(organisation_users)
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .where(eq(organisation_users.user_id, userId))
    .orderBy(organisations.name, organisations.id);
}
const active = (p: { deleted_at: Date | null; deactivated_at: Date | null }) => !p.deleted_at && !p.deactivated_at;

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

const codeEntryLocked = (seconds: number) =>
  tooMany(`Too many wrong codes. Signing in to this account is paused for ${waitInWords(seconds)}; we have e-mailed you about it.`, seconds);

/** Signs `user` in on a fresh session id; asks for the e-mailed code unless this browser is trusted. */
/** `gymName`: the gym a person has just signed up to, which their first code's e-mail welcomes them to. */
export async function startSession(c: Context<ApiEnv>, user: typeof users.$inferSelect, opts: { gymName?: string } = {}) {
  const { db, config } = c.var.deps;
  const trusted = deviceTrusted(
    config.SESSION_SECRET,
    getCookie(c, TRUSTED_DEVICE_COOKIE),
    user.id,
    passwordStamp(user.password_hash),
    now(c),
  );
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
async function mailCode(c: Context<ApiEnv>, user: typeof users.$inferSelect, gymName?: string) {
  const { db, mailer, config } = c.var.deps;
  const code = await issueCode(db, config.SESSION_SECRET, user.id, now(c));
  await mailer.send(
    user.email_verified_at ? signInCodeMail(user.email, user.name, code) : confirmEmailCodeMail(user.email, user.name, code, gymName),
  );
}
