import { eq, sql } from "drizzle-orm";
import { formatDay, localDay } from "../../domain/dates";
import { ageOn } from "../../domain/schemas/signup";
import type { WalkInRequest } from "../../domain/schemas/walk-in";
import { createLink } from "../core/auth/password-links";
import { isUniqueViolation } from "../core/db/errors";
import { organisation_users, organisations, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid } from "../core/errors";
import { walkInJoinMail } from "../core/mail/templates";
import { signupGym } from "../signup/methods";
import { signupQuote } from "../signup/quote";
import { ADDRESS_UNAVAILABLE } from "../subscriptions/onboard";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * A walk-in join (issue 32, decision 0061): someone joining at the desk on a recurring price. The desk enters who they
 * are, the price and the start day, and sees the sign-up's own quote (server/signup/quote.ts); the person is then made
 * a member who has not yet joined (no password, no membership), their sign-up keeping that price and day, and is sent
 * a link (by e-mail, and shown to the desk to text) that signs them in on the sign-up host at the payment step. The
 * membership starts, and the first payment is taken, when they confirm there: the same rules as joining online
 * (price on sale at that gym, minimum age, one membership, the first payment before anything stands).
 */
export const ALREADY_OURS = "They are already your member: open their page";

async function checked(t: Tenant, req: WalkInRequest, now: Date) {
  const gym = await signupGym(t, req.gym_id);
  if (!gym) throw invalid({ gym_id: ["Choose a gym from the list"] });
  const [taken] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${req.email.toLowerCase()}`);
  if (taken) {
    const [ours] = await t.db
      .select({ key: organisation_users.walk_in_key })
      .from(organisation_users)
      .where(t.where(organisation_users, eq(organisation_users.user_id, taken.id), eq(organisation_users.role, "member")));
    if (ours?.key === req.key) return { gym, repeatedUserId: taken.id };
    throw invalid({ email: [ours ? ALREADY_OURS : ADDRESS_UNAVAILABLE] });
  }
  const today = localDay(now);
  if (req.dob >= today) throw invalid({ dob: ["Enter a date of birth in the past"] });
  const [{ minimum_age }] = await t.db.select({ minimum_age: organisations.minimum_age }).from(organisations).where(eq(organisations.id, t.organisationId));
  if (ageOn(req.dob, today) < minimum_age)
    throw invalid({ dob: [`They need to be ${minimum_age} or older to join. A younger person joins with an age-bypass link from Settings.`] });
  return { gym, repeatedUserId: null };
}

/** The preview: what joining costs, as the person's confirm page will show it (a paid-in-full price is sold from /members/pif). */
export async function walkInQuote(t: Tenant, req: WalkInRequest, now: Date) {
  const { gym, repeatedUserId } = await checked(t, req, now);
  const quote = await signupQuote(
    t,
    { id: -1, gymId: gym.id, linkId: null, defaultPaymentTypeId: null },
    gym,
    { price_id: req.price_id, start_date: req.start },
    now,
  ).catch((err: unknown) => {
    // The sign-up names the day `start_date`; the desk's form calls it `start`.
    if (err instanceof ApiError && err.errors?.start_date) throw invalid({ start: err.errors.start_date });
    throw err;
  });
  if (quote.price.billing_frequency === "one_off") throw invalid({ price_id: ["A paid-in-full price is sold from New paid-in-full member"] });
  return { gym, quote, repeatedUserId };
}

export async function walkIn(t: Tenant, req: WalkInRequest, now: Date, joinUrl: (token: string) => string) {
  // A double click's two requests arrive together: the second waits here for the first's member, then finds it by
  // the key rather than racing it to the insert. Released with the transaction.
  await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`walk-in:${t.organisationId}:${req.key}`}))`);
  const { gym, quote, repeatedUserId } = await walkInQuote(t, req, now);
  let userId = repeatedUserId;
  if (userId === null) {
    try {
      const [user] = await t.db
        .insert(users)
        .values({
          name: req.name,
          email: req.email,
          mobile_number: req.mobile_number ?? null,
          dob: req.dob,
          should_onboard: true,
          invited_at: now,
          current_organisation_id: t.organisationId,
          current_gym_id: gym.id,
          created_at: now,
          updated_at: now,
        })
        .returning({ id: users.id });
      await t.db
        .insert(organisation_users)
        .values(
          t.owned({
            user_id: user.id,
            role: "member" as const,
            home_gym_id: gym.id,
            signup_price_id: req.price_id,
            signup_start_on: req.start,
            walk_in_key: req.key,
            created_at: now,
          }),
        );
      userId = user.id;
      await recordWebhookEvent(t, "member.created", user.id, now);
    } catch (err) {
      // Another request with this address (or this key) got there first: the form's second send, or a clash.
      if (isUniqueViolation(err)) throw invalid({ email: [ADDRESS_UNAVAILABLE] });
      throw err;
    }
  }
  const url = joinUrl(await createLink(t.db, userId, "join", now));
  const mail = walkInJoinMail(req.email, req.name, { gym: gym.name, offering: quote.price.offering.name, start: formatDay(req.start), url });
  return { userId, url, mail, quote, repeated: repeatedUserId !== null };
}
