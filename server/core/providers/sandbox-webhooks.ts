import { createHash } from "node:crypto";
import { asc, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { sandbox_ledger } from "../db/schema";
import type { WebhookSecrets } from "../webhooks/secrets";
import { gocardlessSignature, stripeSignature, type WebhookProvider } from "../webhooks/verify";
import { bankPaymentEvents, SANDBOX_SIGNING_KEY_ID, sandboxAkahuSignature } from "./bank/sandbox";
import { directDebitEvents } from "./direct-debit/sandbox";
import { GOCARDLESS_REFUND_PAID_AFTER_MS } from "./refunds";
import type { SandboxWebhookSettings } from "./sandbox-webhook-settings";

/**
 * The sandbox providers' webhooks (issue 11): what each offline provider owes our endpoint, sent as the real one
 * sends it, some time after it happened, signed as it signs:
 * - Stripe: for every charge, payment_intent.succeeded or payment_intent.payment_failed (Stripe-Signature);
 * - GoCardless: every status change of a direct debit (created, submitted, confirmed, paid_out or failed), several
 *   events in one webhook with its own id (Webhook-Signature);
 * - Akahu: every status change of a bank payment after the first, one PAYMENT UPDATE each (X-Akahu-Signature);
 * - refunds, whoever made them (our request or the provider's dashboard): Stripe's charge.refunded, GoCardless's
 *   refunds created and then paid, among its payments' events.
 * Like the real services they may be told to misbehave (SANDBOX_WEBHOOKS): send some twice, lose some, and send a
 * batch out of order. What our endpoint does not take (not 2xx) is sent again next time. The ledger row's
 * next_event_at says when its next unsent event happened; null once all were sent.
 */
export type Deliver = (provider: WebhookProvider, body: string, headers: Record<string, string>) => Promise<number>;

/** The secrets the sandboxes sign with: the installation's (server/core/webhooks/secrets.ts); Akahu's is a private key. */
export interface SandboxSecrets {
  stripe: string | null;
  gocardless: string | null;
  akahu: string | null;
}

/** What the sandboxes sign with, from the secrets our endpoints check. */
export const sandboxSecretsOf = (secrets: WebhookSecrets): SandboxSecrets => ({
  stripe: secrets.stripe?.secret ?? null,
  gocardless: secrets.gocardless?.secret ?? null,
  akahu: secrets.akahuSandboxKey,
});

type LedgerRow = typeof sandbox_ledger.$inferSelect;

const BATCH = 500;
/** GoCardless puts up to this many events in one webhook. */
const GOCARDLESS_EVENTS_PER_WEBHOOK = 50;

/** The event Stripe sends for a PaymentIntent in this ledger row: the same id however often it is sent. */
export function stripeEventFor(row: LedgerRow) {
  const succeeded = row.status === "succeeded";
  return {
    id: `evt_${row.object_id.replace(/^pi_/, "")}`,
    object: "event",
    api_version: "2025-10-29",
    created: Math.floor(row.created_at.getTime() / 1000),
    livemode: false,
    // A connected account's events say whose they are, as Stripe Connect sends them.
    ...(row.request.account ? { account: String(row.request.account) } : {}),
    type: succeeded ? "payment_intent.succeeded" : "payment_intent.payment_failed",
    data: {
      object: {
        id: row.object_id,
        object: "payment_intent",
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        metadata: (row.request.metadata as Record<string, string> | undefined) ?? {},
        last_payment_error: succeeded ? null : { type: "card_error", code: row.decline_code, decline_code: row.decline_code },
      },
    },
  };
}

/** Stripe's charge.refunded for a refund in the ledger (`stripe_refund`): the charge of the intent it refunds. */
export function stripeRefundEventFor(row: LedgerRow) {
  const intent = String(row.request.payment);
  return {
    id: `evt_${row.object_id}`,
    object: "event",
    api_version: "2025-10-29",
    created: Math.floor(row.created_at.getTime() / 1000),
    livemode: false,
    ...(row.request.scope ? { account: String(row.request.scope) } : {}),
    type: "charge.refunded",
    data: {
      object: {
        id: `ch_${intent.replace(/^pi_/, "")}`,
        object: "charge",
        payment_intent: intent,
        refunded: false,
        amount_refunded: row.amount,
        currency: row.currency,
        metadata: (row.request.metadata as Record<string, string> | undefined) ?? {},
      },
    },
  };
}

const stableId = (prefix: string, ...parts: string[]) => `${prefix}${createHash("sha256").update(parts.join(":")).digest("hex").slice(0, 14).toUpperCase()}`;

const GOCARDLESS_ACTION: Record<string, string> = { pending_submission: "created", submitted: "submitted", confirmed: "confirmed", paid_out: "paid_out", failed: "failed" };

/** A GoCardless event for one status of a ledger row's payment. */
export function gocardlessEventFor(row: LedgerRow, status: string, at: Date) {
  const action = GOCARDLESS_ACTION[status] ?? status;
  const failed = action === "failed";
  return {
    id: stableId("EV", row.object_id, action),
    created_at: at.toISOString(),
    resource_type: "payments",
    action,
    // A partner app's events name the creditor's organisation; the sandbox's, when the gym has one.
    links: { payment: row.object_id, ...(row.request.organisation ? { organisation: String(row.request.organisation) } : {}) },
    details: failed
      ? { origin: "bank", cause: row.decline_code ?? "failed", description: String(row.request.failure_description ?? "The payment failed.") }
      : { origin: "gocardless", cause: `payment_${action}`, description: `The payment was ${action.replace(/_/g, " ")}.` },
    metadata: {},
  };
}

/** A GoCardless event for one status of a refund in the ledger (`gocardless_refund`): created, then paid. */
export function gocardlessRefundEventFor(row: LedgerRow, status: string, at: Date) {
  return {
    id: stableId("EV", row.object_id, status),
    created_at: at.toISOString(),
    resource_type: "refunds",
    action: status,
    links: { refund: row.object_id, payment: String(row.request.payment), ...(row.request.scope ? { organisation: String(row.request.scope) } : {}) },
    details: { origin: "api", cause: `refund_${status}`, description: `The refund was ${status}.` },
    metadata: {},
  };
}

/** Akahu's PAYMENT UPDATE for one status of a ledger row's payment. */
export function akahuPayloadFor(row: LedgerRow, status: string) {
  const declined = status === "DECLINED";
  return {
    webhook_type: "PAYMENT",
    webhook_code: "UPDATE",
    state: String(row.request.state ?? ""),
    item_id: row.object_id,
    status,
    ...(declined ? { status_code: row.decline_code, status_text: String(row.request.status_text ?? "") } : {}),
  };
}

interface Due {
  row: LedgerRow;
  /** Its events, in order, with when each happened. */
  events: { status: string; at: Date }[];
}

function eventsOf(row: LedgerRow): Due["events"] {
  if (row.provider === "stripe") return [{ status: row.status, at: row.created_at }];
  if (row.provider === "gocardless") return directDebitEvents(row);
  if (row.provider === "akahu") return bankPaymentEvents(row).slice(1);
  if (row.provider === "stripe_refund") return [{ status: "refunded", at: row.created_at }];
  if (row.provider === "gocardless_refund") {
    return [
      { status: "created", at: row.created_at },
      { status: "paid", at: new Date(row.created_at.getTime() + GOCARDLESS_REFUND_PAID_AFTER_MS) },
    ];
  }
  return [];
}

export async function deliverSandboxWebhooks(
  db: Db,
  deliver: Deliver,
  now: Date,
  settings: SandboxWebhookSettings,
  secrets: SandboxSecrets,
  random: () => number = Math.random,
): Promise<{ delivered: number; duplicated: number; dropped: number; refused: number }> {
  const report = { delivered: 0, duplicated: 0, dropped: 0, refused: 0 };
  const cutoff = new Date(now.getTime() - settings.delaySeconds * 1000);
  const rows = await db
    .select()
    .from(sandbox_ledger)
    .where(lte(sandbox_ledger.next_event_at, cutoff))
    .orderBy(asc(sandbox_ledger.next_event_at), asc(sandbox_ledger.id))
    .limit(BATCH);

  // Each row's events that are due and not yet sent.
  const due = rows.map((row) => {
    const all = eventsOf(row);
    return { row, all, sending: all.slice(row.events_sent).filter((e) => e.at <= cutoff) };
  });
  if (settings.reorder) shuffle(due, random);

  const lost = new Set<number>();
  /** Sends one webhook (maybe twice, maybe not at all): whether its events count as sent (a lost one does). */
  const send = async (provider: WebhookProvider, body: string, headers: Record<string, string>, rowIds: number[]): Promise<boolean> => {
    if (random() < settings.drop) {
      report.dropped++;
      for (const id of rowIds) lost.add(id);
      return true;
    }
    const status = await deliver(provider, body, headers);
    if (status < 200 || status >= 300) {
      report.refused++;
      return false;
    }
    report.delivered++;
    if (random() < settings.duplicate) {
      await deliver(provider, body, headers);
      report.duplicated++;
    }
    return true;
  };
  const sent = new Map<number, number>();
  // Each webhook (or a bank payment's events, in their order) is a job, run in this order, `inFlight` at a time.
  const jobs: (() => Promise<void>)[] = [];

  for (const d of due.filter((x) => x.row.provider === "stripe" || x.row.provider === "stripe_refund")) {
    if (!secrets.stripe) break;
    const stripe = secrets.stripe;
    jobs.push(async () => {
      const body = JSON.stringify(d.row.provider === "stripe" ? stripeEventFor(d.row) : stripeRefundEventFor(d.row));
      const headers = { "content-type": "application/json", "stripe-signature": stripeSignature(body, stripe, now), "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks) sandbox" };
      if (await send("stripe", body, headers, [d.row.id])) sent.set(d.row.id, 1);
    });
  }

  const gocardless = due.filter((x) => (x.row.provider === "gocardless" || x.row.provider === "gocardless_refund") && x.sending.length);
  for (let i = 0; secrets.gocardless && i < gocardless.length; ) {
    // Whole rows into each webhook, up to its size: a row's events go together, in their order.
    const batch: Due[] = [];
    let size = 0;
    while (i < gocardless.length && (size === 0 || size + gocardless[i].sending.length <= GOCARDLESS_EVENTS_PER_WEBHOOK)) {
      size += gocardless[i].sending.length;
      batch.push({ row: gocardless[i].row, events: gocardless[i].sending });
      i++;
    }
    const secret = secrets.gocardless;
    jobs.push(async () => {
      const events = batch.flatMap((b) => b.events.map((e) => (b.row.provider === "gocardless" ? gocardlessEventFor(b.row, e.status, e.at) : gocardlessRefundEventFor(b.row, e.status, e.at))));
      if (settings.reorder) shuffle(events, random);
      const body = JSON.stringify({ events, meta: { webhook_id: stableId("WB", ...events.map((e) => e.id)) } });
      const headers = { "content-type": "application/json", "webhook-signature": gocardlessSignature(body, secret), "user-agent": "gocardless-webhook-service/1.1 sandbox" };
      if (await send("gocardless", body, headers, batch.map((b) => b.row.id))) for (const b of batch) sent.set(b.row.id, b.row.events_sent + b.events.length);
    });
  }

  for (const d of due.filter((x) => x.row.provider === "akahu")) {
    if (!secrets.akahu) break;
    const akahu = secrets.akahu;
    jobs.push(async () => {
      let count = d.row.events_sent;
      for (const e of d.sending) {
        const body = JSON.stringify(akahuPayloadFor(d.row, e.status));
        const headers = { "content-type": "application/json", "x-akahu-signature": sandboxAkahuSignature(body, akahu), "x-akahu-signing-key": String(SANDBOX_SIGNING_KEY_ID), "user-agent": "Akahu-Webhooks sandbox" };
        if (!(await send("akahu", body, headers, [d.row.id]))) break;
        count++;
      }
      if (count > d.row.events_sent) sent.set(d.row.id, count);
    });
  }

  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.inFlight ?? 1, jobs.length)) }, worker));

  for (const { row, all } of due) {
    const count = sent.get(row.id);
    if (count === undefined) continue;
    const next = all[count]?.at ?? null;
    await db
      .update(sandbox_ledger)
      .set({ events_sent: count, next_event_at: next, webhook_state: next ? null : lost.has(row.id) ? "dropped" : "delivered", webhook_at: now })
      .where(eq(sandbox_ledger.id, row.id));
  }
  return report;
}

function shuffle<T>(items: T[], random: () => number) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}

