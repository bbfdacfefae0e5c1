import { randomBytes } from "node:crypto";
import { asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { LIST_PER_PAGE } from "../../domain/schemas/money-lists";
import type { WebhookEndpointInput } from "../../domain/schemas/webhook-endpoints";
import { PREVIOUS_SECRET_GRACE_MS, type WebhookDeliveryStatus } from "../../domain/webhook-events";
import { sealSecret } from "../core/crypto/secrets";
import { webhook_attempts, webhook_deliveries, webhook_endpoints, webhook_events } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid, notFound } from "../core/errors";
import { endpointRefusal, type AddressRules } from "./address";
import { failWaiting } from "./deliver";

/**
 * An organisation's webhook endpoints (issue 33), read and changed through the request's Tenant. The signing secret
 * (`whsec_` and 32 random bytes in base64, the Standard Webhooks form) is sealed at rest and given out twice only:
 * in the answer that made it, and in the answer to a rotation.
 */
export const MAX_ENDPOINTS = 20;

const NOT_FOUND = "No such webhook endpoint.";
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

type Row = typeof webhook_endpoints.$inferSelect;

/** An endpoint as the API answers it: never its secrets. */
export function endpointView(e: Row, at: Date) {
  const previousUntil = e.previous_secret_expires_at && e.previous_secret_expires_at > at ? e.previous_secret_expires_at : null;
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: !e.disabled_at,
    disabled_at: iso(e.disabled_at),
    disabled_reason: e.disabled_reason,
    failing_since: iso(e.failing_since),
    /** While set, the previous secret signs too (both signatures are sent), until this time. */
    previous_secret_expires_at: iso(previousUntil),
    created_at: iso(e.created_at),
    updated_at: iso(e.updated_at),
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

/** The endpoint of that id in this organisation, not deleted; 404 for another organisation's, as for none. */
export async function findEndpoint(t: Tenant, id: number): Promise<Row> {
  const [e] = await t.db
    .select()
    .from(webhook_endpoints)
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, id), isNull(webhook_endpoints.deleted_at)));
  if (!e) throw notFound(NOT_FOUND);
  return e;
}

/** Every endpoint, oldest first, with its latest delivery and how many are waiting or failed. */
export async function listEndpoints(t: Tenant, at: Date) {
  const rows = await t.db
    .select()
    .from(webhook_endpoints)
    .where(t.where(webhook_endpoints, isNull(webhook_endpoints.deleted_at)))
    .orderBy(asc(webhook_endpoints.created_at), asc(webhook_endpoints.id));
  const counts = await t.db
    .select({
      endpoint_id: webhook_deliveries.endpoint_id,
      status: webhook_deliveries.status,
      n: count(),
      last: sql<string | null>`max(${webhook_deliveries.last_attempt_at})`,
    })
    .from(webhook_deliveries)
    .where(t.where(webhook_deliveries))
    .groupBy(webhook_deliveries.endpoint_id, webhook_deliveries.status);
  return rows.map((e) => {
    const mine = counts.filter((c) => c.endpoint_id === e.id);
    const n = (s: WebhookDeliveryStatus) => mine.find((c) => c.status === s)?.n ?? 0;
    const last =
      mine
        .map((c) => c.last)
        .filter((v): v is string => Boolean(v))
        .sort()
        .at(-1) ?? null;
    return {
      ...endpointView(e, at),
      deliveries: { pending: n("pending"), succeeded: n("succeeded"), failed: n("failed"), last_attempt_at: last ? new Date(last).toISOString() : null },
    };
  });
}

async function refuseAddress(url: string, rules: AddressRules) {
  const refused = await endpointRefusal(url, rules);
  if (refused) throw invalid({ url: [refused] });
}

