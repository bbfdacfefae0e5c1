import { randomBytes } from "node:crypto";
import { z } from "zod";
import { parseSandboxWebhooks } from "./providers/sandbox-webhook-settings";

/**
 * Every setting comes from the environment and is checked once, at start-up.
 * A bad value stops the server with a message naming the variable.
 */
const hostList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) => v.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean))
    .refine((hosts) => hosts.length > 0, "must name at least one host")
    .refine((hosts) => hosts.every((h) => !h.includes(":") && !h.includes("/")), "host names only, without ports or schemes");

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .default("")
  .transform((v) => v === "1" || v === "true" || v === "yes");

const secret = z.string().min(32, "must be at least 32 characters").optional();

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    BACKOFFICE_HOSTS: hostList("localhost,127.0.0.1"),
    SIGNUP_HOSTS: hostList("signup.localhost"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    PGLITE_DIR: z.string().default("./data/pglite"),
    SESSION_SECRET: secret,
    TOAST_SECRET: secret,
    SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
    MAIL_FROM: z.string().default("Gym Membership <no-reply@gym.localhost>"),
    API_BASE: z.string().url("must be a URL such as https://api.example.com").optional(),
    DEMO_MODE: flag,
    SEED_DEMO: flag,
    TRUST_PROXY: flag,
    /** Accounts one address may create on the public sign-up form in an hour. */
    SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    /** How old the dashboard's membership counts may be, on every server process alike (0: counted on every page). */
    DASHBOARD_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    /** Signing secrets of the providers' webhooks (whsec_… from Stripe's dashboard; GoCardless's endpoint secret). */
    STRIPE_WEBHOOK_SECRET: z.string().min(8, "must be the endpoint's signing secret (whsec_…)").optional(),
    GOCARDLESS_WEBHOOK_SECRET: z.string().min(8, "must be the endpoint's secret").optional(),
    /**
     * The outside services' own credentials (server/core/providers/registry.ts). Without them a service runs on its offline
     * sandbox, outside production or in a demo; a gym's own stored credentials (its GoCardless, Akahu, OneSignal and
     * Branch accounts) win over these.
     */
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, "must be a Stripe secret key (sk_live_… or sk_test_…)").optional(),
    /** Stripe Connect's OAuth client id (ca_…): gyms connect their own Stripe accounts from their settings page. */
    STRIPE_CONNECT_CLIENT_ID: z.string().regex(/^ca_/, "must be a Stripe Connect client id (ca_…)").optional(),
    /** GoCardless partner app's OAuth client: gyms connect their own GoCardless accounts from their settings page. */
    GOCARDLESS_CLIENT_ID: z.string().min(8, "must be the GoCardless app's client id").optional(),
    GOCARDLESS_CLIENT_SECRET: z.string().min(8, "must be the GoCardless app's client secret").optional(),
    GOCARDLESS_ACCESS_TOKEN: z.string().min(8, "must be a GoCardless access token").optional(),
    /** Which of GoCardless's environments that token belongs to: its test-mode sandbox or live. */
    GOCARDLESS_ENVIRONMENT: z.enum(["live", "sandbox"]).default("live"),
    AKAHU_APP_TOKEN: z.string().regex(/^app_token_/, "must be an Akahu app token (app_token_…)").optional(),
    AKAHU_APP_SECRET: z.string().min(8, "must be the Akahu app's secret").optional(),
    ONESIGNAL_APP_ID: z.string().uuid("must be a OneSignal app id (a uuid)").optional(),
    ONESIGNAL_API_KEY: z.string().min(8, "must be a OneSignal REST API key").optional(),
    KISI_API_KEY: z.string().min(8, "must be a Kisi API key").optional(),
    /** The secret Kisi signs its event webhooks with (X-Kisi-Signature), set on the webhook in Kisi's dashboard. */
    KISI_WEBHOOK_SECRET: z.string().min(16, "must be 16+ characters").optional(),
    /**
     * The sandbox Akahu's signing key (a PEM private key), where the sandbox runs: by default each installation makes
     * its own at first start (server/core/webhooks/secrets.ts); set, the sandbox signs with this one (the end-to-end tests
     * sign calls with it from outside the server).
     */
    AKAHU_SANDBOX_SIGNING_KEY: z.string().includes("PRIVATE KEY", { message: "must be a PEM private key" }).optional(),
    BRANCH_KEY: z.string().regex(/^key_(live|test)_/, "must be a Branch key (key_live_…)").optional(),
    /**
     * The key gyms' stored provider credentials are encrypted with (server/core/crypto/secrets.ts): 32+ random characters,
     * kept with the database's backups but never in them. Required in production; a demo and development use a
     * fixed development key, so their data survives a restart (it protects nothing there).
     */
    CREDENTIALS_KEY: z.string().min(32, "must be 32+ random characters").optional(),
    /** The sign-up app's address as members reach it, for links in e-mails sent with no request to read it from. */
    PUBLIC_SIGNUP_URL: z.string().url("must be a URL such as https://join.example.com").optional(),
    /** The back-office's address, for links in e-mails a job sends (an import's invitations to set a password). */
    PUBLIC_BACKOFFICE_URL: z.string().url("must be a URL such as https://admin.example.com").optional(),
    /** How the sandbox providers send their webhooks: delay=<s>,duplicate=<0–1>,drop=<0–1>,reorder=<0|1> (server/core/providers/sandbox-webhooks.ts). */
    SANDBOX_WEBHOOKS: z
      .string()
      .default("delay=30")
      .transform((v, ctx) => {
        try {
          return parseSandboxWebhooks(v);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message });
          return z.NEVER;
        }
      }),
    /** The billing run and other jobs inside the server (server/jobs/scheduler.ts); BILLING_JOBS=0 switches them off. */
    BILLING_JOBS: z
      .enum(["1", "0", "true", "false", "yes", "no"])
      .default("1")
      .transform((v) => v === "1" || v === "true" || v === "yes"),
    /** When the daily billing run starts: a cron line in Pacific/Auckland time (default 10 am). */
    BILLING_CRON: z
      .string()
      .default("0 10 * * *")
      .refine((v) => v.trim().split(/\s+/).length === 5, "must be a cron line of five fields, such as 0 10 * * *"),
    /** Error reporting and tracing (Sentry; server/core/observability/report.ts): off without a DSN. */
    SENTRY_DSN: z.string().url("must be a Sentry DSN (https://…@….ingest.sentry.io/…)").optional(),
    /** The share of requests traced, 0 to 1 (SPEC §9: 0.5). */
    SENTRY_TRACES_SAMPLE_RATE: z.coerce.number().min(0, "must be from 0 to 1").max(1, "must be from 0 to 1").default(0.5),
    SENTRY_ENVIRONMENT: z.string().optional(),
    /** The browser's reporting (back-office pages only): a DSN meant to be public, usually the same project's. */
    PUBLIC_SENTRY_DSN: z.string().url("must be a Sentry DSN").optional(),
    /** How long a SIGTERM waits for requests in flight and the current job step before the process ends anyway. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
    /**
     * After SIGTERM, how long the process keeps serving while /readyz answers 503, so the load balancer stops sending
     * it requests before its listener closes (a connection it opened in the meantime would otherwise be cut).
     * Longer than the balancer's health check takes to mark a server down (interval × fall).
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
    /**
     * Outgoing webhooks may go to this machine's own loopback addresses (127.0.0.1, ::1), over plain http: for the tests,
     * the benchmark and a demo's local receiver only (server/outgoing-webhooks/address.ts). Refused in production.
     */
    WEBHOOKS_ALLOW_LOOPBACK: flag,
    /** Only honoured when NODE_ENV=test: a cheaper scrypt so the suites stay fast. */
    TEST_SCRYPT_LOG2N: z.coerce.number().int().min(10).max(17).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SMTP_URL && !env.DEMO_MODE) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message:
          "is required in production: without it mail goes to the /dev/mail outbox, which anyone could read. Set SMTP_URL, or DEMO_MODE=1 for a demo.",
      });
    }
    for (const [a, b] of [["AKAHU_APP_TOKEN", "AKAHU_APP_SECRET"], ["ONESIGNAL_APP_ID", "ONESIGNAL_API_KEY"], ["GOCARDLESS_CLIENT_ID", "GOCARDLESS_CLIENT_SECRET"], ["STRIPE_CONNECT_CLIENT_ID", "STRIPE_SECRET_KEY"]] as const) {
      if (!env[a] !== !env[b]) ctx.addIssue({ code: "custom", path: [env[a] ? b : a], message: `is needed with ${env[a] ? a : b}` });
    }
    // A provider's key means the provider's own webhooks will come, signed with the endpoint's secret from its dashboard:
    // without it every one would be refused (or, once, checked against a secret anyone could read), so no start.
    for (const [key, secret, where] of [
      ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "the endpoint's signing secret (whsec_…) from Stripe's dashboard"],
      ["GOCARDLESS_ACCESS_TOKEN", "GOCARDLESS_WEBHOOK_SECRET", "the webhook endpoint's secret from GoCardless's dashboard"],
      ["GOCARDLESS_CLIENT_ID", "GOCARDLESS_WEBHOOK_SECRET", "the partner app's webhook secret from GoCardless's dashboard"],
      ["KISI_API_KEY", "KISI_WEBHOOK_SECRET", "the secret set on the event webhook in Kisi's dashboard"],
    ] as const) {
      if (env[key] && !env[secret]) ctx.addIssue({ code: "custom", path: [secret], message: `is required with ${key}: ${where}, which the provider signs its webhooks with` });
    }
    if (env.NODE_ENV === "production" && !env.DEMO_MODE && env.WEBHOOKS_ALLOW_LOOPBACK) {
      ctx.addIssue({ code: "custom", path: ["WEBHOOKS_ALLOW_LOOPBACK"], message: "is for tests and demos: in production it would let anyone's webhook endpoint reach this machine's own services" });
    }
    if (env.NODE_ENV === "production" && !env.DEMO_MODE) {
      for (const key of ["SESSION_SECRET", "TOAST_SECRET", "CREDENTIALS_KEY"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required in production (32+ random characters)" });
      }
    }
  });

