import { desc, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { webhookCallsQuery } from "../../domain/schemas/webhooks";
import { webhook_calls } from "../core/db/schema";
import { listWebhookCalls } from "./calls";
import { receiveWebhook } from "./receive";
import { webhookDeps } from "./incoming";
import { webhookSecrets } from "../core/webhooks/request-secrets";
import { secretSource, WEBHOOK_PROVIDERS, type WebhookProvider } from "../core/webhooks/verify";
import { pathId, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { invalid, notFound } from "../core/errors";
import { requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/**
 * Webhook calls carry the payments of every gym of the organisation, so they are the organisation's: only staff
 * who hold the capability in every gym (organisation admins) see or replay them.
 */
const orgWide = (capability: "money.read" | "money.write") => [requireCan(capability), async (c: Context<ApiEnv>, next: () => Promise<void>) => {
  assertCan(c.var.user!, capability, null);
  await next();
}] as const;

/** The endpoint a provider is given: API_BASE when the API has its own address, else the address staff use. */
const endpointUrl = (c: Context<ApiEnv>, provider: WebhookProvider) => `${c.var.deps.config.API_BASE ?? new URL(c.req.url).origin}/api/webhooks/${provider}`;

/** Staff's view of the calls (SPEC §7 GET /api/webhook-calls) and of the endpoints, for /webhook-calls and /webhooks. */
export const webhookRoutes = new Hono<ApiEnv>()
  /** GET /api/webhook-calls?provider=&status=&from=&to=&page=: this organisation's calls, newest first, without their bodies. */
  .get("/webhook-calls", requireStaff, ...orgWide("money.read"), async (c) => c.json({ data: await listWebhookCalls(c.var.tenant, readQuery(c, webhookCallsQuery)) }))
  /** GET /api/webhook-calls/{id}: one call with its raw body and headers. */
  .get("/webhook-calls/:id{[0-9]+}", requireStaff, ...orgWide("money.read"), async (c) => {
    const t = c.var.tenant;
    const [call] = await t.db.select().from(webhook_calls).where(t.where(webhook_calls, eq(webhook_calls.id, pathId(c, "No such webhook call."))));
    if (!call) throw notFound("No such webhook call.");
    return c.json({ data: call });
  })
  /** POST /api/webhook-calls/{id}/replay: processes a stored call again, as a new call (replay_of_id). Not a rejected one. */
  .post("/webhook-calls/:id{[0-9]+}/replay", requireStaff, ...orgWide("money.write"), async (c) => {
    const t = c.var.tenant;
    const [call] = await t.db.select().from(webhook_calls).where(t.where(webhook_calls, eq(webhook_calls.id, pathId(c, "No such webhook call."))));
    if (!call) throw notFound("No such webhook call.");
    if (call.status === "rejected") throw invalid({ call: ["A call whose signature was refused is never processed, so it cannot be replayed"] });
    // On the request's own handle (PGlite has one connection, held by this request's transaction), and so within
    // this organisation's rows only, which is all a replay of its own call touches.
    const answer = await receiveWebhook(await webhookDeps(c, t.db), call.provider, call.body, call.headers, { of: call.id, organisationId: call.organisation_id });
    if (answer.body.call_id === null) throw invalid({ call: [answer.body.message] });
    const [replay] = await t.db.select().from(webhook_calls).where(eq(webhook_calls.id, answer.body.call_id));
    return c.json({ data: replay });
  })
  /** GET /api/webhooks: each provider's endpoint for this organisation, whether its signing secret is set, and its last call. */
  .get("/webhooks", requireStaff, ...orgWide("money.read"), async (c) => {
    const t = c.var.tenant;
    const secrets = await webhookSecrets(c);
    const data = await Promise.all(
      WEBHOOK_PROVIDERS.map(async (provider) => {
        const secret = secretSource(secrets, c.var.deps.config, provider);
        const [last] = await t.db
          .select({ id: webhook_calls.id, received_at: webhook_calls.received_at, status: webhook_calls.status, result: webhook_calls.result })
          .from(webhook_calls)
          .where(t.where(webhook_calls, eq(webhook_calls.provider, provider)))
          .orderBy(desc(webhook_calls.received_at), desc(webhook_calls.id))
          .limit(1);
        return {
          provider,
          url: endpointUrl(c, provider),
          secret: secret ?? ("missing" as const),
          last_call: last ?? null,
        };
      }),
    );
    return c.json({ data });
  });

