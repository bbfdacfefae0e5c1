import { Hono } from "hono";
import { and, eq, isNull, sql } from "drizzle-orm";
import { signInLinkSchema, validateLinkSchema } from "../../domain/schemas/auth";
import { claimLink, createLink, findLink } from "../core/auth/password-links";
import { take, waitInWords, type Limit } from "../core/auth/rate-limit";
import { createSession, endSession } from "../core/auth/sessions";
import { gyms, organisation_users, users } from "../core/db/schema";
import { signInLinkMail } from "../core/mail/templates";
import type { ApiEnv } from "../core/context";
import type { Db } from "../core/db/client";
import { ApiError, tooMany } from "../core/errors";
import { readBody } from "../core/body";
import { publicOrigin } from "../core/links";
import { clientIp, now, setSessionCookie } from "../core/middleware";
import { active, placesOf } from "./start";

/**
 * A member's e-mailed sign-in link (issue 31): for a person who never set a password (joined at the desk, imported)
 * or forgot it. The link proves the mailbox, as the e-mailed code does, so its session counts as verified.
 *
 * Members only: staff sign in with their password and a code, and a link must not become a way round either. The
 * answer is the same whether or not the address has an account (or is staff's), so it tells nobody who is a member.
 */
const HOUR = 60 * 60 * 1000;
const perIp = (ip: string): Limit => ({ key: `sign-in-link:ip:${ip}`, max: 10, windowMs: HOUR });
const perEmail = (email: string): Limit => ({ key: `sign-in-link:email:${email}`, max: 3, windowMs: HOUR });
export const LINK_SENT = "If that e-mail address belongs to a member, we have sent it a link to sign in. It works once, for 15 minutes.";
const expired = () => new ApiError(422, "This sign-in link has expired or was already used. Ask for a new one.", "invalid_link");

/** The person a link may be sent to: an account, not removed, staff nowhere. */
async function memberByEmail(db: Db, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deleted_at)));
  if (!user) return null;
  const places = (await placesOf(db, user.id)).filter(active);
  if (!places.length || places.some((p) => p.role !== "member")) return null;
  return user;
}

/** The gym the e-mail names: the member's home gym in their current organisation, when there is one. */
async function homeGymName(db: Db, userId: number, organisationId: number | null) {
  if (!organisationId) return undefined;
  const [row] = await db
    .select({ name: gyms.name })
    .from(organisation_users)
    .innerJoin(gyms, eq(gyms.id, organisation_users.home_gym_id))
    .where(and(eq(organisation_users.user_id, userId), eq(organisation_users.organisation_id, organisationId)));
  return row?.name;
}

export const signInLinkRoutes = new Hono<ApiEnv>()
  .post("/login-link", async (c) => {
    const { db, mailer } = c.var.deps;
    const { email } = await readBody(c, signInLinkSchema);
    const at = now(c);
    const byIp = await take(db, perIp(clientIp(c)), at);
    if (!byIp.allowed) throw tooMany(`Too many requests. Try again in ${waitInWords(byIp.retryAfter)}.`, byIp.retryAfter);
    const answer = c.json({ data: { message: LINK_SENT } });
    const member = await memberByEmail(db, email);
    if (!member || !(await take(db, perEmail(email), at)).allowed) return answer;
    const token = await createLink(db, member.id, "sign_in", at);
    const url = `${publicOrigin(c, "signup")}/sign-in/link?${new URLSearchParams({ token })}`;
    await mailer.send(signInLinkMail(member.email, member.name, url, await homeGymName(db, member.id, member.current_organisation_id)));
    return answer;
  })

  /** Whether a link still works, and whose it is: the page shows it before the person uses it. */
  .post("/login-link/check", async (c) => {
    const { db } = c.var.deps;
    const { token } = await readBody(c, validateLinkSchema);
    const link = await findLink(db, token, now(c));
    if (!link || (link.purpose !== "sign_in" && link.purpose !== "join")) throw expired();
    const [user] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, link.user_id));
    return c.json({ data: { valid: true, name: user.name, email: user.email } });
  })

  /** Uses a link (once: claimLink's single UPDATE) for a new, verified session on this host. */
  .post("/login-link/claim", async (c) => {
    const { db } = c.var.deps;
    const { token } = await readBody(c, validateLinkSchema);
    const at = now(c);
    // A walk-in's link to finish joining (issue 32, server/walk-in/join.ts) signs in the same way, for a week.
    const link = await claimLink(db, token, ["sign_in", "join"], at);
    if (!link) throw expired();
    // Made staff since the link was sent: staff sign in with a password and a code.
    const [user] = await db.select().from(users).where(eq(users.id, link.user_id));
    if (!user || user.deleted_at || !(await memberByEmail(db, user.email.toLowerCase()))) throw expired();
    if (c.var.session) await endSession(db, c.var.session.id);
    const session = await createSession(db, user.id, { twoFactorPassed: true, ip: clientIp(c), userAgent: c.req.header("user-agent") }, at);
    // Opening the link proves the address, as the code would.
    if (!user.email_verified_at) await db.update(users).set({ email_verified_at: at }).where(eq(users.id, user.id));
    setSessionCookie(c, session);
    return c.json({ data: { signed_in: true } });
  });
