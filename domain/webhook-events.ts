/**
 * Outgoing webhooks' vocabulary (issue 33, decision 0063): the events an organisation's endpoints may ask for, what
 * each is about, and the Standard Webhooks retry schedule. No zod here, so pages that only show it load none.
 */

/** What an event is about: its `data` is that resource as the API answers it. */
export type WebhookResource = "member" | "subscription" | "payment" | "visit" | "class_booking" | "class";

export const WEBHOOK_EVENTS = {
  "member.created": { resource: "member", label: "A member joined (signed up, walked in, added at the desk or imported)" },
  "member.updated": { resource: "member", label: "A member's details changed" },
  "subscription.started": { resource: "subscription", label: "A membership started (was added for a member)" },
  "subscription.paused": { resource: "subscription", label: "A membership was paused" },
  "subscription.resumed": { resource: "subscription", label: "A pause ended early or was taken off" },
  "subscription.cancelled": { resource: "subscription", label: "A membership was cancelled" },
  "subscription.price_changed": { resource: "subscription", label: "A price change was scheduled, or took effect" },
  "payment.succeeded": { resource: "payment", label: "A payment went through" },
  "payment.failed": { resource: "payment", label: "A payment failed" },
  "payment.refunded": { resource: "payment", label: "Money was given back on a payment" },
  "visit.created": { resource: "visit", label: "A visit was recorded, let in or refused (desk, door or kiosk)" },
  "booking.created": { resource: "class_booking", label: "A member booked a class, or joined its waitlist (themselves or at the desk)" },
  "booking.cancelled": { resource: "class_booking", label: "A class booking or waitlist place was cancelled (late ones too)" },
  "class.cancelled": { resource: "class", label: "A class on the timetable was cancelled" },
} as const satisfies Record<string, { resource: WebhookResource; label: string }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** Sent only when an admin asks ("Send test event"), to that endpoint alone; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** The `version` every payload carries: raised when a payload's shape changes in a way a receiver must know of. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

export type WebhookDeliveryStatus = "pending" | "succeeded" | "failed";

/**
 * The Standard Webhooks schedule (its spec's example): the first try at once, then after 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 14 h, 20 h and 24 h: ten tries over about three days. Seconds before try n+1 (n tries made so far).
 */
export const RETRY_DELAYS_SECONDS = [0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length;

/** An endpoint that has failed without one success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;

/** The previous signing secret still signs for this long after a rotation. */
export const PREVIOUS_SECRET_GRACE_MS = 86_400_000;

/** A `Retry-After` longer than this is not waited for: the schedule's own longest step. */
const LONGEST_WAIT_SECONDS = 24 * 3600;

/**
 * When try `attempts + 1` is due after `attempts` tries have failed at `now`, or null when there are no tries left.
 * Jitter (up to a tenth of the step, never less than the step) spreads a burst of failures; a `Retry-After` the
 * receiver sent (429, 503) is honoured when it asks for longer.
 */
export function nextAttemptAt(attempts: number, now: Date, opts: { retryAfterSeconds?: number | null; random?: () => number } = {}): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const step = RETRY_DELAYS_SECONDS[attempts];
  const jittered = step * (1 + (opts.random ?? Math.random)() * 0.1);
  const asked = Math.min(LONGEST_WAIT_SECONDS, Math.max(0, opts.retryAfterSeconds ?? 0));
  return new Date(now.getTime() + Math.round(Math.max(jittered, asked) * 1000));
}

/** `Retry-After` as seconds: a number, or an HTTP date (relative to `now`); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now.getTime()) / 1000));
}

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = { pending: "Sending", succeeded: "Delivered", failed: "Failed" };
