import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  onboardPifRequest,
  cancelRequest,
  manualPaymentRequest,
  pauseRequest,
  pifRequest,
  priceChangeEmailRequest,
  priceChangeRequest,
  undoCancelRequest,
  versionOnlyRequest,
} from "../../domain/schemas/subscriptions";
import { payments } from "../core/db/schema";
import { chargeAfterCommit } from "../billing/after-commit";
import { ProviderError } from "../core/providers/errors";
import { applyCancel, cancelEffect } from "./cancel";
import { applyUndoCancel, undoEffect } from "./undo-cancel";
import { withdrawScheduledCancel } from "./scheduled-cancel";
import { doorAccess, recreateDoorLogin } from "./door";
import { memberEvents } from "./events";
import { loadMembership } from "./membership";
import { pauseEffect, applyPause } from "./pause";
import { applyManualPayment, manualPaymentEffect, markReceived } from "./payments";
import { applyPif, pifEffect } from "./pif";
import { applyPriceChange, applyRemovePriceChange, priceChangeEffect } from "./price-change";
import { applyStartNow, startNowEffect } from "./start-now";
import { membershipView } from "./view";
import { onboardEffect, onboardPif, resendInvite } from "./onboard";
import { publicOrigin } from "../core/links";
import { tellChangeAfterCommit, type MembershipChange } from "../member-mail/membership-changes";
import { mailSite } from "../member-mail/brand";
import type { PauseRequest } from "../../domain/schemas/subscriptions";
import { pathId, readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { organisationDoors } from "../doors/system";
import { ApiError, invalid, notFound } from "../core/errors";
import { now, requireStaff } from "../core/middleware";
import { assertCan, can, requireCan, visibleFields, type Capability } from "../core/permissions";
import { findMember } from "../members/find";

/**
 * The membership actions (issue 12; SPEC §7 Members, Payments): each takes the version its page showed and answers
 * its effect when asked to `preview`, else applies it in the request's transaction (409 when the membership
 * changed meanwhile) and records it in the member's history. Money moves after the commit (`afterCommit`): a
 * payment is written down before any provider is asked. Who may do what: docs/decisions/0022.
 */
async function membershipFor(c: Context<ApiEnv>, id: number, capability: Capability) {
  const m = await loadMembership(c.var.tenant, id);
  assertCan(c.var.user!, capability, m.s.gym_id);
  return m;
}

const rights = (c: Context<ApiEnv>, gymId: number) => ({ change: can(c.var.user!, "subscriptions.write", gymId), takeMoney: can(c.var.user!, "money.write", gymId) });

/** A payment written as received (cash, EFTPOS, a transfer that arrived): its receipt goes now, not at the next minute. */
const receiptsAfterCommit = (c: Context<ApiEnv>) => c.var.afterCommit(async () => c.var.deps.jobs?.start("member-mail"));


/** A pause request's change in the member's words; a credit of pause days is staff's bookkeeping, not news. */
export function pauseChange(req: PauseRequest, effect: ReturnType<typeof pauseEffect>): MembershipChange | null {
  if (req.action === "credit" || !("card" in effect)) return null;
  if (req.action === "pause") return { kind: "pause", start: req.start, end: req.end, effect };
  return { kind: req.action === "end" ? "pause.end" : "pause.remove", effect };
}

const subscriptionId = (c: Context<ApiEnv>) => pathId(c, "No such membership.");
/** Where an invitation's link leads: the set-password page on this site (a configured host only, ../core/links.ts). */
const inviteUrl = (c: Context<ApiEnv>) => (token: string) => `${publicOrigin(c)}/set-password?token=${token}`;
const strip = <T extends { plan?: unknown }>(effect: T) => {
  const { plan: _plan, ...rest } = effect;
  return rest;
};

export const subscriptionRoutes = new Hono<ApiEnv>()
  /** GET /api/subscriptions/{id}: the membership as its action pages need it. */
  .get("/subscriptions/:id{[0-9]+}", requireStaff, requireCan("memberships.read"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "memberships.read");
    return c.json({ data: visibleFields(c.var.user!, "membership", m.s.gym_id, await membershipView(c.var.tenant, m, now(c), rights(c, m.s.gym_id))) });
  })
  /** POST /api/subscriptions/{id}/pause: { action: pause | end | remove | credit, …, version, preview? } */
  .post("/subscriptions/:id{[0-9]+}/pause", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, pauseRequest);
    if (req.preview) return c.json({ data: { preview: pauseEffect(m, req, now(c)) } });
    const done = await applyPause(c.var.tenant, m, req, c.var.user!.row.id, now(c));
    const change = pauseChange(req, done.effect);
    if (change) tellChangeAfterCommit(c, m, change);
    return c.json({ data: { effect: done.effect, event: done.event, version: done.subscription.version } });
  })
  /** POST /api/subscriptions/{id}/cancel: { when, reasons, comments?, version, preview? } */
  .post("/subscriptions/:id{[0-9]+}/cancel", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, cancelRequest);
    if (req.preview) return c.json({ data: { preview: cancelEffect(m, req, now(c)) } });
    const done = await applyCancel(c.var.tenant, m, req, c.var.user!.row.id, now(c));
    tellChangeAfterCommit(c, m, { kind: "cancel", when: req.when, effect: done.effect });
    if (done.feePaymentId) chargeAfterCommit(c, [done.feePaymentId], m.s.id);
    return c.json({ data: { effect: done.effect, event: done.event, version: done.subscription.version } });
  })
  /** POST /api/subscriptions/{id}/undo-cancel: { version, preview? } while undo_cancellation_until lasts. */
  .post("/subscriptions/:id{[0-9]+}/undo-cancel", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, undoCancelRequest);
    if (req.preview) return c.json({ data: { preview: strip(await undoEffect(c.var.tenant, m, now(c))) } });
    const done = await applyUndoCancel(c.var.tenant, m, req.version, c.var.user!.row.id, now(c));
    tellChangeAfterCommit(c, m, { kind: "undo-cancel", effect: done.effect });
    return c.json({ data: { effect: strip(done.effect), event: done.event, version: done.subscription.version } });
  })
  /** POST /api/subscriptions/{id}/withdraw-cancel: { version }: a cancellation waiting for its notice (decision 0058) is withdrawn. */
  .post("/subscriptions/:id{[0-9]+}/withdraw-cancel", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, versionOnlyRequest);
    if (!m.s.cancel_at || m.s.cancelled_at) throw invalid({ _: ["No cancellation is waiting on this membership"] });
    const done = await withdrawScheduledCancel(c.var.tenant, m, req.version, c.var.user!.row.id);
    tellChangeAfterCommit(c, m, { kind: "undo-cancel", effect: { nextCharge: null } });
    return c.json({ data: { event: done.event, version: done.subscription.version } });
  })
  /** POST /api/subscriptions/change-price-email-preview: the e-mail the member would get, before anything is scheduled. */
  .post("/subscriptions/change-price-email-preview", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const req = await readBody(c, priceChangeEmailRequest);
    const m = await membershipFor(c, req.subscription_id, "subscriptions.write");
    const { mail } = await priceChangeEffect(c.var.tenant, m, req, now(c), mailSite(c.var.deps.config));
    return c.json({ data: { to: mail.to, reply_to: mail.replyTo ?? null, subject: mail.subject, text: mail.text, html: mail.html } });
  })
  /** POST /api/subscriptions/schedule-price-change: { subscription_id, price_id, from, date?, notify?, version, preview? } */
  .post("/subscriptions/schedule-price-change", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const req = await readBody(c, priceChangeRequest);
    const m = await membershipFor(c, req.subscription_id, "subscriptions.write");
    if (req.preview) {
      const { effect, mail } = await priceChangeEffect(c.var.tenant, m, req, now(c), mailSite(c.var.deps.config));
      return c.json({ data: { preview: effect, email: { to: mail.to, reply_to: mail.replyTo ?? null, subject: mail.subject, text: mail.text } } });
    }
    const done = await applyPriceChange(c.var.tenant, m, req, c.var.user!.row.id, now(c), mailSite(c.var.deps.config));
    if (done.mail) {
      const mail = done.mail;
      // Sent once the change is committed: a change rolled back e-mails nobody.
      c.var.afterCommit(() => c.var.deps.mailer.send(mail));
    }
    return c.json({ data: { effect: done.effect, event: done.event, version: done.subscription.version, emailed: Boolean(done.mail) } });
  })
  /** POST /api/subscriptions/{id}/remove-price-change: { version } */
  .post("/subscriptions/:id{[0-9]+}/remove-price-change", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, versionOnlyRequest);
    const done = await applyRemovePriceChange(c.var.tenant, m, req.version, c.var.user!.row.id, now(c));
    return c.json({ data: { event: done.event, version: done.subscription.version } });
  })
  /** GET /api/subscriptions/{id}/start-early-data: what starting it today would charge and change. */
  .get("/subscriptions/:id{[0-9]+}/start-early-data", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    return c.json({ data: strip(await startNowEffect(c.var.tenant, m, now(c))) });
  })
  /** POST /api/subscriptions/{id}/start-now: { version }: starts today; the first payment is charged at once. */
  .post("/subscriptions/:id{[0-9]+}/start-now", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "subscriptions.write");
    const req = await readBody(c, versionOnlyRequest);
    if (req.preview) return c.json({ data: { preview: strip(await startNowEffect(c.var.tenant, m, now(c))) } });
    const done = await applyStartNow(c.var.tenant, m, req.version, c.var.user!.row.id, now(c));
    chargeAfterCommit(c, [done.paymentId], m.s.id, { first: true });
    return c.json({ data: { effect: strip(done.effect), event: done.event, version: done.subscription.version, payment_id: done.paymentId } });
  })
  /** POST /api/subscriptions/{id}/manual-payment: { method, note?, key, version, preview? }: the balance owing. */
  .post("/subscriptions/:id{[0-9]+}/manual-payment", requireStaff, requireCan("money.write"), async (c) => {
    const m = await membershipFor(c, subscriptionId(c), "money.write");
    const req = await readBody(c, manualPaymentRequest);
    if (req.preview) return c.json({ data: { preview: await manualPaymentEffect(c.var.tenant, m, req) } });
    const done = await applyManualPayment(c.var.tenant, m, req, c.var.user!.row.id, now(c));
    if (done.charge && !done.repeated) chargeAfterCommit(c, done.paymentIds, m.s.id);
    else receiptsAfterCommit(c);
    return c.json({ data: { effect: done.effect, event: done.event, payment_ids: done.paymentIds, repeated: done.repeated } });
  })
  /** POST /api/payments/{id}/received: a bank transfer that arrived. */
  .post("/payments/:id{[0-9]+}/received", requireStaff, requireCan("money.write"), async (c) => {
    const id = pathId(c, "No such payment.");
    const t = c.var.tenant;
    const [p] = await t.db.select({ gym_id: payments.gym_id }).from(payments).where(t.where(payments, eq(payments.id, id)));
    if (!p) throw notFound("No such payment.");
    assertCan(c.var.user!, "money.write", p.gym_id);
    const done = await markReceived(t, id, c.var.user!.row.id, now(c));
    if (!done) throw notFound("No such payment.");
    receiptsAfterCommit(c);
    return c.json({ data: { payment: { id: done.payment.id, status: done.payment.status }, event: done.event } });
  })
  /** POST /api/members/{id}/pif: { price_id, start, method, key, preview? }: a paid-in-full membership paid at the desk. */
  .post("/members/:id{[0-9]+}/pif", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    const gymId = found.membership.home_gym_id;
    if (!gymId) throw new ApiError(422, "The member has no home gym: set one first.", "validation_failed", { _: ["The member has no home gym"] });
    assertCan(c.var.user!, "subscriptions.write", gymId);
    assertCan(c.var.user!, "money.write", gymId);
    const req = await readBody(c, pifRequest);
    if (req.preview) return c.json({ data: { preview: await pifEffect(c.var.tenant, found.user.id, gymId, req, now(c)) } });
    const done = await applyPif(c.var.tenant, found.user.id, gymId, req, c.var.user!.row.id, now(c));
    receiptsAfterCommit(c);
    return c.json({ data: { effect: done.effect, subscription_id: done.subscriptionId, repeated: done.repeated } });
  })
  /**
   * POST /api/organisations/{id}/members/onboard-pif: { name, email, mobile_number?, gym_id, price_id, start, method,
   * key, preview? }: a new member who paid in full at the desk, invited by e-mail to set a password. The organisation
   * is the current one (another is a 404, as every id of another organisation is).
   */
  .post("/organisations/:id{[0-9]+}/members/onboard-pif", requireStaff, requireCan("subscriptions.write"), async (c) => {
    if (pathId(c, "No such organisation.") !== c.var.tenant.organisationId) throw notFound("No such organisation.");
    const req = await readBody(c, onboardPifRequest);
    assertCan(c.var.user!, "subscriptions.write", req.gym_id);
    assertCan(c.var.user!, "money.write", req.gym_id);
    if (req.preview) return c.json({ data: { preview: await onboardEffect(c.var.tenant, req, now(c)) } });
    const done = await onboardPif(c.var.tenant, req, c.var.user!.row.id, now(c), inviteUrl(c));
    receiptsAfterCommit(c);
    const mail = done.mail;
    c.var.afterCommit(() => c.var.deps.mailer.send(mail));
    return c.json({ data: { effect: done.effect, user_id: done.userId, subscription_id: done.subscriptionId, invited: true } });
  })
  /** POST /api/members/{id}/resend-pif-invite: a fresh invitation to set a password. */
  .post("/members/:id{[0-9]+}/resend-pif-invite", requireStaff, requireCan("members.write"), async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    assertCan(c.var.user!, "members.write", found.membership.home_gym_id);
    const mail = await resendInvite(c.var.tenant, found.user, now(c), inviteUrl(c));
    c.var.afterCommit(() => c.var.deps.mailer.send(mail));
    return c.json({ data: { invited: true, to: found.user.email } });
  })
  /** GET /api/members/{id}/events: what staff did to the member's memberships, newest first. */
  .get("/members/:id{[0-9]+}/events", requireStaff, requireCan("members.read"), async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    assertCan(c.var.user!, "members.read", found.membership.home_gym_id);
    return c.json({ data: { data: await memberEvents(c.var.tenant, found.user.id) } });
  })
  /** GET /api/members/{id}/access-control: what the membership allows at the door, and what the door system holds. */
  .get("/members/:id{[0-9]+}/access-control", requireStaff, requireCan("members.read"), async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    assertCan(c.var.user!, "members.read", found.membership.home_gym_id);
    const doors = await organisationDoors(c);
    return c.json({ data: await doorAccess(c.var.tenant, doors, found.user, now(c)) });
  })
  /** POST /api/users/{id}/recreate-kisi-login: adds the member to the door system again, access as their membership says. */
  .post("/users/:id{[0-9]+}/recreate-kisi-login", requireStaff, requireCan("members.write"), async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    assertCan(c.var.user!, "members.write", found.membership.home_gym_id);
    const doors = await organisationDoors(c);
    try {
      return c.json({ data: await recreateDoorLogin(c.var.tenant, doors, found.user, c.var.user!.row.id, now(c)) });
    } catch (err) {
      if (err instanceof ProviderError) throw new ApiError(503, err.message, "door_system_unavailable");
      throw err;
    }
  });
