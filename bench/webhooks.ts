/**
 * tsx bench/webhooks.ts (part of npm run bench): outgoing webhooks' throughput (issue 33). 1,000 events fanned out
 * to 10 endpoints (10,000 deliveries), each endpoint a receiver on 127.0.0.1 in a process of its own
 * (bench/webhook-receivers.ts) that verifies every signature with the `standardwebhooks` package and dedupes by
 * webhook-id. The events are real ones (visit.created, their payload read as the API answers a visit) written to the
 * outbox in one transaction; then the delivery job (server/outgoing-webhooks/deliver.ts) sends them all, timed.
 *
 *   npx tsx bench/webhooks.ts [--events 1000] [--endpoints 10]
 *
 * On PostgreSQL when DATABASE_URL is set (a throwaway database beside it, dropped at the end), else on PGlite in
 * memory. Budget: at least 500 deliveries a second, every one delivered once and verified.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { eventResourcesFor } from "../server/api/event-resources";
import { parseConfig } from "../server/core/config";
import { sealSecret } from "../server/core/crypto/secrets";
import { openDatabase, type Database } from "../server/core/db/client";
import { gyms, organisation_users, organisations, users, visits, webhook_deliveries, webhook_endpoints } from "../server/core/db/schema";
import { outboxMailer } from "../server/core/mail/mailer";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhook-events";
import { deliverDue } from "../server/outgoing-webhooks/deliver";
import { provideEventResources, recordWebhookEvents } from "../server/outgoing-webhooks/events";
import { insertReturningIds } from "../server/core/db/bulk";
import { startReceivers } from "./webhook-receivers";

const BUDGET_PER_SECOND = 500;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function open(): Promise<{ database: Database; kind: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { database: await openDatabase({ pgliteDir: "memory://" }), kind: "PGlite (in memory)", drop: async () => undefined };
  const name = `gym_bench_webhooks_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" }),
    kind: "PostgreSQL",
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function main() {
  const eventCount = arg("events", 1_000);
  const endpointCount = arg("endpoints", 10);
  const secrets = Array.from({ length: endpointCount }, () => `whsec_${randomBytes(32).toString("base64")}`);
  const receivers = await startReceivers(secrets);
  const { database, kind, drop } = await open();
  const { db } = database;
  const config = parseConfig({ NODE_ENV: "test", WEBHOOKS_ALLOW_LOOPBACK: "1" });
  try {
    const [org] = await db.insert(organisations).values({ name: "Bench Webhooks" }).returning();
    const [gym] = await db.insert(gyms).values({ organisation_id: org.id, name: "Bench" }).returning();
    const [member] = await db.insert(users).values({ name: "Bench Member", email: "bench.member@example.com" }).returning();
    await db.insert(organisation_users).values({ organisation_id: org.id, user_id: member.id, role: "member", home_gym_id: gym.id });
    await db
      .insert(webhook_endpoints)
      .values(receivers.urls.map((url, i) => ({ organisation_id: org.id, url, events: [...WEBHOOK_EVENT_TYPES], secret: sealSecret(secrets[i]) })));
    const visitIds = await insertReturningIds(
      db,
      visits,
      Array.from({ length: eventCount }, (_, i) => ({
        organisation_id: org.id,
        gym_id: gym.id,
        user_id: member.id,
        visited_at: new Date(Date.now() - i * 1000),
      })),
    );

    provideEventResources(eventResourcesFor(config));
    const written = performance.now();
    const deliveries = await db.transaction((tx) =>
      recordWebhookEvents(
        tx,
        visitIds.map((id) => ({ organisationId: org.id, type: "visit.created" as const, id })),
        new Date(),
      ),
    );
    const writeMs = performance.now() - written;

    const started = performance.now();
    const report = await deliverDue({ db, mailer: outboxMailer(db), config }, { concurrency: arg("concurrency", 200), batch: arg("batch", 50) });
    const seconds = (performance.now() - started) / 1000;
    const stats = await receivers.stats();
    const left = await db.$count(webhook_deliveries, undefined);
    const succeeded = report.succeeded;
    const rate = succeeded / seconds;
    console.log(
      `webhooks (${kind}): ${eventCount.toLocaleString("en")} events × ${endpointCount} endpoints = ${deliveries.toLocaleString("en")} deliveries, ` +
        `outbox written in ${(writeMs / 1000).toFixed(2)} s; delivered ${succeeded.toLocaleString("en")} in ${seconds.toFixed(2)} s = ${Math.round(
          rate,
        ).toLocaleString("en")} deliveries/s ` +
        `(budget ≥ ${BUDGET_PER_SECOND}/s); receivers verified ${stats.unique.toLocaleString("en")} unique, ${stats.duplicates} repeats, ${
          stats.invalid
        } invalid`,
    );
    const problems: string[] = [];
    if (succeeded !== deliveries || left !== deliveries) problems.push(`${deliveries - succeeded} deliveries not delivered`);
    if (stats.unique !== deliveries) problems.push(`the receivers took ${stats.unique} messages, not ${deliveries}`);
    if (stats.invalid) problems.push(`${stats.invalid} signatures did not verify`);
    if (rate < BUDGET_PER_SECOND) problems.push(`${Math.round(rate)} deliveries/s is under the budget of ${BUDGET_PER_SECOND}/s`);
    if (problems.length) {
      console.error(`webhooks: ${problems.join("; ")}`);
      process.exitCode = 1;
    }
  } finally {
    await receivers.close();
    await database.close();
    await drop();
  }
}

await main();
process.exit(process.exitCode ?? 0);
