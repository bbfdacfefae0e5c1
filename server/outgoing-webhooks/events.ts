import { randomBytes } from "node:crypto";
import { and, inArray, isNull } from "drizzle-orm";
import { WEBHOOK_EVENTS, WEBHOOK_PAYLOAD_VERSION, WEBHOOK_TEST_EVENT, type WebhookEventType, type WebhookResource } from "../../domain/webhook-events";
import type { Db } from "../core/db/client";
import { webhook_deliveries, webhook_endpoints, webhook_events } from "../core/db/schema";
import { tenantOn, type Tenant } from "../core/db/tenant";
import { reportError } from "../core/observability/report";

/**
 * The outbox (issue 33, decision 0063): an event is written in the same transaction as the change it tells of, with
 * one delivery per endpoint that asked for it, so a change that commits has its deliveries and one that rolls back
 * has none, whatever happens to the process after. The delivery job (./deliver.ts) sends them.
 *
 * The payload's `data` is the resource as the API answers it. The readers that make it live with their resources
 * (members, subscriptions, payments, visits), which themselves record events: the composition hands them in
 * (`provideEventResources`, server/api/event-resources.ts) so this folder imports none of theirs.
 */
export type EventResources = Record<WebhookResource, (t: Tenant, id: number, at: Date) => Promise<unknown>>;

let resources: EventResources | null = null;

/** Called once by the composition (createApi, the scheduler) before any event is recorded. */
export function provideEventResources(readers: EventResources) {
  resources = readers;
}

/**
 * How many events with at least one delivery this process has written: the composition compares it before and after
 * a request or a job and, when it grew, starts the delivery job (after the commit, so the deliveries are there to
 * find). A rolled-back write only costs a start that finds nothing; the every-minute catch-up covers anything missed.
 */
let recorded = 0;
export const eventsRecorded = () => recorded;

/** Where an event is written: the request's Tenant, or the system's transaction and the organisation it is about. */
export type EventScope = Tenant | { db: Db; organisationId: number };

export interface EventToRecord {
  organisationId: number;
  type: WebhookEventType;
  /** The resource's id: a member's user id, a subscription's, a payment's or a visit's. */
  id: number;
}

/** A `webhook-id`: unique, not guessable, no `.` (the Standard Webhooks spec signs `id.timestamp.body`). */
export const newMessageId = () => `msg_${randomBytes(16).toString("base64url")}`;

const isTenant = (scope: EventScope): scope is Tenant => "where" in scope;

/** Records one event about one resource, in the caller's transaction. */
export async function recordWebhookEvent(scope: EventScope, type: WebhookEventType, id: number, at: Date): Promise<void> {
  await recordWebhookEvents(scope.db, [{ organisationId: scope.organisationId, type, id }], at, isTenant(scope) ? scope : undefined);
}

/**
 * Records a batch of events (the billing run's outcomes) on `db`, in its transaction. One query finds the endpoints
 * of the organisations involved; an organisation without an endpoint that wants an event costs nothing more. Answers
 * how many deliveries were written.
 */
export async function recordWebhookEvents(db: Db, events: EventToRecord[], at: Date, tenant?: Tenant): Promise<number> {
  if (!events.length) return 0;
  const organisations = [...new Set(events.map((e) => e.organisationId))];
  const endpoints = await db
    .select({ id: webhook_endpoints.id, organisation_id: webhook_endpoints.organisation_id, events: webhook_endpoints.events })
    .from(webhook_endpoints)
    .where(and(inArray(webhook_endpoints.organisation_id, organisations), isNull(webhook_endpoints.disabled_at), isNull(webhook_endpoints.deleted_at)));
  if (!endpoints.length) return 0;
  const rows: { event: typeof webhook_events.$inferInsert; endpoints: number[] }[] = [];
  for (const e of events) {
    const to = endpoints.filter((ep) => ep.organisation_id === e.organisationId && ep.events.includes(e.type)).map((ep) => ep.id);
    if (!to.length) continue;
    const t = tenant && tenant.organisationId === e.organisationId ? tenant : tenantOn(db, e.organisationId);
    const data = await resourceData(t, WEBHOOK_EVENTS[e.type].resource, e.id, at);
    const event = { organisation_id: e.organisationId, public_id: newMessageId(), type: e.type, payload: payload(e.type, data, at), created_at: at };
    rows.push({ event, endpoints: to });
  }
  return writeOutbox(db, rows, at);
}

/** `webhook.test` for one endpoint only, when an admin asks: answers the delivery's id. */
export async function recordTestEvent(t: Tenant, endpointId: number, at: Date): Promise<number> {
  const data = { endpoint_id: endpointId, message: "A test event, sent from the Developers page. Answer 2xx to show it arrived." };
  const event = {
    organisation_id: t.organisationId,
    public_id: newMessageId(),
    type: WEBHOOK_TEST_EVENT,
    payload: payload(WEBHOOK_TEST_EVENT, data, at),
    created_at: at,
  };
  const [made] = await t.db.insert(webhook_events).values(event).returning({ id: webhook_events.id });
  const [delivery] = await t.db
    .insert(webhook_deliveries)
    .values({ organisation_id: t.organisationId, event_id: made.id, endpoint_id: endpointId, next_attempt_at: at, created_at: at })
    .returning({ id: webhook_deliveries.id });
  recorded++;
  return delivery.id;
}

const payload = (type: string, data: unknown, at: Date) => ({ type, version: WEBHOOK_PAYLOAD_VERSION, timestamp: at.toISOString(), data });

async function resourceData(t: Tenant, resource: WebhookResource, id: number, at: Date): Promise<unknown> {
  try {
    if (!resources) throw new Error("no resource readers: the composition (createApi, the scheduler, a script) calls provideEventResources first");
    return (await resources[resource](t, id, at)) ?? { id };
  } catch (err) {
    // The change it tells of must not fail for its webhook: the receiver gets the id, and we hear why.
    reportError(`[outgoing-webhooks] could not read ${resource} ${id} for an event`, err);
    return { id };
  }
}

async function writeOutbox(db: Db, rows: { event: typeof webhook_events.$inferInsert; endpoints: number[] }[], at: Date): Promise<number> {
  if (!rows.length) return 0;
  const made = await db
    .insert(webhook_events)
    .values(rows.map((r) => r.event))
    .returning({ id: webhook_events.id, public_id: webhook_events.public_id });
  const ids = new Map(made.map((m) => [m.public_id, m.id]));
  const deliveries = rows.flatMap((r) =>
    r.endpoints.map((endpointId) => ({
      organisation_id: r.event.organisation_id,
      event_id: ids.get(r.event.public_id)!,
      endpoint_id: endpointId,
      next_attempt_at: at,
      created_at: at,
    })),
  );
  await db.insert(webhook_deliveries).values(deliveries);
  recorded += rows.length;
  return deliveries.length;
}
