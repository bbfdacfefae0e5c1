import { and, desc, eq, sql } from "drizzle-orm";
import { addCalendarDays, localDay } from "../../domain/dates";
import { ageOn, LATEST_START_DAYS, type ConfirmSubscription, type RegisterFields } from "../../domain/schemas/signup";
import { organisation_users, organisations, payments, subscription_events, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid } from "../core/errors";
import { StartError, writeStart } from "../billing/start";
import { recordEvent } from "../core/membership-history";
import { formatCents } from "../../domain/money";
import { pricesOnSale, privateLink } from "./catalogue";
import { unfinishedSteps } from "../../domain/signup";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

export interface Joiner {
  id: number;
  gymId: number;
  linkId: number | null;
  defaultPaymentTypeId: number | null;
}

/** PUT /api/me/register-fields: the member's own details, with the organisation's minimum age unless their link bypasses it. */
export async function saveRegisterFields(t: Tenant, member: Joiner, fields: RegisterFields, now: Date) {
  const link = await privateLink(t, member.linkId);
  const today = localDay(now);
  if (fields.dob >= today) throw invalid({ dob: ["Enter a date of birth in the past"] });
  const [{ minimum_age }] = await t.db.select({ minimum_age: organisations.minimum_age }).from(organisations).where(eq(organisations.id, t.organisationId));
  if (!link?.age_bypass && ageOn(fields.dob, today) < minimum_age) {
    throw invalid({ dob: [`You need to be ${minimum_age} or older to join online. Ask the gym about joining with a parent or guardian.`] });
  }
  await t.db
    .update(users)
    .set({ ...fields, suburb: fields.suburb ?? null, hear_about_us_other: fields.hear_about_us === "other" ? (fields.hear_about_us_other ?? null) : null, updated_at: now })
    .where(eq(users.id, member.id));
  await recordWebhookEvent(t, "member.updated", member.id, now);
}

/**
 * POST /api/subscriptions: the member's membership and its first payment written down (the billing engine's
 * writeStart: pro-rata, joining fee, surcharge), charged by the caller once committed. The same idempotency key
 * answers the subscription it already made. A member whose last sign-up's first payment failed starts again: that
 * one is closed (cancelled, its failed payment kept as the record) and this one stands in its place.
 */
export async function confirmSubscription(t: Tenant, member: Joiner, req: ConfirmSubscription, now: Date) {
  // One confirmation per member at a time: a double tap's two requests arrive together, and the second must find
  // the first's subscription (by its key) rather than race it to the insert. Released with the transaction.
  await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`signup:${member.id}`}))`);
  const [again] = await t.db
    .select()
    .from(subscriptions)
    .where(t.where(subscriptions, eq(subscriptions.user_id, member.id), eq(subscriptions.signup_key, req.idempotency_key)));
  if (again) {
    // A key names one request: the same key with another membership or start day is a client's bug, not a retry,
    // and answering the first subscription would let it believe the second was made (422, as "Integrators" asks).
    const [joined] = await t.db
      .select({ after: subscription_events.after })
      .from(subscription_events)
      .where(t.where(subscription_events, eq(subscription_events.subscription_id, again.id), eq(subscription_events.action, "joined")))
      .limit(1);
    const asked = joined?.after as { price_id?: number; start?: string } | null | undefined;
    if (again.price_id !== req.price_id || (asked?.start !== undefined && asked.start !== req.start_date)) {
      throw new ApiError(422, "This idempotency key was already used for a different request. Send a new key for a new request.", "idempotency_key_reused", {
        idempotency_key: ["This key was already used for a different membership or start day"],
      });
    }
    const [first] = await t.db.select().from(payments).where(eq(payments.subscription_id, again.id)).orderBy(payments.id).limit(1);
    return { subscription: again, payment: first, repeated: true };
  }

  const [latest] = await t.db
    .select()
    .from(subscriptions)
    .where(t.where(subscriptions, eq(subscriptions.user_id, member.id)))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  if (latest && !latest.cancelled_at && latest.upcoming_state !== "failed") throw new ApiError(409, "You already have a membership here.", "already_member");

  const today = localDay(now);
  const errors: Record<string, string[]> = {};
  const price = (await pricesOnSale(t, member.gymId, member.linkId)).find((p) => p.id === req.price_id);
  if (!price) errors.price_id = ["Choose a membership from the list"];
  if (req.start_date < today) errors.start_date = ["Choose today or a day after it"];
  else if (req.start_date > addCalendarDays(today, LATEST_START_DAYS)) errors.start_date = [`Choose a day within ${LATEST_START_DAYS} days`];
  const [me] = await t.db.select({ dob: users.dob, address: users.address, emergency: users.emergency_contact_name, profile_picture: users.profile_picture }).from(users).where(eq(users.id, member.id));
  // The pages' step guards, held here too: the same list (domain/signup.ts).
  for (const step of unfinishedSteps({ membership_confirmed: false, profile_picture: me.profile_picture, payment_types: member.defaultPaymentTypeId ? [member.defaultPaymentTypeId] : [] })) errors[step.field] = [step.message];
  if (!me.dob || !me.address || !me.emergency) errors.register_fields = ["Fill in your details first"];
  if (Object.keys(errors).length) throw invalid(errors);

  if (latest && latest.upcoming_state === "failed" && !latest.cancelled_at) {
    await t.db
      .update(subscriptions)
      .set({ cancelled_at: now, cancellation_reasons: ["first_payment_failed"], cancellation_comments: "Closed when the member joined again at sign-up.", updated_at: now, version: latest.version + 1 })
      .where(eq(subscriptions.id, latest.id));
  }

  // What "I accept the membership terms" meant at this moment: the organisation's words or link, kept with the membership.
  const [terms] = await t.db.select({ text: organisations.membership_terms_text, url: organisations.membership_terms_url }).from(organisations).where(eq(organisations.id, t.organisationId));
  let written: Awaited<ReturnType<typeof writeStart>>;
  try {
    written = await writeStart(
      t.db,
      { organisationId: t.organisationId, userId: member.id, gymId: member.gymId, priceId: req.price_id, start: req.start_date, paymentTypeId: member.defaultPaymentTypeId },
      now,
      { signup_key: req.idempotency_key, terms_accepted_at: now, terms_accepted: terms ?? { text: null, url: null }, private_price_link_id: member.linkId },
    );
  } catch (err) {
    if (err instanceof StartError) throw new ApiError(422, err.message, "cannot_start", { price_id: [err.message] });
    throw err;
  }
  await t.db
    .update(organisation_users)
    .set({ signup_price_id: null, updated_at: now })
    .where(t.where(organisation_users, and(eq(organisation_users.user_id, member.id))));
  await recordEvent(t, {
    subscriptionId: written.subscription.id,
    userId: member.id,
    actorId: member.id,
    action: "joined",
    summary: `Joined online: ${price!.offering.name}, ${formatCents(price!.amount)} ${price!.frequency_label.toLowerCase()}, from ${req.start_date}; first payment ${formatCents(written.payment.amount + written.payment.surcharge)}`,
    after: { price_id: req.price_id, start: req.start_date },
  });
  return { ...written, repeated: false };
}
