import { Hono, type Context } from "hono";
import { webhookDeliveriesQuery, webhookEndpointRequest } from "../../domain/schemas/webhook-endpoints";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { now, requireStaff } from "../core/middleware";
import { requireCan } from "../core/permissions";
import { addressRules } from "./address";
import { deliverDue } from "./deliver";
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  endpointView,
  findDelivery,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  resendable,
  rotateSecret,
  testable,
  updateEndpoint,
} from "./endpoints";
import { recordTestEvent } from "./events";

/**
 * Outgoing webhooks' endpoints (issue 33): organisation admins (integrations.write) register where events go, see
 * each delivery and its tries, and resend. Not /api/webhooks, which is the providers' incoming calls. Another
 * organisation's endpoint or delivery is 404, as one that does not exist.
 */
const admins = [requireStaff, requireCan("integrations.write")] as const;
const endpointId = (c: Context<ApiEnv>) => pathId(c, "No such webhook endpoint.");
const rules = (c: Context<ApiEnv>) => addressRules(c.var.deps.config);

/**
 * Sends one delivery as soon as the request is committed, before the answer goes: the page that asked then reads
 * what the receiver said. Another sender already holding it is left to finish.
 */
function sendOnceCommitted(c: Context<ApiEnv>, deliveryId: number, manual: boolean) {
  const deps = c.var.deps;
  c.var.afterCommit(async () => {
    await deliverDue(deps, { only: [deliveryId], manual });
  });
}

export const outgoingWebhookRoutes = new Hono<ApiEnv>()
  /** GET /api/webhook-endpoints: every endpoint, with its deliveries counted by state. */
  .get("/webhook-endpoints", ...admins, async (c) => c.json({ data: { data: await listEndpoints(c.var.tenant, now(c)) } }))
  /** POST /api/webhook-endpoints {url, description, events[] | all_events}: 201 with the signing secret, shown this once. */
  .post("/webhook-endpoints", ...admins, async (c) => {
    const input = await readBody(c, webhookEndpointRequest);
    return c.json({ data: await createEndpoint(c.var.tenant, input, c.var.user!.row.id, now(c), rules(c)) }, 201);
  })
  .get("/webhook-endpoints/:id{[0-9]+}", ...admins, async (c) => c.json({ data: endpointView(await findEndpoint(c.var.tenant, endpointId(c)), now(c)) }))
  /** PUT /api/webhook-endpoints/{id}: the whole endpoint again (url, description, events). */
  .put("/webhook-endpoints/:id{[0-9]+}", ...admins, async (c) => {
    const input = await readBody(c, webhookEndpointRequest);
    return c.json({ data: await updateEndpoint(c.var.tenant, endpointId(c), input, now(c), rules(c)) });
  })
  .delete("/webhook-endpoints/:id{[0-9]+}", ...admins, async (c) => c.json({ data: await deleteEndpoint(c.var.tenant, endpointId(c), now(c)) }))
  /** POST /api/webhook-endpoints/{id}/rotate-secret: a new secret, shown this once; the old one signs too for 24 hours. */
  .post("/webhook-endpoints/:id{[0-9]+}/rotate-secret", ...admins, async (c) => c.json({ data: await rotateSecret(c.var.tenant, endpointId(c), now(c)) }))
  .post("/webhook-endpoints/:id{[0-9]+}/disable", ...admins, async (c) =>
    c.json({ data: await disableEndpoint(c.var.tenant, endpointId(c), c.var.user!.row.name, now(c)) }),
  )
  /** POST /api/webhook-endpoints/{id}/enable: sent to again (after the job or an admin disabled it). */
  .post("/webhook-endpoints/:id{[0-9]+}/enable", ...admins, async (c) => c.json({ data: await enableEndpoint(c.var.tenant, endpointId(c), now(c), rules(c)) }))
  /** POST /api/webhook-endpoints/{id}/test: a `webhook.test` event to this endpoint, sent before this answers (202). */
  .post("/webhook-endpoints/:id{[0-9]+}/test", ...admins, async (c) => {
    const id = await testable(c.var.tenant, endpointId(c));
    const deliveryId = await recordTestEvent(c.var.tenant, id, now(c));
    sendOnceCommitted(c, deliveryId, false);
    return c.json({ data: { id: deliveryId, endpoint_id: id } }, 202);
  })
  /** GET /api/webhook-endpoints/{id}/deliveries?status=&page=: newest first, 50 a page. */
  .get("/webhook-endpoints/:id{[0-9]+}/deliveries", ...admins, async (c) =>
    c.json({ data: await listDeliveries(c.var.tenant, endpointId(c), readQuery(c, webhookDeliveriesQuery)) }),
  )
  /** GET /api/webhook-endpoints/{id}/deliveries/{deliveryId}: the body sent, and each try with its answer. */
  .get("/webhook-endpoints/:id{[0-9]+}/deliveries/:deliveryId{[0-9]+}", ...admins, async (c) =>
    c.json({ data: await findDelivery(c.var.tenant, endpointId(c), pathId(c, "No such delivery.", "deliveryId")) }),
  )
  /**
   * POST /api/webhook-endpoints/{id}/deliveries/{deliveryId}/resend: one more try now, with the same `webhook-id`
   * (a delivered one too: the receiver may have lost it). Made before this answers (202); GET the delivery for its answer.
   */
  .post("/webhook-endpoints/:id{[0-9]+}/deliveries/:deliveryId{[0-9]+}/resend", ...admins, async (c) => {
    const id = await resendable(c.var.tenant, endpointId(c), pathId(c, "No such delivery.", "deliveryId"), now(c));
    sendOnceCommitted(c, id, true);
    return c.json({ data: { id, endpoint_id: endpointId(c) } }, 202);
  });
