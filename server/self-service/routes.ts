import { Hono } from "hono";
import type { ApiEnv } from "../core/context";
import { now, requireMember } from "../core/middleware";
import { pageParam } from "../core/pagination";
import { memberPayments } from "../members/history";
import { memberSelfUpdateSchema } from "../../domain/schemas/members";
import { readBody } from "../core/body";
import { myDetails, saveMyDetails } from "./details";
import { myMembership, myReceipt } from "./membership";
import { cancelMine, memberActions, pauseMine, undoMine } from "./member-actions";
import { memberCancelRequest, memberPauseRequest, memberPayOwingRequest, undoCancelRequest } from "../../domain/schemas/subscriptions";
import { chargeAfterCommit } from "../billing/after-commit";
import { payMine } from "./pay-owing";
import { tellChangeAfterCommit } from "../member-mail/membership-changes";

/**
 * A member's own account on the sign-up host (issue 31). Pausing and cancelling go through the same rules and writes
 * as staff's, under the organisation's member rules (./member-actions.ts); each answers its preview when asked, and
 * the member is e-mailed what they did once it is committed.
 */
export const selfServiceRoutes = new Hono<ApiEnv>()
  .get("/me/membership", requireMember, async (c) => c.json({ data: await myMembership(c.var.tenant, c.var.user!.row.id, now(c)) }))
  .get("/me/payments", requireMember, async (c) => c.json({ data: await memberPayments(c.var.tenant, c.var.user!.row.id, pageParam(c)) }))
  .get("/me/payments/:id{[0-9]+}/receipt", requireMember, async (c) =>
    c.json({ data: await myReceipt(c.var.tenant, c.var.user!.row.id, Number(c.req.param("id"))) }),
  )
  .get("/me/details", requireMember, async (c) => c.json({ data: await myDetails(c.var.tenant, c.var.user!.row.id) }))
  .put("/me/details", requireMember, async (c) => {
    const v = await readBody(c, memberSelfUpdateSchema);
    await saveMyDetails(c.var.tenant, c.var.user!.row.id, v, now(c));
    return c.json({ data: await myDetails(c.var.tenant, c.var.user!.row.id) });
  })
  /** GET /api/me/membership/actions: whether pausing, cancelling and undoing are open to the member now, and the rules. */
  .get("/me/membership/actions", requireMember, async (c) => c.json({ data: await memberActions(c.var.tenant, c.var.user!.row.id, now(c)) }))
  /** POST /api/me/membership/pause { start, end, version, preview? } */
  .post("/me/membership/pause", requireMember, async (c) => {
    const req = await readBody(c, memberPauseRequest);
    const answer = await pauseMine(c.var.tenant, c.var.user!.row.id, req, now(c));
    if ("preview" in answer) return c.json({ data: { preview: answer.preview } });
    tellChangeAfterCommit(c, answer.membership, { kind: "pause", start: req.start, end: req.end, effect: answer.effect });
    return c.json({ data: { effect: answer.effect, event: answer.done.event, version: answer.done.subscription.version } });
  })
  /** POST /api/me/membership/cancel { reasons, comments?, version, preview? }: at the end of the paid period, or later with the organisation's notice. */
  .post("/me/membership/cancel", requireMember, async (c) => {
    const answer = await cancelMine(c.var.tenant, c.var.user!.row.id, await readBody(c, memberCancelRequest), now(c));
    if ("preview" in answer) return c.json({ data: { preview: answer.preview } });
    tellChangeAfterCommit(c, answer.membership, { kind: "cancel", when: "period_end", effect: answer.effect });
    return c.json({ data: { effect: answer.effect, event: answer.event, version: answer.version } });
  })
  /** POST /api/me/membership/undo-cancel { version, preview? }: a cancellation the member made, while it can be undone. */
  .post("/me/membership/undo-cancel", requireMember, async (c) => {
    const answer = await undoMine(c.var.tenant, c.var.user!.row.id, await readBody(c, undoCancelRequest), now(c));
    if ("preview" in answer) return c.json({ data: { preview: answer.preview } });
    tellChangeAfterCommit(c, answer.membership, { kind: "undo-cancel", effect: { nextCharge: "nextCharge" in answer.effect ? (answer.effect.nextCharge ?? null) : null } });
    return c.json({ data: { event: answer.event, version: answer.version } });
  })
  /** POST /api/me/membership/pay-owing { key, version, preview? }: what is owing, charged now to the member's way to pay. */
  .post("/me/membership/pay-owing", requireMember, async (c) => {
    const answer = await payMine(c.var.tenant, c.var.user!.row.id, await readBody(c, memberPayOwingRequest), now(c));
    if ("preview" in answer) return c.json({ data: { preview: answer.preview } });
    const { done } = answer;
    if (!done.repeated) chargeAfterCommit(c, done.paymentIds, answer.membership.s.id);
    return c.json({ data: { total: done.effect?.total ?? null, payment_ids: done.paymentIds, repeated: done.repeated } }, done.repeated ? 200 : 201);
  });
