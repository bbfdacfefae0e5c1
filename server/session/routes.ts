import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { and, eq, isNull, sql } from "drizzle-orm";
import { forgotPasswordSchema, loginSchema, setPasswordSchema, twoFactorSchema, validateLinkSchema } from "../../domain/schemas/auth";
import { checkCode, codeEntryLockedFor, endCodeEntryLock, sendWait } from "../core/auth/email-codes";
import { hashPassword, isCommonPassword, verifyPassword } from "../core/auth/password";
import { claimLink, createLink, endLinks, findLink } from "../core/auth/password-links";
import { clear, giveBack, take, waitInWords, type Limit } from "../core/auth/rate-limit";
import { createSession, endAllSessions, endSession, markTwoFactorPassed } from "../core/auth/sessions";
import { addDevice, signDevice, TRUSTED_DEVICE_COOKIE, TRUSTED_DEVICE_MS } from "../core/auth/trusted-device";
import { organisation_users, users } from "../core/db/schema";
import { codeEntryLockedMail, resetPasswordMail } from "../core/mail/templates";
import type { ApiEnv } from "../core/context";
import { ApiError, invalid, tooMany } from "../core/errors";
import { readBody } from "../core/body";
import { isSignupHost, publicOrigin } from "../core/links";
import { clearSessionCookie, clientIp, now, requireSession, requireVerified, secureCookies, setSessionCookie } from "../core/middleware";
import { mePayload } from "./me";
import { signInLinkRoutes } from "./sign-in-links";
import { kioskRoutes } from "./kiosk";
import { active, codeEntryLocked, COMMON_PASSWORD, mailCode, passwordStamp, placesOf, startSession } from "./start";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** The links that lead to setting a password (a handoff or a member's sign-in link never does). */
const PASSWORD_LINKS: readonly string[] = ["reset", "invite"];
/** Five wrong passwords lock an account for 15 minutes; an address gets 20 across all accounts. */
const accountLimit = (email: string): Limit => ({ key: `login:account:${email}`, max: 5, windowMs: FIFTEEN_MINUTES });
const ipLimit = (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 20, windowMs: FIFTEEN_MINUTES });
const forgotLimit = (ip: string): Limit => ({ key: `forgot:ip:${ip}`, max: 10, windowMs: 60 * 60 * 1000 });
const forgotPerEmail = (email: string): Limit => ({ key: `forgot:email:${email}`, max: 3, windowMs: 60 * 60 * 1000 });

export const sessionRoutes = new Hono<ApiEnv>()
  .route("/", signInLinkRoutes)
  .route("/", kioskRoutes)
  .get("/me", requireVerified, async (c) => c.json({ data: { ...mePayload(c.var.user!), kiosk: Boolean(c.var.session!.kiosk_gym_id) } }))

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
    if (!user.email_verified_at)
      await db
        .update(users)
        .set({ email_verified_at: now(c) })
        .where(eq(users.id, user.id));
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
    const [user] = await db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deleted_at)));
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
    if (!link || !PASSWORD_LINKS.includes(link.purpose))
      throw new ApiError(422, "This link has expired or was already used. Ask for a new one.", "invalid_link");
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
    if (!seen || !PASSWORD_LINKS.includes(seen.purpose)) throw expired();
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
