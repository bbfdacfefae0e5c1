import { Hono } from "hono";
import { walkInRequest } from "../../domain/schemas/walk-in";
import { pathId, readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { publicOrigin } from "../core/links";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";
import { walkIn, walkInQuote } from "./join";

export const walkInRoutes = new Hono<ApiEnv>()
  /**
   * POST /api/organisations/{id}/members/walk-in: { name, email, mobile_number?, dob, gym_id, price_id, start, key,
   * preview? } (issue 32): someone joining at the desk on a recurring price. The preview is the sign-up's quote; the
   * join makes them a member who has not joined yet and answers (and e-mails) the link that finishes it on the
   * sign-up host: `join_url` (a sign-in, so shown only to the desk that made it). The same key again answers the same
   * member with a new link.
   */
  .post("/organisations/:id{[0-9]+}/members/walk-in", requireStaff, requireCan("subscriptions.write"), async (c) => {
    if (pathId(c, "No such organisation.") !== c.var.tenant.organisationId) throw notFound("No such organisation.");
    const req = await readBody(c, walkInRequest);
    assertCan(c.var.user!, "subscriptions.write", req.gym_id);
    if (req.preview) return c.json({ data: { preview: (await walkInQuote(c.var.tenant, req, now(c))).quote } });
    const done = await walkIn(c.var.tenant, req, now(c), (token) => `${publicOrigin(c, "signup")}/sign-in/link?${new URLSearchParams({ token })}`);
    c.var.afterCommit(() => c.var.deps.mailer.send(done.mail));
    return c.json({ data: { user_id: done.userId, join_url: done.url, quote: done.quote, repeated: done.repeated } }, done.repeated ? 200 : 201);
  });
