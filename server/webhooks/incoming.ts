import { Hono, type Context } from "hono";
import type { Db } from "../core/db/client";
import { sandboxProviders } from "../core/providers/registry";
import { keptHeaders, receiveWebhook, type WebhookDeps } from "./receive";
import { webhookSecrets } from "../core/webhooks/request-secrets";
import type { WebhookProvider } from "../core/webhooks/verify";
import type { ApiEnv } from "../core/context";
import { clientIp } from "../core/middleware";
import { receiveKisi } from "../doors/kisi-webhook";

/**
 * POST /api/webhooks/stripe, /gocardless and /akahu: the providers' own calls, with no session and for any
 * organisation (the event names it), so they run on the system's database handle; their signatures guard them
 * (server/core/webhooks/verify.ts). Staff's replays run on their request's tenant handle instead (./routes.ts).
 *
 * `db` is the one handle of the unit of work: the system's for a provider's call, a staff request's own for a
 * replay. Everything the call does runs on it, the providers' sandbox books included (one handle per unit of work,
 * server/core/db/client.ts: a second one would wait for ever on PGlite's one connection).
 */
export async function webhookDeps(c: Context<ApiEnv>, db: Db): Promise<WebhookDeps> {
  const deps = c.var.deps;
  const providers = deps.providers ?? sandboxProviders(db);
  return {
    db,
    config: deps.config,
    secrets: await webhookSecrets(c),
    providers: db === deps.db ? providers : providers.on(db),
    now: deps.now ?? (() => new Date()),
    mailer: deps.mailer,
  };
}

const receive = (provider: WebhookProvider) => async (c: Context<ApiEnv>) => {
  const body = await c.req.text();
  const answer = await receiveWebhook(await webhookDeps(c, c.var.deps.db), provider, body, keptHeaders(c.req.raw.headers), null, clientIp(c));
  if (answer.retryAfter) c.header("Retry-After", String(answer.retryAfter));
  // A payment the event settled gets its receipt now rather than at the next minute's catch-up.
  if (answer.status === 200) c.var.deps.jobs?.start("member-mail");
  return c.json(answer.body, answer.status);
};

/**
 * Where the providers post (no cookie, no Origin, no X-Requested-With: they are servers, not browsers), so the
 * cross-site guard lets exactly these through (../api/app.ts); their signatures guard them instead. Kept next to the
 * routes, so an endpoint added below cannot be left out (issue 29 M3: Kisi's was, and every real door event got 403).
 */
export const INCOMING_WEBHOOK_PATHS = ["stripe", "gocardless", "akahu", "kisi"].map((provider) => `/api/webhooks/${provider}`);

export const incomingWebhookRoutes = new Hono<ApiEnv>()
  .post("/webhooks/stripe", receive("stripe"))
  .post("/webhooks/gocardless", receive("gocardless"))
  .post("/webhooks/akahu", receive("akahu"))
  /** The door system's events (issue 15): signed, for whichever organisation's door they name (server/doors/events.ts). */
  .post("/webhooks/kisi", async (c) => c.json({ data: await receiveKisi(c, c.var.deps.db, await c.req.text(), c.req.header("x-kisi-signature")) }));