export async function createEndpoint(t: Tenant, input: WebhookEndpointInput, by: number, at: Date, rules: AddressRules) {
  await refuseAddress(input.url, rules);
  const [{ n }] = await t.db
    .select({ n: count() })
    .from(webhook_endpoints)
    .where(t.where(webhook_endpoints, isNull(webhook_endpoints.deleted_at)));
  if (n >= MAX_ENDPOINTS) throw invalid({ url: [`An organisation can have up to ${MAX_ENDPOINTS} endpoints: remove one first`] });
  const secret = newSigningSecret();
  const [made] = await t.db
    .insert(webhook_endpoints)
    .values(
      t.owned({
        url: input.url,
        description: input.description,
        events: input.events,
        secret: sealSecret(secret),
        created_by_user_id: by,
        created_at: at,
        updated_at: at,
      }),
    )
    .returning();
  return { ...endpointView(made, at), secret };
}

export async function updateEndpoint(t: Tenant, id: number, input: WebhookEndpointInput, at: Date, rules: AddressRules) {
  const e = await findEndpoint(t, id);
  if (input.url !== e.url) await refuseAddress(input.url, rules);
  const [updated] = await t.db
    .update(webhook_endpoints)
    .set({ url: input.url, description: input.description, events: input.events, updated_at: at })
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, e.id)))
    .returning();
  return endpointView(updated, at);
}

/** Gone from the list; its waiting deliveries are failed, and what it was sent stays for the records. */
export async function deleteEndpoint(t: Tenant, id: number, at: Date) {
  const e = await findEndpoint(t, id);
  await t.db
    .update(webhook_endpoints)
    .set({ deleted_at: at, updated_at: at })
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, e.id)));
  await failWaiting(t.db, [e.id], "The endpoint was removed.");
  return { id: e.id, deleted: true };
}

/**
 * A new secret; the old one goes on signing beside it for a day (both signatures in `webhook-signature`), so the
 * receiver can change its secret without refusing anything meanwhile. Rotating twice within the day drops the oldest.
 */
export async function rotateSecret(t: Tenant, id: number, at: Date) {
  const e = await findEndpoint(t, id);
  const secret = newSigningSecret();
  const [updated] = await t.db
    .update(webhook_endpoints)
    .set({
      secret: sealSecret(secret),
      previous_secret: e.secret,
      previous_secret_expires_at: new Date(at.getTime() + PREVIOUS_SECRET_GRACE_MS),
      updated_at: at,
    })
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, e.id)))
    .returning();
  return { ...endpointView(updated, at), secret };
}

export async function disableEndpoint(t: Tenant, id: number, byName: string, at: Date) {
  const e = await findEndpoint(t, id);
  if (e.disabled_at) return endpointView(e, at);
  const [updated] = await t.db
    .update(webhook_endpoints)
    .set({ disabled_at: at, disabled_reason: `Disabled by ${byName}.`, updated_at: at })
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, e.id)))
    .returning();
  await failWaiting(t.db, [e.id], "The endpoint was disabled.");
  return endpointView(updated, at);
}

/** Sent to again from now on, its failing streak forgotten. Deliveries failed meanwhile stay failed; each can be resent. */
export async function enableEndpoint(t: Tenant, id: number, at: Date, rules: AddressRules) {
  const e = await findEndpoint(t, id);
  // Rules may have tightened since it was saved.
  await refuseAddress(e.url, rules);
  const [updated] = await t.db
    .update(webhook_endpoints)
    .set({ disabled_at: null, disabled_reason: null, failing_since: null, updated_at: at })
    .where(t.where(webhook_endpoints, eq(webhook_endpoints.id, e.id)))
    .returning();
  return endpointView(updated, at);
}

