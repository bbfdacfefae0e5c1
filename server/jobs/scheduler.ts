import { log, logError } from "../core/observability/log";
import { reportError } from "../core/observability/report";
import PgBoss from "pg-boss";
import { billingRun } from "../billing/run";
import { applyDueCancellations } from "../subscriptions/scheduled-cancel";
import type { Database } from "../core/db/client";
import type { Config } from "../core/config";
import { sendBillingNotices } from "../billing/notices";
import type { Mailer } from "../core/mail/mailer";
import type { Providers } from "../core/providers/registry";
import { deliverSandboxWebhooks, sandboxSecretsOf, type Deliver } from "../core/providers/sandbox-webhooks";
import type { WebhookSecrets } from "../core/webhooks/secrets";
import { defaultWindow, reconcile } from "../reconciliation/reconcile";
import { runBulkPriceChanges } from "../subscriptions/bulk-price-change";
import { importLinks, runImports } from "../imports/run";
import { runMemberNotices } from "../member-notices/run";
import { mailSite } from "../member-mail/brand";
import type { JobStarter } from "../core/job-starter";
import { deliverDue } from "../outgoing-webhooks/deliver";
import { eventsRecorded, provideEventResources } from "../outgoing-webhooks/events";
import { eventResourcesFor } from "../api/event-resources";
import { carryTimetablesForward } from "../classes/occurrences";
import { closeEndedClasses } from "../attendance/class-attendance";
import { chargeDropIns, refundSettledAfterCancel, releaseDeclined } from "../classes/drop-ins";

/**
 * Jobs the server runs by itself (issue 11): pg-boss on the app's own database, PGlite or PostgreSQL alike, in
 * its own schema. Schedules are kept in the database, and pg-boss hands each due one to a single process, so
 * several server processes (WEB_CONCURRENCY, or several machines on one PostgreSQL) run the billing once.
 *
 * - `billing-run`: daily (BILLING_CRON, Auckland time) and once at boot, as a catch-up after downtime; the run
 *   charges only what is due, so running it again the same day adds nothing. Its queue is a singleton: a run
 *   never starts while another is still going.
 * - `sandbox-webhooks`: every minute, the sandbox providers send the webhooks they owe (their ledger's changes).
 * - `member-imports`: started when staff confirm an import (server/imports/run.ts), and every minute as a catch-up.
 * - `bulk-price-changes`: started when staff confirm a bulk price change (server/core/job-starter.ts), and every minute
 *   as a catch-up: it goes on with any change a stopped process left half-done.
 * - `member-mail`: receipts and welcomes for payments that went through, and reminders to people who stopped joining
 *   (server/member-notices/), started after a request's charges and every minute as a catch-up (a webhook settles
 *   payments too).
 * - `webhook-delivery`: outgoing webhooks (server/outgoing-webhooks/deliver.ts), started once a request or a job has
 *   written events, and every minute as a catch-up and for retries come due; it waits for a retry due within 30 s.
 * - `reconciliation`: daily at 4 am Auckland, our payments compared with each provider's books for the last three
 *   days (server/reconciliation/reconcile.ts, decision 0042); open differences are reported to error tracking.
 * - `class-timetable`: daily after midnight Auckland, weekly classes written eight weeks ahead (server/classes/occurrences.ts).
 * - `class-attendance`: every five minutes, ended classes' bookings never attended become no-shows (server/attendance/class-attendance.ts).
 * Periodic tasks of later features are queues added to JOBS (and CRONS) below.
 */
export interface Scheduler extends JobStarter {
  /** Takes no new job from now on; the running one goes on (the start of a SIGTERM's drain). */
  pause(): Promise<void>;
  /**
   * Stops, waiting for the running job's current step, but never past SHUTDOWN_TIMEOUT_MS less 5 s, so the process's
   * own limit does not cut it first; a job cut off is retried by another process.
   */
  stop(): Promise<void>;
  /** Runs a job now, as the schedule would (tests, and the boot catch-up). */
  runNow(name: JobName): Promise<string | null>;
  boss: PgBoss;
}

