import { Hono, type Context } from "hono";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { now } from "../core/middleware";
import { readUnsubscribeToken, unsubscribe, unsubscribeState } from "./unsubscribe";

/**
 * The unsubscribe link of members' e-mails (issue 31). No sign-in: the signed token is the credential. The POST is
 * also where mail apps send RFC 8058's one-click unsubscribe (`List-Unsubscribe=One-Click`, from their servers, with
 * no cookie and no Origin), so it is among the API's cross-site paths (../api/app.ts).
 */
async function member(c: Context<ApiEnv>, token = c.req.query("token") ?? "") {
  const userId = readUnsubscribeToken(c.var.deps.config.SESSION_SECRET, token);
  if (userId === null) throw notFound("This unsubscribe link is not one of ours, or is not complete.");
  return userId;
}

export const UNSUBSCRIBE_PATH = "/api/public/unsubscribe";

export const memberMailRoutes = new Hono<ApiEnv>()
  /** GET /api/public/unsubscribe?token=: the address (partly hidden) and whether its e-mails are on. */
  .get("/public/unsubscribe", async (c) => {
    const state = await unsubscribeState(c.var.deps.db, await member(c));
    if (!state) throw notFound("This unsubscribe link is not one of ours, or is not complete.");
    return c.json({ data: state });
  })
  /**
   * POST /api/public/unsubscribe?token= (a mail app's one-click, its body `List-Unsubscribe=One-Click`), or with
   * `{ token }` as JSON (our page): e-mails off (SPEC's email_notifications); the same answer when they were off already.
   */
  .post("/public/unsubscribe", async (c) => {
    const json = c.req.header("content-type")?.startsWith("application/json")
      ? await c.req.json<{ token?: unknown }>().catch(() => ({ token: undefined }))
      : {};
    const userId = await member(c, c.req.query("token") ?? (typeof json.token === "string" ? json.token : ""));
    await unsubscribe(c.var.deps.db, userId, now(c));
    return c.json({ data: { email_notifications: false } });
  });