/** One page of an endpoint's deliveries, newest first, each with its event and its latest try's time taken. */
export async function listDeliveries(t: Tenant, endpointId: number, q: { status?: WebhookDeliveryStatus; page: number }) {
  const e = await findEndpoint(t, endpointId);
  const where = t.where(webhook_deliveries, eq(webhook_deliveries.endpoint_id, e.id), q.status ? eq(webhook_deliveries.status, q.status) : undefined);
  const [{ total }] = await t.db.select({ total: count() }).from(webhook_deliveries).where(where);
  const rows = await t.db
    .select({
      id: webhook_deliveries.id,
      status: webhook_deliveries.status,
      attempts: webhook_deliveries.attempts,
      next_attempt_at: webhook_deliveries.next_attempt_at,
      last_attempt_at: webhook_deliveries.last_attempt_at,
      last_status: webhook_deliveries.last_status,
      last_error: webhook_deliveries.last_error,
      delivered_at: webhook_deliveries.delivered_at,
      created_at: webhook_deliveries.created_at,
      event_id: webhook_events.public_id,
      event_type: webhook_events.type,
      duration_ms: sql<
        number | null
      >`(select a.duration_ms from ${webhook_attempts} a where a.delivery_id = ${webhook_deliveries.id} order by a.attempted_at desc, a.id desc limit 1)`,
    })
    .from(webhook_deliveries)
    .innerJoin(webhook_events, eq(webhook_events.id, webhook_deliveries.event_id))
    .where(where)
    .orderBy(desc(webhook_deliveries.created_at), desc(webhook_deliveries.id))
    .limit(LIST_PER_PAGE)
    .offset((q.page - 1) * LIST_PER_PAGE);
  return {
    data: rows.map((r) => ({
      ...deliveryFields(r),
      event: { id: r.event_id, type: r.event_type },
      duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    })),
    meta: { page: q.page, per_page: LIST_PER_PAGE, total, pages: Math.max(1, Math.ceil(total / LIST_PER_PAGE)) },
  };
}

function deliveryFields(r: {
  id: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}) {
  return {
    id: r.id,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === "pending" ? r.next_attempt_at.toISOString() : null,
    last_attempt_at: iso(r.last_attempt_at),
    last_status: r.last_status,
    last_error: r.last_error,
    delivered_at: iso(r.delivered_at),
    created_at: r.created_at.toISOString(),
  };
}

/** One delivery of the endpoint: the event's body as sent, and every try with what came back. */
export async function findDelivery(t: Tenant, endpointId: number, deliveryId: number) {
  const e = await findEndpoint(t, endpointId);
  const [d] = await t.db
    .select({ d: webhook_deliveries, event: webhook_events })
    .from(webhook_deliveries)
    .innerJoin(webhook_events, eq(webhook_events.id, webhook_deliveries.event_id))
    .where(t.where(webhook_deliveries, eq(webhook_deliveries.id, deliveryId), eq(webhook_deliveries.endpoint_id, e.id)));
  if (!d) throw notFound("No such delivery.");
  const attempts = await t.db
    .select()
    .from(webhook_attempts)
    .where(t.where(webhook_attempts, eq(webhook_attempts.delivery_id, d.d.id)))
    .orderBy(desc(webhook_attempts.attempted_at), desc(webhook_attempts.id));
  return {
    ...deliveryFields(d.d),
    endpoint: { id: e.id, url: e.url, enabled: !e.disabled_at },
    event: { id: d.event.public_id, type: d.event.type, created_at: d.event.created_at.toISOString() },
    /** The body, byte for byte as it is sent (and signed) on every try. */
    body: JSON.stringify(d.event.payload),
    attempt_log: attempts.map((a) => ({
      id: a.id,
      attempted_at: a.attempted_at.toISOString(),
      request_headers: a.request_headers,
      response_status: a.response_status,
      response_body: a.response_body,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  };
}

/** A delivery an admin asks to send again: the endpoint must be on; the try is made once the request is committed. */
export async function resendable(t: Tenant, endpointId: number, deliveryId: number, at: Date) {
  const delivery = await findDelivery(t, endpointId, deliveryId);
  if (!delivery.endpoint.enabled) throw invalid({ delivery: ["The endpoint is disabled: enable it, then resend"] });
  const [held] = await t.db
    .select({ id: webhook_deliveries.id })
    .from(webhook_deliveries)
    .where(t.where(webhook_deliveries, eq(webhook_deliveries.id, deliveryId), sql`${webhook_deliveries.locked_until} > ${at.toISOString()}::timestamptz`));
  if (held) throw invalid({ delivery: ["It is being sent right now: look again in a moment"] });
  return delivery.id;
}

/** The endpoint must be on to be sent a test. */
export async function testable(t: Tenant, endpointId: number) {
  const e = await findEndpoint(t, endpointId);
  if (e.disabled_at) throw invalid({ endpoint: ["The endpoint is disabled: enable it, then send a test"] });
  return e.id;
}