export interface JobSettings {
  /** Cron for the billing run, in Pacific/Auckland time. */
  billingCron: string;
  config: Config;
  /** The gym API in this process: the sandbox providers send their webhooks to it, as the real ones would over HTTP. */
  api: { fetch(request: Request, env: { clientIp: string }): Response | Promise<Response> };
  mailer: Mailer;
  /** The outside services (server/core/providers/registry.ts), as the API in this process has them. */
  providers: Providers;
  /** What the sandboxes sign their webhooks with: the secrets our endpoints check (server/core/webhooks/secrets.ts). */
  webhookSecrets: WebhookSecrets;
}

interface JobContext {
  database: Database;
  settings: JobSettings;
}

const JOBS = {
  "billing-run": async ({ database, settings }: JobContext) => {
    // Cancellations that waited for their notice first (decision 0058): their last period was planned by an earlier run.
    const cancelled = await applyDueCancellations(database.db, new Date());
    const report = await billingRun(database.db, settings.providers, new Date());
    const notices = await sendBillingNotices(database.db, settings.mailer, settings.providers, new Date(), mailSite(settings.config));
    log.info({ job: "billing-run", cancelled, ...report, notices }, "job done");
  },
  // Every minute: the sandbox providers' webhooks that have come due, signed as our endpoint checks them.
  "sandbox-webhooks": async ({ database, settings }: JobContext) => {
    const deliver: Deliver = async (provider, body, headers) =>
      (await settings.api.fetch(new Request(`http://localhost/api/webhooks/${provider}`, { method: "POST", body, headers }), { clientIp: "127.0.0.1" })).status;
    const report = await deliverSandboxWebhooks(database.db, deliver, new Date(), settings.config.SANDBOX_WEBHOOKS, sandboxSecretsOf(settings.webhookSecrets));
    if (report.delivered + report.dropped + report.refused) log.info({ job: "sandbox-webhooks", ...report }, "job done");
  },
  "bulk-price-changes": async ({ database, settings }: JobContext) => {
    const report = await runBulkPriceChanges(database.db, { mailer: settings.mailer, site: mailSite(settings.config) });
    if (report.changes) log.info({ job: "bulk-price-changes", ...report }, "job done");
  },
  reconciliation: async ({ database, settings }: JobContext) => {
    const now = new Date();
    const { byKind, ...report } = await reconcile(database.db, settings.providers, defaultWindow(now), now, {
      mailer: settings.mailer,
      site: mailSite(settings.config),
    });
    log.info({ job: "reconciliation", ...report, byKind }, "job done");
  },
  "member-mail": async ({ database, settings }: JobContext) => {
    const report = await runMemberNotices(database.db, settings.mailer, settings.providers, new Date(), mailSite(settings.config));
    if (report.receipts + report.welcomes + report.skipped + report.reminded) log.info({ job: "member-mail", ...report }, "job done");
  },
  "member-imports": async ({ database, settings }: JobContext) => {
    const report = await runImports(database.db, settings.mailer, importLinks(settings.config));
    if (report.imports) log.info({ job: "member-imports", ...report }, "job done");
  },
  "webhook-delivery": async ({ database, settings }: JobContext) => {
    const report = await deliverDue({ db: database.db, mailer: settings.mailer, config: settings.config }, { waitForSoonMs: 30_000 });
    if (report.sent) log.info({ job: "webhook-delivery", ...report }, "job done");
  },
  // Daily: every weekly class's occurrences written eight weeks ahead (server/classes/occurrences.ts).
  "class-timetable": async ({ database }: JobContext) => {
    const report = await carryTimetablesForward(database.db, new Date());
    if (report.occurrences) log.info({ job: "class-timetable", ...report }, "job done");
  },
  // Every five minutes: classes that have ended close their attendance; those booked who never came are no-shows. A
  // drop-in whose card a provider declined late (a webhook, the billing run's retry) gives its place back.
  "class-attendance": async ({ database, settings }: JobContext) => {
    const report = await closeEndedClasses(database.db, new Date());
    const deps = { db: database.db, mailer: settings.mailer, config: settings.config, providers: settings.providers };
    const toCharge = await releaseDeclined(deps, new Date());
    if (toCharge.length) await chargeDropIns(deps, toCharge, new Date());
    const refunded = await refundSettledAfterCancel(deps, new Date());
    if (report.classes || toCharge.length || refunded)
      log.info({ job: "class-attendance", ...report, drop_ins_handed_on: toCharge.length, drop_ins_refunded: refunded }, "job done");
  },
} satisfies Record<string, (context: JobContext) => Promise<void>>;

