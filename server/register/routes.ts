import { Hono, type Context } from "hono";
import { eq, sql } from "drizzle-orm";
import { registerSchema, uniqueEmailSchema } from "../../domain/schemas/auth";
import { GYM_MESSAGES } from "../../domain/schemas/messages";
import { hashPassword, isCommonPassword } from "../core/auth/password";
import { giveBack, take, waitInWords, type Limit } from "../core/auth/rate-limit";
import { gyms, organisation_users, users } from "../core/db/schema";
import { signupChoice } from "../signup/catalogue";
import type { ApiEnv } from "../core/context";
import { ApiError, invalid, tooMany } from "../core/errors";
import { readBody } from "../core/body";
import { clientIp, now } from "../core/middleware";
import { COMMON_PASSWORD, startSession } from "../session/start";
import { isUniqueViolation } from "../core/db/errors";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

const registerLimit = (ip: string, max: number): Limit => ({ key: `register:ip:${ip}`, max, windowMs: 60 * 60 * 1000 });
// Tight: a person checks an address or two; anything faster is someone listing who has an account (issue 29, L3).
const uniqueLimit = (ip: string): Limit => ({ key: `unique-email:ip:${ip}`, max: 20, windowMs: 10 * 60 * 1000 });
export const EMAIL_TAKEN = "An account with this e-mail address already exists. Sign in instead.";

const emailTaken = async (db: ApiEnv["Variables"]["deps"]["db"], email: string) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
  ).length > 0;

export const registerRoutes = new Hono<ApiEnv>()
  .post("/unique-email", async (c) => {
    const { db } = c.var.deps;
    const ip = clientIp(c);
    const slot = await take(db, uniqueLimit(ip), now(c));
    if (!slot.allowed) throw tooMany(`Too many checks. Try again in ${waitInWords(slot.retryAfter)}.`, slot.retryAfter);
    const { email } = await readBody(c, uniqueEmailSchema);
    return c.json({ data: { unique: !(await emailTaken(db, email)) } });
  })

  /**
   * Public: the sign-up form, which integrators may also post from their own sites. The person joins the gym
   * the form names (`gym`, its uuid: GET /api/public/gyms lists them) as a member of its organisation.
   */
  .post("/register", async (c) => {
    const { db } = c.var.deps;
    const at = now(c);
    const ip = clientIp(c);
    const limit = registerLimit(ip, c.var.deps.config.SIGNUP_LIMIT_PER_HOUR);
    // Counted before anything is checked, so parallel sign-ups cannot all pass; only accounts made keep
    // their count (the limit guards account creation and the mail each one sends): a refused one gives it back.
    const slot = await take(db, limit, at);
    if (!slot.allowed) throw tooMany(`Too many sign-ups from this network. Try again in ${waitInWords(slot.retryAfter)}.`, slot.retryAfter);
    let made: Awaited<ReturnType<typeof createAccount>>;
    try {
      made = await createAccount(c, at);
    } catch (err) {
      await giveBack(db, limit.key);
      throw err;
    }
    const { user, gym } = made;
    const session = await startSession(c, user, { gymName: gym.name });
    return c.json({ data: { id: user.id, name: user.name, email: user.email, ...session } }, 201);
  });

/** Checks the sign-up form and makes the account, or throws the answer for a refused one. */
async function createAccount(c: Context<ApiEnv>, at: Date) {
  const { db } = c.var.deps;
  const body = await readBody(c, registerSchema);
  if (body.website) throw new ApiError(400, "We could not complete the sign-up.", "rejected");

  const errors: Record<string, string[]> = {};
  if (await emailTaken(db, body.email)) errors.email = [EMAIL_TAKEN];
  if (await isCommonPassword(body.password)) errors.password = [COMMON_PASSWORD];
  const [gym] = await db.select({ id: gyms.id, organisation_id: gyms.organisation_id, name: gyms.name }).from(gyms).where(eq(gyms.uuid, body.gym));
  if (!gym) errors.gym = [GYM_MESSAGES.unknown];
  if (Object.keys(errors).length) throw invalid(errors);
  // Read before the account's transaction: PGlite has one connection, which that transaction would hold.
  const choice = await signupChoice(db, gym, { price: body.price, link: body.link });

  const hash = await hashPassword(body.password);
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          name: body.name,
          email: body.email,
          mobile_number: body.mobile_number,
          password_hash: hash,
          current_organisation_id: gym.organisation_id,
          current_gym_id: gym.id,
          created_at: at,
          updated_at: at,
        })
        .returning();
      // A member of the gym's organisation, with it as their home gym: that gym's staff find them.
      await tx.insert(organisation_users).values({
        organisation_id: gym.organisation_id,
        user_id: created.id,
        role: "member",
        home_gym_id: gym.id,
        signup_price_id: choice.price?.id ?? null,
        signup_link_id: choice.linkId,
      });
      await recordWebhookEvent({ db: tx, organisationId: gym.organisation_id }, "member.created", created.id, at);
      return { user: created, gym };
    });
  } catch (err) {
    // Two sign-ups racing for one address: the unique index decides.
    if (isUniqueViolation(err)) {
      throw invalid({ email: [EMAIL_TAKEN] });
    }
    throw err;
  }
}
