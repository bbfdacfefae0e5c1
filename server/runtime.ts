import { config, type Config } from "./core/config";
import { openDatabase, type Database } from "./core/db/client";
import { createApi, localJobs, type Api } from "./api/app";
import { switchableJobs } from "./core/job-starter";
import { startScheduler, type Scheduler } from "./jobs/scheduler";
import { configuredProviders } from "./core/providers/registry";
import { outboxMailer, smtpMailer } from "./core/mail/mailer";
import { healthRoutes } from "./core/observability/health";
import { loadWebhookSecrets } from "./core/webhooks/secrets";
import { flushReports, startErrorReporting } from "./core/observability/report";
import { logError } from "./core/observability/log";

/**
 * The process-wide runtime: settings, one database handle and the mounted gym API.
 * boot() runs once when the server starts, so the first request does not pay for PGlite's cold start.
 */
export interface Runtime {
  config: Config;
  database: Database;
  api: Api;
  /** The jobs the server runs by itself (the billing run), unless BILLING_JOBS=0. */
  jobs: Scheduler | null;
  /** GET /healthz and /readyz (server/core/observability/health.ts), answered before any page or API work. */
  health: ReturnType<typeof healthRoutes>;
  /**
   * From now on /readyz says no, so the load balancer stops sending new requests, and no new job is taken (another
   * process takes it): the first step of a SIGTERM.
   */
  drain(): void;
  /** Stops the jobs (letting a running one finish its step), sends queued error reports, closes the database: for SIGTERM. */
  stop(): Promise<void>;
}

let runtime: Promise<Runtime> | undefined;

export function boot(): Promise<Runtime> {
  runtime ??= (async () => {
    const cfg = config();
    startErrorReporting({ dsn: cfg.SENTRY_DSN, environment: cfg.SENTRY_ENVIRONMENT ?? cfg.NODE_ENV, tracesSampleRate: cfg.SENTRY_TRACES_SAMPLE_RATE });
    const database = await openDatabase({ databaseUrl: cfg.DATABASE_URL, pgliteDir: cfg.PGLITE_DIR });
    const mailer = cfg.SMTP_URL ? await smtpMailer(cfg.SMTP_URL, cfg.MAIL_FROM) : outboxMailer(database.db);
    if (cfg.SEED_DEMO) {
      const { seedDemoIfEmpty } = await import("./seed/demo");
      await seedDemoIfEmpty(database.db);
    }
    const providers = configuredProviders(database.db, cfg);
    // The installation's own webhook secrets, made at its first start where none is set (server/core/webhooks/secrets.ts).
    const webhookSecrets = await loadWebhookSecrets(database.db, cfg);
    // Jobs a request starts run here until the scheduler is up, then wherever pg-boss hands them.
    const starter = switchableJobs(localJobs({ db: database.db, mailer, config: cfg, providers }));
    const api = createApi({ db: database.db, mailer, config: cfg, providers, jobs: starter, webhookSecrets: Promise.resolve(webhookSecrets) });
    const jobs = cfg.BILLING_JOBS ? await startScheduler(database, { billingCron: cfg.BILLING_CRON, config: cfg, api, mailer, providers, webhookSecrets }) : null;
    if (jobs) starter.use(jobs);
    let draining = false;
    let jobsRunning = Boolean(jobs);
    return {
      config: cfg,
      database,
      api,
      jobs,
      health: healthRoutes({ db: database.db, jobsStarted: jobs ? () => jobsRunning : null, draining: () => draining }),
      drain: () => {
        draining = true;
        jobs?.pause().catch((err: unknown) => logError("[jobs] could not stop taking jobs", err));
      },
      stop: async () => {
        draining = true;
        await jobs?.stop();
        jobsRunning = false;
        await flushReports();
        await database.close();
      },
    };
  })();
  return runtime;
}

export const getRuntime = boot;
