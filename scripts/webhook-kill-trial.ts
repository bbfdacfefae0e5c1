/**
 * The webhook kill trial (issue 33, decision 0063): the delivery process is killed with SIGKILL mid-delivery, again
 * and again, and what the receivers took is reckoned against the outbox: no message lost, none taken twice by a
 * receiver that dedupes by `webhook-id`, every signature good.
 *
 * - **The outbox**: on a throwaway PostgreSQL database beside DATABASE_URL (default
 *   postgres://postgres@127.0.0.1:5432/postgres), KILL_EVENTS events (default 2,000), real ones (visit.created, their
 *   payload read as the API answers a visit), fanned out to KILL_ENDPOINTS endpoints (default 5), written as the
 *   product writes them (server/outgoing-webhooks/events.ts).
 * - **The receivers** (bench/webhook-receivers.ts): one per endpoint on 127.0.0.1, in a process that is never killed,
 *   each verifying every request with the `standardwebhooks` package and keeping the webhook-ids it has taken; they
 *   answer after up to 20 ms, so kills land with POSTs in the air.
 * - **The kills**: a child process runs the delivery job (deliverDue, with a lease of KILL_LEASE_MS, default 1.5 s, so
 *   a dead child's claims come free quickly). The parent watches the receivers and kills the child with SIGKILL once
 *   it has delivered a random share of what is left for this kill, KILL_KILLS times (default 20), noting how many
 *   deliveries the dead child still held (claimed, sent or not, answer not written). Then a last child runs to the end.
 * - **The reckoning**: every delivery in the database delivered; the receivers took exactly the pairs (endpoint,
 *   webhook-id) the outbox holds, no more and no fewer; no signature refused. Repeats the receivers dropped (a
 *   killed child's sends whose answers it never wrote, sent again after the lease) are reported: at least once is
 *   the promise, dedupe by webhook-id makes it exactly once. Any loss, stranger or bad signature fails (exit 1).
 *
 *   npm test runs it small (scripts/test.sh, with DATABASE_URL); npm run webhook-kill-trial for the full one.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { startReceivers } from "../bench/webhook-receivers";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhook-events";
import { eventResourcesFor } from "../server/api/event-resources";
import { parseConfig } from "../server/core/config";
import { sealSecret } from "../server/core/crypto/secrets";
import { insertReturningIds } from "../server/core/db/bulk";
import { openDatabase } from "../server/core/db/client";
import { gyms, organisation_users, organisations, users, visits, webhook_endpoints } from "../server/core/db/schema";
import { rowsOf } from "../server/core/db/values";
import { outboxMailer } from "../server/core/mail/mailer";
import { deliverDue } from "../server/outgoing-webhooks/deliver";
import { provideEventResources, recordWebhookEvents } from "../server/outgoing-webhooks/events";

const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};
const leaseMs = int("KILL_LEASE_MS", 1_500);

if (process.argv[2] === "--child") {
  // The delivery process: the job as the scheduler runs it, until nothing is left to send (a dead child's claims
  // are waited for until their lease ends).
  const database = await openDatabase({ databaseUrl: process.argv[3], pgliteDir: "", migrate: false });
  const config = parseConfig({ NODE_ENV: "test", WEBHOOKS_ALLOW_LOOPBACK: "1" });
  await deliverDue({ db: database.db, mailer: outboxMailer(database.db), config }, { leaseMs, waitForSoonMs: leaseMs + 1_000, concurrency: 60, batch: 10 });
  await database.close();
  process.exit(0);
}

const events = int("KILL_EVENTS", 2_000);
const endpointCount = int("KILL_ENDPOINTS", 5);
const kills = int("KILL_KILLS", 20);
const base = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const name = `gym_webhook_kill_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const started = performance.now();
const secrets = Array.from({ length: endpointCount }, () => `whsec_${randomBytes(32).toString("base64")}`);
const receivers = await startReceivers(secrets, { delayMs: 20 });
let failed = true;
try {
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  const { db } = database;
  const [org] = await db.insert(organisations).values({ name: "Kill Trial" }).returning();
  const [gym] = await db.insert(gyms).values({ organisation_id: org.id, name: "Trial" }).returning();
  const [member] = await db.insert(users).values({ name: "Trial Member", email: "trial.member@example.com" }).returning();
  await db.insert(organisation_users).values({ organisation_id: org.id, user_id: member.id, role: "member", home_gym_id: gym.id });
  const endpointIds = await insertReturningIds(
    db,
    webhook_endpoints,
    receivers.urls.map((u, i) => ({ organisation_id: org.id, url: u, events: [...WEBHOOK_EVENT_TYPES], secret: sealSecret(secrets[i]) })),
  );
  const visitIds = await insertReturningIds(
    db,
    visits,
    Array.from({ length: events }, (_, i) => ({ organisation_id: org.id, gym_id: gym.id, user_id: member.id, visited_at: new Date(Date.now() - i * 1000) })),
  );
  provideEventResources(eventResourcesFor(parseConfig({ NODE_ENV: "test", WEBHOOKS_ALLOW_LOOPBACK: "1" })));
  let total = 0;
  for (let i = 0; i < visitIds.length; i += 500) {
    const batch = visitIds.slice(i, i + 500);
    total += await db.transaction((tx) =>
      recordWebhookEvents(
        tx,
        batch.map((id) => ({ organisationId: org.id, type: "visit.created" as const, id })),
        new Date(),
      ),
    );
  }
  console.log(
    `webhook kill trial: ${events.toLocaleString("en")} events × ${endpointCount} endpoints = ${total.toLocaleString(
      "en",
    )} deliveries, ${kills} kills, lease ${leaseMs} ms`,
  );

  const script = fileURLToPath(import.meta.url);
  const child = () =>
    spawn(process.execPath, ["--import", "tsx", script, "--child", url.toString()], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, KILL_LEASE_MS: String(leaseMs) },
    });
  // Claims this child made (each lease runs from its claim, so later than the child's start plus a lease) and left unanswered.
  const held = async (since: Date) =>
    Number(
      rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from webhook_deliveries where status = 'pending' and locked_until >= ${new Date(
            since.getTime() + leaseMs,
          ).toISOString()}::timestamptz`,
        ),
      )[0].n,
    );
  const landed: { took: number; held: number }[] = [];
  for (let k = 0; k < kills; k++) {
    const before = (await receivers.stats()).unique;
    const left = total - before;
    if (left <= 0) break;
    // A random share of this kill's part of what is left, at least one: kills spread over the whole delivery.
    const target = before + 1 + Math.floor(Math.random() * Math.max(1, left / (kills - k + 1)));
    const startedAt = new Date();
    const proc = child();
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    while (!done && (await receivers.stats()).unique < target) await new Promise((r) => setTimeout(r, 10));
    if (done) {
      const code = await exited;
      if (code !== 0) throw new Error(`the delivery process failed (exit ${code})`);
      break;
    }
    proc.kill("SIGKILL");
    await exited;
    landed.push({ took: (await receivers.stats()).unique - before, held: await held(startedAt) });
  }
  const last = child();
  const code = await new Promise<number | null>((resolve) => last.on("exit", resolve));
  if (code !== 0) throw new Error(`the last delivery process failed (exit ${code})`);

  const stats = await receivers.stats({ ids: true });
  const expected = new Set(
    rowsOf<{ endpoint_id: number; public_id: string }>(
      await db.execute(sql`select d.endpoint_id, e.public_id from webhook_deliveries d join webhook_events e on e.id = d.event_id`),
    ).map((r) => `${endpointIds.indexOf(Number(r.endpoint_id))} ${r.public_id}`),
  );
  const took = new Set(stats.ids);
  const lost = [...expected].filter((x) => !took.has(x));
  const strangers = [...took].filter((x) => !expected.has(x));
  const states = rowsOf<{ status: string; n: number }>(await db.execute(sql`select status, count(*)::int as n from webhook_deliveries group by status`));
  const notDelivered = states.filter((s) => s.status !== "succeeded").reduce((sum, s) => sum + Number(s.n), 0);
  await database.close();
  const withHeld = landed.filter((l) => l.held > 0).length;
  console.log(
    `webhook kill trial: ${landed.length} kills (${withHeld} of them while the dead process held deliveries, ${landed.reduce(
      (s, l) => s + l.held,
      0,
    )} in all), ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s. Receivers: ${stats.requests.toLocaleString("en")} requests, ${stats.unique.toLocaleString(
        "en",
      )} messages taken, ` +
      `${stats.duplicates} repeats dropped by webhook-id, ${stats.invalid} bad signatures. Lost: ${lost.length}; taken but never written: ${strangers.length}; ` +
      `deliveries not delivered: ${notDelivered}`,
  );
  failed = lost.length > 0 || strangers.length > 0 || stats.invalid > 0 || notDelivered > 0 || stats.unique !== total;
  if (failed) console.error("webhook kill trial: FAILED", { lost: lost.slice(0, 5), strangers: strangers.slice(0, 5), states });
} finally {
  await receivers.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(failed ? 1 : 0);
