import { and, asc, inArray, isNull, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sandbox_ledger } from "../../db/schema";
import { stripeSignature } from "../../webhooks/verify";

/**
 * The sandbox Stripe's webhooks (issue 11): for every charge in its ledger it sends the event Stripe would
 * (payment_intent.succeeded or payment_intent.payment_failed), signed as Stripe signs, some time after the charge,
 * to our own endpoint. Like the real service it may be told to misbehave: send some events twice, lose some, and
 * send a batch out of order (SANDBOX_WEBHOOKS). An event our endpoint does not take (not 2xx) is sent again next time.
 */
export interface SandboxWebhookSettings {
  /** Seconds after the charge before its event is sent. */
  delaySeconds: number;
  /** Share of events sent twice (0–1). */
  duplicate: number;
  /** Share of events never sent (0–1). */
  drop: number;
  /** Send each batch in a shuffled order. */
  reorder: boolean;
}

export const DEFAULT_SANDBOX_WEBHOOKS: SandboxWebhookSettings = { delaySeconds: 30, duplicate: 0, drop: 0, reorder: false };

/** "delay=30,duplicate=0.1,drop=0.02,reorder=1" → settings; a bad part is an error naming it. */
export function parseSandboxWebhooks(text: string): SandboxWebhookSettings {
  const settings = { ...DEFAULT_SANDBOX_WEBHOOKS };
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [key, raw] = part.split("=").map((x) => x.trim());
    const value = Number(raw);
    if (key === "delay" && Number.isInteger(value) && value >= 0) settings.delaySeconds = value;
    else if ((key === "duplicate" || key === "drop") && value >= 0 && value <= 1) settings[key] = value;
    else if (key === "reorder" && (raw === "1" || raw === "0")) settings.reorder = raw === "1";
    else throw new Error(`"${part}": use delay=<seconds>, duplicate=<0–1>, drop=<0–1>, reorder=<0|1>`);
  }
  return settings;
}

export type Deliver = (provider: "stripe", body: string, headers: Record<string, string>) => Promise<number>;

const BATCH = 500;

/** The event Stripe sends for a PaymentIntent in this ledger row: the same id however often it is sent. */
export function stripeEventFor(row: typeof sandbox_ledger.$inferSelect) {
  const succeeded = row.status === "succeeded";
  return {
    id: `evt_${row.object_id.replace(/^pi_/, "")}`,
    object: "event",
    api_version: "2025-10-29",
    created: Math.floor(row.created_at.getTime() / 1000),
    livemode: false,
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

export async function deliverSandboxWebhooks(
  db: Db,
  deliver: Deliver,
  now: Date,
  settings: SandboxWebhookSettings,
  secret: string,
  random: () => number = Math.random,
): Promise<{ delivered: number; duplicated: number; dropped: number; refused: number }> {
  const report = { delivered: 0, duplicated: 0, dropped: 0, refused: 0 };
  const due = await db
    .select()
    .from(sandbox_ledger)
    .where(and(isNull(sandbox_ledger.webhook_state), lte(sandbox_ledger.created_at, new Date(now.getTime() - settings.delaySeconds * 1000))))
    .orderBy(asc(sandbox_ledger.created_at), asc(sandbox_ledger.id))
    .limit(BATCH);
  if (settings.reorder) {
    for (let i = due.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [due[i], due[j]] = [due[j], due[i]];
    }
  }
  const delivered: number[] = [];
  const dropped: number[] = [];
  for (const row of due) {
    if (random() < settings.drop) {
      dropped.push(row.id);
      continue;
    }
    const body = JSON.stringify(stripeEventFor(row));
    const send = () => deliver("stripe", body, { "content-type": "application/json", "stripe-signature": stripeSignature(body, secret, now), "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks) sandbox" });
    const status = await send();
    if (status < 200 || status >= 300) {
      report.refused++;
      continue;
    }
    delivered.push(row.id);
    if (random() < settings.duplicate) {
      await send();
      report.duplicated++;
    }
  }
  const mark = async (ids: number[], state: "delivered" | "dropped") => {
    if (ids.length) await db.update(sandbox_ledger).set({ webhook_state: state, webhook_at: now }).where(inArray(sandbox_ledger.id, ids));
  };
  await mark(delivered, "delivered");
  await mark(dropped, "dropped");
  report.delivered = delivered.length;
  report.dropped = dropped.length;
  return report;
}