const CRONS: Partial<Record<JobName, (settings: JobSettings) => { cron: string; tz?: string }>> = {
  "billing-run": (s) => ({ cron: s.billingCron, tz: "Pacific/Auckland" }),
  "sandbox-webhooks": () => ({ cron: "* * * * *" }),
  reconciliation: () => ({ cron: "0 4 * * *", tz: "Pacific/Auckland" }),
  "bulk-price-changes": () => ({ cron: "* * * * *" }),
  "member-imports": () => ({ cron: "* * * * *" }),
  "member-mail": () => ({ cron: "* * * * *" }),
  "webhook-delivery": () => ({ cron: "* * * * *" }),
  "class-timetable": () => ({ cron: "10 0 * * *", tz: "Pacific/Auckland" }),
  "class-attendance": () => ({ cron: "*/5 * * * *" }),
};

export type JobName = keyof typeof JOBS;

/** Where e-mails send members: PUBLIC_SIGNUP_URL, else the first sign-up host on this server's port. */

/** pg-boss's database, through the app's own connection: PGlite has only one, and PostgreSQL's pool is shared. */
function bossDb(database: Database): PgBoss.Db {
  const client = (database.db as unknown as { $client: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } }).$client;
  const pglite = database.kind === "pglite" ? (client as unknown as { exec(text: string): Promise<{ rows: unknown[] }[]> }) : null;
  return {
    async executeSql(text, values) {
      // pg-boss installs its schema as one script of many statements: PGlite runs those with exec, not query.
      if (pglite && (!values || values.length === 0)) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      return client.query(text, values);
    },
  };
}

export async function startScheduler(database: Database, settings: JobSettings): Promise<Scheduler> {
  provideEventResources(eventResourcesFor(settings.config));
  const boss = new PgBoss({ db: bossDb(database), schema: "pgboss", supervise: true, schedule: true });
  boss.on("error", (err) => logError("[jobs] pg-boss", err));
  // Machines starting at once race to install pg-boss's schema and queues; PostgreSQL ends one side of such a
  // race with a deadlock error, and that side only has to try again.
  await retryDeadlocks(async () => {
    await boss.start();
    for (const name of Object.keys(JOBS)) await boss.createQueue(name, { name, policy: "singleton", retryLimit: 3, retryDelay: 300, expireInHours: 2 });
    for (const [name, when] of Object.entries(CRONS)) {
      const { cron, tz } = when(settings);
      await boss.schedule(name, cron, {}, tz ? { tz } : {});
    }
  });
  for (const [name, work] of Object.entries(JOBS)) {
    await boss.work(name, async () => {
      const before = eventsRecorded();
      try {
        await work({ database, settings });
        // A job that wrote outgoing webhook events (the billing run's payments) has them sent now, not at the next minute.
        if (name !== "webhook-delivery" && eventsRecorded() !== before) scheduler.start("webhook-delivery");
      } catch (err) {
        // pg-boss retries the job; the failure is reported each time, so a job that keeps failing is seen.
        reportError(`[jobs] ${name} failed`, err, { job: name });
        throw err;
      }
    });
  }
  const scheduler: Scheduler = {
    boss,
    runNow: (name) => boss.send(name, {}),
    start: (name) => void boss.send(name, {}).catch((err: Error) => logError(`[jobs] ${name}: could not queue`, err)),
    pause: async () => {
      for (const name of Object.keys(JOBS)) await boss.offWork(name);
    },
    // The database is the app's: it closes it itself, after this.
    stop: () => boss.stop({ graceful: true, timeout: Math.max(1_000, settings.config.SHUTDOWN_TIMEOUT_MS - 5_000), wait: true, close: false }),
  };
  await scheduler.runNow("billing-run");
  return scheduler;
}

async function retryDeadlocks(work: () => Promise<void>, tries = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (i >= tries || (code !== "40P01" && code !== "23505")) throw err;
      await new Promise((r) => setTimeout(r, 100 * i + Math.random() * 200));
    }
  }
}
