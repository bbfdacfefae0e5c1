import { Webhook } from "standardwebhooks";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, retryAfterSeconds } from "../../domain/webhook-events";
import type { Config } from "../core/config";
import { openSecret } from "../core/crypto/secrets";
import type { Db } from "../core/db/client";
import { webhook_attempts, webhook_deliveries, webhook_endpoints } from "../core/db/schema";
import { rowsOf, unnestRows, arrayLiteral } from "../core/db/values";
import type { Mailer } from "../core/mail/mailer";
import { reportError } from "../core/observability/report";
import { addressRules } from "./address";
import { makeSender, type SendResult, type Sender } from "./send";
import { tellAdminsOfDisabled } from "./notice";

/**
 * The delivery job (issue 33, decision 0063): sends the outbox's due deliveries, each signed by the Standard Webhooks
 * scheme, and writes down what came back.
 *
 * - **Claimed, not read**: a sender takes a batch of due deliveries in one statement that skips rows another sender
 *   has locked and sets a lease (`locked_until`) on them. Only a delivery whose lease has run out can be taken again,
 *   so two senders (two processes, the job and an admin's "Send test") never send one delivery at once,
 *   and a sender killed mid-send lets its deliveries go when the lease ends. The lease outlasts a send's time-out.
 * - **At least once**: a sender that dies after the receiver answered but before the answer was written down sends
 *   again after the lease; the `webhook-id` is the same on every try, so a receiver keeps it to drop a repeat.
 * - **Answers written in batches**, one transaction each, on condition that the lease is still the one this sender
 *   took (one that outlived its lease changes nothing). 2xx is delivered, and the endpoint's failing streak ends;
 *   anything else is tried again on the Standard Webhooks schedule (domain/webhook-events.ts), honouring
 *   `Retry-After` on 429 and 503, until its tries run out. An endpoint failing without a success for three days, or
 *   answering 410 Gone, is disabled, its waiting deliveries failed, and the organisation's admins are e-mailed.
 * - **Fast and fair**: up to 200 POSTs in flight over kept-alive connections, claimed as room frees, at most 32 to one
 *   endpoint, so a slow receiver holds its own slots only; the answers are written a batch per transaction.
 */
export interface DeliveryDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  now?: () => Date;
}

export interface DeliveryOptions {
  /** POSTs in flight at once (default 200). */
  concurrency?: number;
  /** Deliveries claimed at a time, and answers written down in one transaction (default 50). */
  batch?: number;
  /** POSTs in flight to one endpoint at once (default 32, as many as its kept-alive connections). */
  perEndpoint?: number;
  /** How long a claim holds a delivery (default 60 s: longer than a send's time-out). */
  leaseMs?: number;
  /** Before ending, wait for a retry due within this long (default 0: the every-minute catch-up sends it). */
  waitForSoonMs?: number;
  /** Only these deliveries, now (an admin's test or resend). */
  only?: number[];
  /**
   * An admin's resend: tried whatever its state (not while another sender holds it); a failure leaves a delivered or
   * given-up delivery as it was, and a waiting one on its schedule.
   */
  manual?: boolean;
  sender?: Sender;
  random?: () => number;
}

export interface DeliveryReport {
  sent: number;
  succeeded: number;
  failed: number;
  retrying: number;
  disabled: number;
}

interface Claimed {
  id: number;
  organisation_id: number;
  endpoint_id: number;
  attempts: number;
  status: "pending" | "succeeded" | "failed";
  public_id: string;
  payload: unknown;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
}

let defaultSenders: { key: string; sender: Sender } | null = null;

/** One sender per settings for the process: its keep-alive connections serve every run. */
function senderFor(config: Config): Sender {
  const rules = addressRules(config);
  const key = JSON.stringify(rules);
  if (defaultSenders?.key !== key) defaultSenders = { key, sender: makeSender(rules) };
  return defaultSenders.sender;
}