export type Config = Omit<z.infer<typeof schema>, "SESSION_SECRET" | "TOAST_SECRET"> & {
  SESSION_SECRET: string;
  TOAST_SECRET: string;
  /** True when mail goes to the database outbox and /dev/mail exists. */
  outboxMail: boolean;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset (`DATABASE_URL= npm start`).
  const result = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  // Outside production a missing secret is made up per process: sessions then end at each restart.
  const made = (name: string, value: string | undefined) => {
    if (value) return value;
    if (parsed.NODE_ENV !== "test") console.warn(`[config] ${name} not set: using a random one for this process`);
    return randomBytes(32).toString("hex");
  };
  return {
    ...parsed,
    SESSION_SECRET: made("SESSION_SECRET", parsed.SESSION_SECRET),
    TOAST_SECRET: made("TOAST_SECRET", parsed.TOAST_SECRET),
    outboxMail: !parsed.SMTP_URL,
  };
}

let current: Config | undefined;

/** The process-wide settings, parsed on first use. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

export function setConfigForTests(c: Config) {
  current = c;
}

/** The sign-up app's address, for links we hand out (e-mails, private price links): PUBLIC_SIGNUP_URL, else this server's sign-up host. */
export const backofficeUrl = (config: Config) => (config.PUBLIC_BACKOFFICE_URL ?? `http://${config.BACKOFFICE_HOSTS[0]}:${config.PORT}`).replace(/\/$/, "");
export const signupUrl = (config: Config) => config.PUBLIC_SIGNUP_URL ?? `http://${config.SIGNUP_HOSTS[0]}:${config.PORT}/`;
