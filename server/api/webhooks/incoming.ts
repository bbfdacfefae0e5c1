import { Hono, type Context } from "hono";
import type { Db } from "../../db/client";
import { sandboxProviders } from "../../providers/registry";
import { keptHeaders, receiveWebhook, type WebhookDeps } from "../../webhooks/receive";
import type { WebhookProvider } from "../../webhooks/verify";
import type { ApiEnv } from "../context";
import { receiveKisi } from "../doors/routes";

/**
 * POST /api/webhooks/stripe, /gocardless and /akahu: the providers' own calls, with no session and for any
 * organisation (the event names it), so they run on the system's database handle; their signatures guard them
 * (server/webhooks/verify.ts). Staff's replays run on their request's tenant handle instead (./routes.ts).
 *
 * On `db`: the system's handle for a provider's call, or a staff request's own (PGlite has one connection, held by it). */
export function webhookDeps(c: Context<ApiEnv>, db: Db = c.var.deps.db): WebhookDeps {
  const deps = c.var.deps;
  return { db, config: deps.config, providers: deps.providers ?? sandboxProviders(db), now: deps.now ?? (() => new Date()), mailer: deps.mailer };
}

const receive = (provider: WebhookProvider) => async (c: Context<ApiEnv>) => {
  const body = await c.req.text();
  const answer = await receiveWebhook(webhookDeps(c), provider, body, keptHeaders(c.req.raw.headers));
  return c.json(answer.body, answer.status);
};

export const incomingWebhookRoutes = new Hono<ApiEnv>()
  .post("/webhooks/stripe", receive("stripe"))
  .post("/webhooks/gocardless", receive("gocardless"))
  .post("/webhooks/akahu", receive("akahu"))
  /** The door system's events (issue 15): signed, for whichever organisation's door they name (server/doors/events.ts). */
  .post("/webhooks/kisi", async (c) => c.json({ data: await receiveKisi(c, c.var.deps.db, await c.req.text(), c.req.header("x-kisi-signature")) }));
