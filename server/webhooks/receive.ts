import { mailSite } from "../member-mail/brand";
import { reportError } from "../core/observability/report";
import { and, eq, ne, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Config } from "../core/config";
import type { Db } from "../core/db/client";
import { gyms, webhook_calls } from "../core/db/schema";
import type { AkahuWebhookPayload, BankProvider } from "../core/providers/bank/bank-provider";
import type { Providers } from "../core/providers/registry";
import { tellMembers } from "../billing/refunds";
import type { Mailer } from "../core/mail/mailer";
import { logWarning } from "../core/observability/log";
import { akahuSubscriber, processAkahuEvent, processGoCardlessEvent, processStripeEvent, type Processed } from "./process";
import type { GoCardlessEvent } from "./gocardless-event";
import { refuseCall } from "./refused";
import type { Answer } from "./answer";
import type { WebhookSecrets } from "../core/webhooks/secrets";
import { verifyGoCardless, verifyStripe, type WebhookProvider } from "../core/webhooks/verify";

/**
 * One call to /api/webhooks/{provider}: its signature checked (a bad one: 401, never processed, stored as rejected
 * within bounds: ./refused.ts), then stored (raw body and headers, as received), then processed once per event id (a second
 * delivery of a processed event is stored as a duplicate and changes nothing), then the call's row says what
 * happened and how long it took. Replays (staff, from /webhook-calls) process a stored call again as a new call.
 */
export interface WebhookDeps {
  /** The system's handle for a provider's call; a replay runs on the staff request's own tenant handle. */
  db: Db;
  config: Config;
  /** What calls are checked with (../core/webhooks/secrets.ts): the environment's, else the installation's own. */
  secrets: WebhookSecrets;
  providers: Providers;
  now: () => Date;
  /** Tells members of refunds and chargebacks the providers' events write (none: nobody is told, as in some tests). */
  mailer?: Mailer | null;
}

/** Headers worth keeping: the provider's own and the delivery's shape. Never a cookie or an authorization. */
const KEPT = /^(stripe-signature|webhook-signature|x-akahu-signature|x-akahu-signing-key|content-type|user-agent|origin|x-request-id|x-forwarded-for)$/i;

export function keptHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([k]) => KEPT.test(k)));
}