export async function deliverDue(deps: DeliveryDeps, opts: DeliveryOptions = {}): Promise<DeliveryReport> {
  const now = deps.now ?? (() => new Date());
  const sender = opts.sender ?? senderFor(deps.config);
  const report: DeliveryReport = { sent: 0, succeeded: 0, failed: 0, retrying: 0, disabled: 0 };
  for (;;) {
    await sendAll(deps, sender, now, opts, report);
    const wait = opts.only || !opts.waitForSoonMs ? null : await soonest(deps.db, now(), opts.waitForSoonMs);
    if (wait === null) return report;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * Sends until nothing is due: up to `concurrency` POSTs in flight, claimed `batch` at a time as room frees (a slow
 * receiver holds its own slots, not a whole batch's), at most `perEndpoint` of them to any one endpoint (one slow or
 * flooded endpoint does not take every slot); the answers are written down together, a batch at a time, by one writer.
 */
async function sendAll(deps: DeliveryDeps, sender: Sender, now: () => Date, opts: DeliveryOptions, report: DeliveryReport) {
  const concurrency = opts.only ? opts.only.length : opts.concurrency ?? 200;
  const batch = Math.min(opts.batch ?? 50, concurrency);
  const perEndpoint = opts.perEndpoint ?? 32;
  const inFlight = new Map<number, number>();
  const sends = new Set<Promise<void>>();
  const answered: { claimed: { delivery: Claimed; lease: string }; outcome: Outcome }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let soon: NodeJS.Timeout | null = null;
  // One writer at a time, each taking what has come back since the last: few transactions, in order. An answer waits
  // at most 100 ms to be written (far inside its lease): a batch's worth is written at once.
  const write = () => {
    if (soon) clearTimeout(soon);
    soon = null;
    writing = writing.then(async () => {
      while (answered.length) {
        const taken = answered.splice(0, 200);
        await record(
          deps,
          taken.map((a) => a.claimed),
          taken.map((a) => a.outcome),
          now(),
          opts,
          report,
        );
      }
    });
    return writing;
  };
  const start = (claimed: { delivery: Claimed; lease: string }) => {
    const endpoint = claimed.delivery.endpoint_id;
    inFlight.set(endpoint, (inFlight.get(endpoint) ?? 0) + 1);
    const sent = send(sender, claimed, now()).then((outcome) => {
      inFlight.set(endpoint, inFlight.get(endpoint)! - 1);
      sends.delete(sent);
      answered.push({ claimed, outcome });
      if (answered.length >= batch || !sends.size) void write();
      else soon ??= setTimeout(() => void write(), 100);
    });
    sends.add(sent);
  };
  for (let exhausted = false; ; ) {
    const room = concurrency - sends.size;
    if (!exhausted && room >= Math.min(batch, concurrency)) {
      const claimed = await claim(deps.db, now(), { ...opts, room: Math.min(room, batch * 4), perEndpoint }, inFlight);
      for (const c of claimed) start(c);
      // Fewer than asked: nothing more is due now (or only to endpoints at their limit): wait for the sends to come back.
      exhausted = claimed.length < Math.min(room, batch * 4) || Boolean(opts.only);
      if (!exhausted) continue;
    }
    if (!sends.size) break;
    await Promise.race(sends);
    // A send came back: with room again, and maybe an endpoint below its limit, look for more. (One answered but not
    // yet written down is still under its lease: it is not taken again.)
    if (!opts.only && exhausted && sends.size <= concurrency / 2) exhausted = false;
  }
  await write();
}

/**
 * Takes up to `room` due deliveries (or the `only` ones) for this sender, with their event and endpoint, at most
 * `perEndpoint` to an endpoint counting the `inFlight` ones: the earliest due first, among the next few thousand.
 */
async function claim(
  db: Db,
  at: Date,
  opts: DeliveryOptions & { room: number; perEndpoint: number },
  inFlight: Map<number, number>,
): Promise<{ delivery: Claimed; lease: string }[]> {
  const lease = new Date(at.getTime() + (opts.leaseMs ?? 60_000)).toISOString();
  const nowIso = at.toISOString();
  const which = opts.only
    ? sql`d.id = any(${arrayLiteral(opts.only)}::int[])${opts.manual ? sql`` : sql` and d.status = 'pending'`}`
    : sql`d.status = 'pending' and d.next_attempt_at <= ${nowIso}::timestamptz`;
  // The lease: a delivery another sender holds is never taken. Checked where the rows are picked, again under their
  // lock, and again in the update, which PostgreSQL re-evaluates on the newest row version.
  const free = sql`(d.locked_until is null or d.locked_until <= ${nowIso}::timestamptz)`;
  const used = [...inFlight].filter(([, n]) => n > 0);
  const rows = rowsOf<Claimed>(
    await db.execute(sql`
      with candidates as (
        select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
        where ${which} and ${free}
        order by d.next_attempt_at
        limit ${Math.max(opts.room * 4, 100)}
      ), ranked as (
        select c.id, c.next_attempt_at,
          row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) + coalesce(u.used, 0) as place
        from candidates c
        left join unnest(${arrayLiteral(used.map(([id]) => id))}::int[], ${arrayLiteral(used.map(([, n]) => n))}::int[]) u(endpoint_id, used)
          on u.endpoint_id = c.endpoint_id
      ), due as (
        select d.id from webhook_deliveries d
        where d.id in (select id from ranked where place <= ${opts.perEndpoint}) and ${free}
        order by d.next_attempt_at, d.id
        limit ${opts.room}
        for update of d skip locked
      ), claimed as (
        update webhook_deliveries d set locked_until = ${lease}::timestamptz
        from due where d.id = due.id and ${free}
          -- A disabled or removed endpoint's waiting deliveries are failed with it (failWaiting): none should be here.
          and not exists (select 1 from webhook_endpoints ep where ep.id = d.endpoint_id and (ep.disabled_at is not null or ep.deleted_at is not null))
        returning d.id, d.organisation_id, d.event_id, d.endpoint_id, d.attempts, d.status
      )
      select c.id, c.organisation_id, c.endpoint_id, c.attempts, c.status, e.public_id, e.payload,
        ep.url, ep.secret, ep.previous_secret, ep.previous_secret_expires_at
      from claimed c
      join webhook_events e on e.id = c.event_id
      join webhook_endpoints ep on ep.id = c.endpoint_id`),
  );
  return rows.map((r) => ({
    delivery: { ...r, id: Number(r.id), organisation_id: Number(r.organisation_id), endpoint_id: Number(r.endpoint_id), attempts: Number(r.attempts) },
    lease,
  }));
}

const signers = new Map<string, Webhook>();

/** A Webhook per secret, kept (its key is decoded once); secrets are few. */
function signer(secret: string) {
  let w = signers.get(secret);
  if (!w) {
    if (signers.size > 1000) signers.clear();
    w = new Webhook(secret);
    signers.set(secret, w);
  }
  return w;
}

/**
 * The Standard Webhooks headers for one try: `webhook-signature` is the current secret's signature and, until it
 * expires after a rotation, the previous secret's, space-separated; a receiver accepts any one that matches.
 */
export function signedHeaders(
  delivery: Pick<Claimed, "public_id" | "secret" | "previous_secret" | "previous_secret_expires_at">,
  body: string,
  at: Date,
): Record<string, string> {
  const current = openSecret(delivery.secret);
  if (!current) throw new Error("This endpoint's signing secret cannot be opened with this server's CREDENTIALS_KEY: rotate it.");
  const secrets = [current];
  const previousUntil = delivery.previous_secret_expires_at ? new Date(delivery.previous_secret_expires_at) : null;
  if (delivery.previous_secret && previousUntil && previousUntil > at) {
    const previous = openSecret(delivery.previous_secret);
    if (previous) secrets.push(previous);
  }
  return {
    "content-type": "application/json",
    "user-agent": "GymMembership-Webhooks/1",
    "webhook-id": delivery.public_id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => signer(s).sign(delivery.public_id, at, body)).join(" "),
  };
}

interface Outcome {
  at: Date;
  headers: Record<string, string>;
  result: SendResult;
}

async function send(sender: Sender, { delivery }: { delivery: Claimed }, at: Date): Promise<Outcome> {
  const body = JSON.stringify(delivery.payload);
  let headers: Record<string, string>;
  try {
    headers = signedHeaders(delivery, body, at);
  } catch (err) {
    return { at, headers: {}, result: { status: null, body: null, durationMs: 0, error: (err as Error).message, retryAfter: null } };
  }
  return { at, headers, result: await sender.post(delivery.url, body, headers) };
}

const ok = (r: SendResult) => r.status !== null && r.status >= 200 && r.status < 300;

/** Writes one batch's answers in one transaction; then e-mails the admins of endpoints it disabled. */
async function record(
  deps: DeliveryDeps,
  claimed: { delivery: Claimed; lease: string }[],
  outcomes: Outcome[],
  at: Date,
  opts: DeliveryOptions,
  report: DeliveryReport,
) {
  const updates: unknown[][] = [];
  const succeededAt = new Set<number>();
  const failedAt = new Set<number>();
  const gone = new Set<number>();
  claimed.forEach(({ delivery: d, lease }, i) => {
    const { result, at: tried } = outcomes[i];
    const attempts = d.attempts + 1;
    report.sent++;
    if (ok(result)) {
      report.succeeded++;
      succeededAt.add(d.endpoint_id);
      updates.push([d.id, lease, "succeeded", attempts, tried.toISOString(), result.status, null, tried.toISOString(), tried.toISOString()]);
      return;
    }
    failedAt.add(d.endpoint_id);
    if (result.status === 410) gone.add(d.endpoint_id);
    const throttled = result.status === 429 || result.status === 503;
    const next = nextAttemptAt(attempts, at, { retryAfterSeconds: throttled ? retryAfterSeconds(result.retryAfter, at) : null, random: opts.random });
    // A resend that fails leaves a delivered or given-up delivery as it was.
    const status = opts.manual && d.status !== "pending" ? d.status : next ? "pending" : "failed";
    if (status === "pending") report.retrying++;
    else if (status === "failed") report.failed++;
    updates.push([
      d.id,
      lease,
      status,
      attempts,
      (next ?? at).toISOString(),
      result.status,
      result.error ?? `Answered ${result.status}`,
      null,
      tried.toISOString(),
    ]);
  });
  const disabled = await deps.db.transaction(async (tx) => {
    await tx.insert(webhook_attempts).values(
      claimed.map(({ delivery: d }, i) => ({
        organisation_id: d.organisation_id,
        delivery_id: d.id,
        attempted_at: outcomes[i].at,
        request_headers: outcomes[i].headers,
        response_status: outcomes[i].result.status,
        response_body: outcomes[i].result.body,
        duration_ms: outcomes[i].result.durationMs,
        error: outcomes[i].result.error,
      })),
    );
    await tx.execute(sql`
      update webhook_deliveries d set status = v.status, attempts = v.attempts, next_attempt_at = v.next_at, locked_until = null,
        last_attempt_at = v.tried_at, last_status = v.code, last_error = v.error, delivered_at = coalesce(v.delivered_at, d.delivered_at)
      from ${unnestRows(updates, ["int", "timestamptz", "text", "int", "timestamptz", "int", "text", "timestamptz", "timestamptz"])}
        v(id, lease, status, attempts, next_at, code, error, delivered_at, tried_at)
      where d.id = v.id and d.locked_until = v.lease`);
    // An endpoint that answered 2xx in this batch is not failing, whatever else it answered.
    const failing = [...failedAt].filter((id) => !succeededAt.has(id));
    if (succeededAt.size) {
      await tx
        .update(webhook_endpoints)
        .set({ failing_since: null })
        .where(and(inArray(webhook_endpoints.id, [...succeededAt]), sql`${webhook_endpoints.failing_since} is not null`));
    }
    if (!failing.length) return [];
    await tx
      .update(webhook_endpoints)
      .set({ failing_since: at })
      .where(and(inArray(webhook_endpoints.id, failing), isNull(webhook_endpoints.failing_since)));
    return disableFailing(tx, failing, gone, at);
  });
  report.disabled += disabled.length;
  for (const endpoint of disabled) {
    try {
      await tellAdminsOfDisabled(deps, endpoint);
    } catch (err) {
      reportError(`[outgoing-webhooks] could not e-mail the admins of disabled endpoint ${endpoint.id}`, err, { job: "webhook-delivery" });
    }
  }
}

export interface DisabledEndpoint {
  id: number;
  organisation_id: number;
  url: string;
  disabled_reason: string;
}

const GONE = "It answered 410 Gone: the receiver says it no longer wants events.";
const FAILING = "Every delivery to it has failed for three days.";

/** Endpoints that answered 410, or have failed for three days: disabled, and their waiting deliveries failed. */
async function disableFailing(tx: Db, failing: number[], gone: Set<number>, at: Date): Promise<DisabledEndpoint[]> {
  const cutoff = new Date(at.getTime() - DISABLE_AFTER_FAILING_MS);
  const disabled = rowsOf<DisabledEndpoint>(
    await tx.execute(sql`
      update webhook_endpoints set disabled_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz,
        disabled_reason = case when id = any(${arrayLiteral([...gone])}::int[]) then ${GONE} else ${FAILING} end
      where id = any(${arrayLiteral(failing)}::int[]) and disabled_at is null
        and (id = any(${arrayLiteral([...gone])}::int[]) or failing_since <= ${cutoff.toISOString()}::timestamptz)
      returning id, organisation_id, url, disabled_reason`),
  ).map((r) => ({ ...r, id: Number(r.id), organisation_id: Number(r.organisation_id) }));
  if (disabled.length)
    await failWaiting(
      tx,
      disabled.map((e) => e.id),
      "The endpoint was disabled.",
    );
  return disabled;
}

/** The waiting deliveries of endpoints that will not be sent to: failed (an admin may resend one once it is enabled). */
export async function failWaiting(db: Db, endpointIds: number[], why: string) {
  await db
    .update(webhook_deliveries)
    .set({ status: "failed", locked_until: null, last_error: why })
    .where(and(inArray(webhook_deliveries.endpoint_id, endpointIds), eq(webhook_deliveries.status, "pending")));
}

/** Milliseconds until the next retry when it is due within `within`; null when none is. */
async function soonest(db: Db, at: Date, within: number): Promise<number | null> {
  const [row] = rowsOf<{ next: string | Date | null }>(
    await db.execute(sql`
      select min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) as next from webhook_deliveries d
      where d.status = 'pending' and not exists (select 1 from webhook_endpoints ep where ep.id = d.endpoint_id and (ep.disabled_at is not null or ep.deleted_at is not null))`),
  );
  if (!row?.next) return null;
  const wait = new Date(row.next).getTime() - at.getTime();
  return wait <= within ? Math.max(50, wait) : null;
}