export async function receiveWebhook(
  deps: WebhookDeps,
  provider: WebhookProvider,
  body: string,
  headers: Record<string, string>,
  replay: { of: number; organisationId: number | null } | null = null,
  /** The caller's address (a provider's call): refused calls are limited per address (./refused.ts). */
  from: string | null = null,
): Promise<Answer> {
  const started = performance.now();
  const { db } = deps;
  const replayOf = replay?.of ?? null;
  // PostgreSQL text cannot hold a NUL; no provider sends one, so such a body is stored marked and its signature fails.
  const stored = body.includes("\u0000") ? body.replaceAll("\u0000", "\uFFFD") : body;
  const header = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

  // 1. The signature. A replay was checked when it first came, on the very bytes stored.
  const secret = provider === "akahu" ? null : deps.secrets[provider];
  let event: { id: string; type: string; run: () => Promise<Processed> };
  try {
    if (provider === "stripe") {
      if (!secret && replayOf === null) throw new Error("No signing secret is set for Stripe (STRIPE_WEBHOOK_SECRET): deliveries are refused.");
      const e = replayOf === null ? await verifyStripe(body, header("stripe-signature"), secret!.secret, deps.now()) : (JSON.parse(body) as Stripe.Event);
      event = { id: e.id, type: e.type, run: () => processStripeEvent(db, deps.providers, e, deps.now()) };
    } else if (provider === "gocardless") {
      if (replayOf === null) {
        if (!secret) throw new Error("No signing secret is set for GoCardless (GOCARDLESS_WEBHOOK_SECRET): deliveries are refused.");
        verifyGoCardless(body, header("webhook-signature"), secret.secret);
      }
      const parsed = JSON.parse(body) as { events?: GoCardlessEvent[]; meta?: { webhook_id?: string } };
      const events = Array.isArray(parsed.events) ? parsed.events : [];
      event = {
        // GoCardless sends a batch of events; a redelivery of the batch carries the same webhook id.
        id: parsed.meta?.webhook_id ?? events.map((e) => e.id).join(","),
        type: events.map((e) => `${e.resource_type}.${e.action}`).join(", ") || "(no events)",
        run: async () => {
          const results: Processed[] = [];
          for (const e of events) results.push(await processGoCardlessEvent(db, deps.providers, e, deps.now()));
          return {
            // One refused event marks the whole call for staff; what the others did is in the result, and doing them
            // again on a redelivery changes nothing (payments only move forward).
            status: results.some((r) => r.status === "refused") ? "refused" : results.some((r) => r.status === "processed") ? "processed" : "ignored",
            result: results.map((r) => r.result).join(" ") || "No events.",
            organisationId: results.find((r) => r.organisationId)?.organisationId ?? null,
            told: results.flatMap((r) => r.told ?? []),
          };
        },
      };
    } else {
      const payload =
        replayOf === null
          ? await (await akahuFor(deps, body)).verifyWebhook(body, header("x-akahu-signing-key"), header("x-akahu-signature"))
          : (JSON.parse(body) as AkahuWebhookPayload);
      event = {
        // Akahu's payloads carry no event id: what happened to which item is the event.
        id: `${payload.webhook_type}.${payload.webhook_code}:${payload.item_id ?? payload.state}:${payload.status ?? payload.received_at ?? ""}`,
        type: `${payload.webhook_type}.${payload.webhook_code}`,
        run: () => processAkahuEvent(db, deps.providers, payload, deps.now()),
      };
    }
  } catch (err) {
    // Never processed; anyone can send these, so they are limited per address and kept only as a bounded sample.
    const message = err instanceof SyntaxError ? "The body is not JSON." : (err as Error).message;
    return refuseCall(db, { provider, headers, body: stored, from, now: deps.now(), message, started });
  }

  // Signed (or a replay of a call that was): stored before anything is done, so a crash mid-way leaves it to see.
  const [call] = await db
    .insert(webhook_calls)
    .values({ provider, status: "received", headers, body: stored, replay_of_id: replayOf, organisation_id: replay?.organisationId ?? null, received_at: deps.now() })
    .returning({ id: webhook_calls.id });
  const finish = async (values: Partial<typeof webhook_calls.$inferInsert>) => {
    await db
      .update(webhook_calls)
      .set({ ...values, duration_ms: Math.round(performance.now() - started) })
      .where(eq(webhook_calls.id, call.id));
  };

  // 2. Once per event: a later delivery of an event we processed is kept, and does nothing. Replays run again on
  // purpose (staff retrying a call that failed); settling only pending payments keeps that harmless.
  if (replayOf === null) {
    const [earlier] = await db
      .select({ id: webhook_calls.id, organisation_id: webhook_calls.organisation_id })
      .from(webhook_calls)
      .where(and(eq(webhook_calls.provider, provider), eq(webhook_calls.event_id, event.id), eq(webhook_calls.status, "processed"), ne(webhook_calls.id, call.id)))
      .limit(1);
    if (earlier) {
      const result = `Event ${event.id} was processed already (call ${earlier.id}).`;
      await finish({ status: "duplicate", event_id: event.id, event_type: event.type, organisation_id: earlier.organisation_id, result });
      return { status: 200, body: { message: "Duplicate: already processed.", call_id: call.id, result } };
    }
  }

  // 3. Processing.
  try {
    const processed = await event.run();
    await finish({ status: processed.status, event_id: event.id, event_type: event.type, organisation_id: processed.organisationId ?? replay?.organisationId ?? null, result: processed.result });
    if (deps.mailer && processed.told?.length) {
      // After the books are written; each e-mail once (its notice). A mail server down loses the e-mail, not the event.
      await tellMembers(db, { mailer: deps.mailer, site: mailSite(deps.config) }, processed.told).catch((err: unknown) => logWarning("[webhooks] member not told of a refund or chargeback", err, { call: call.id }));
    }
    // A refused event is answered 2xx too: sent again it would be refused again, for as long as the provider retries.
    const message = { processed: "Processed.", ignored: "Ignored.", refused: "Refused: not applied." }[processed.status];
    return { status: 200, body: { message, call_id: call.id, result: processed.result } };
  } catch (err) {
    // Stored as failed and answered 503, so the provider tries again later (a passing fault heals itself); staff can
    // also replay it from /webhook-calls once the cause is fixed.
    reportError(`[webhooks] ${provider} call ${call.id} failed`, err);
    await finish({ status: "failed", event_id: event.id, event_type: event.type, result: `Processing failed: ${(err as Error).message}` });
    return { status: 503, body: { message: "Stored; processing failed and will be tried again.", call_id: call.id } };
  }
}

/**
 * The Akahu client that checks a call: Akahu's keys are the same for every app, but fetching one needs an app's
 * credentials, so the app of a gym of the organisation the call's state names, else the deployment's (or the
 * sandbox). The state is read before the signature is checked only to choose whose credentials fetch the key.
 */
async function akahuFor(deps: WebhookDeps, body: string): Promise<BankProvider> {
  const subscriber = akahuSubscriber((JSON.parse(body) as { state?: string }).state);
  if (!subscriber) return deps.providers.bank(null);
  const withApp = await deps.db
    .select({ id: gyms.id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations })
    .from(gyms)
    .where(and(eq(gyms.organisation_id, subscriber.organisationId), sql`${gyms.integrations} ? 'akahu'`))
    .limit(1);
  return deps.providers.bank(withApp[0] ?? null);
}
