import { randomBytes } from "node:crypto";
import { desc } from "drizzle-orm";
import { it } from "vitest";
import { parseConfig, type Config } from "../../server/core/config";
import { openDatabase, openPglite, pgliteDatabase, MIGRATIONS_FOLDER, type Database, type Db } from "../../server/core/db/client";
import { installDomainRules } from "../../server/core/db/domain-rules";
import * as schema from "../../server/core/db/schema";
import { createApi } from "../../server/api/app";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxSecretsOf } from "../../server/core/providers/sandbox-webhooks";
import { loadWebhookSecrets } from "../../server/core/webhooks/secrets";

/**
 * A fresh database per test file: PGlite cloned from a migrated template, or, when DATABASE_URL is set,
 * a new database on that PostgreSQL server, dropped afterwards.
 */
let template: Promise<Blob> | undefined;

async function pgliteTemplate() {
  const client = await openPglite("memory://");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  await installDomainRules(db as unknown as Db);
  const dump = await client.dumpDataDir("none");
  await client.close();
  return dump;
}

export async function freshDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const { default: pg } = await import("pg");
    const name = `gym_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: dbUrl.toString(), pgliteDir: "" });
    return {
      ...database,
      async close() {
        await database.close();
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  template ??= pgliteTemplate();
  // The server's own handle over it, one unit of work at a time as on a server (server/core/db/client.ts).
  return pgliteDatabase(await openPglite("memory://", await template));
}

/** Whether this run is on PostgreSQL (DATABASE_URL, as CI runs `npx vitest run tests/api`), not PGlite. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * A test of requests or workers racing each other. PGlite runs one query at a time, so there such a test could
 * only pass, whatever the guard it proves: it runs on PostgreSQL and is reported skipped on PGlite, saying why.
 */
export function itRaces(name: string, fn: () => Promise<void>, timeout?: number) {
  return it.skipIf(!onPostgres)(`${name} [a race: PostgreSQL only, skipped on PGlite, which runs one query at a time]`, fn, timeout);
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: "test", SESSION_SECRET: "s".repeat(40), TOAST_SECRET: "t".repeat(40), ...overrides });
}

/**
 * What this test database's installation signs and checks webhooks with (server/core/webhooks/secrets.ts): its own,
 * made at random, from the same place the server reads them. Never a constant.
 */
export async function signingSecrets(env: { db: Db; config: Config }) {
  const secrets = await loadWebhookSecrets(env.db, env.config);
  const sandbox = sandboxSecretsOf(secrets);
  if (!sandbox.stripe || !sandbox.gocardless || !sandbox.akahu || !secrets.kisi)
    throw new Error("This configuration has no installation secrets (production?)");
  return { stripe: sandbox.stripe, gocardless: sandbox.gocardless, akahu: sandbox.akahu, kisi: secrets.kisi.secret };
}

/** A client for the API with its own cookie jar, like one browser. */
export function browser(api: ReturnType<typeof createApi>, opts: { host?: string; ip?: string } = {}) {
  const jar = new Map<string, string>();
  const host = opts.host ?? "localhost:3000";
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = {
      method,
      headers: {
        "x-requested-with": "XMLHttpRequest",
        ...(body !== undefined && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" || body instanceof FormData ? body : JSON.stringify(body),
    };
    const res = await api.fetch(new Request(`http://${host}${path}`, init), { clientIp: opts.ip ?? "203.0.113.7" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      const expired = attrs.some((a) => /max-age=0/i.test(a) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  }
  return { call, jar };
}

export async function setup(overrides: Record<string, string> = {}) {
  const database = await freshDatabase();
  const config = testConfig(overrides);
  const api = createApi({ db: database.db, mailer: outboxMailer(database.db), config });
  return { ...database, api, config };
}

/** The newest e-mail to `to` in the outbox. */
export async function lastMail(db: Db, to: string) {
  const rows = await db.select().from(schema.mail_outbox).orderBy(desc(schema.mail_outbox.id));
  return rows.find((m) => m.to === to);
}

export async function lastCode(db: Db, to: string) {
  const mail = await lastMail(db, to);
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/** A browser signed in through the API, e-mailed code included. */
export async function signedIn(api: ReturnType<typeof createApi>, db: Db, email: string, password: string) {
  const b = browser(api);
  const login = await b.call("POST", "/api/login", { email, password });
  if (login.status !== 200) throw new Error(`sign-in failed for ${email}: ${login.status}`);
  const verified = await b.call("POST", "/api/email/verify", { code: await lastCode(db, email) });
  if (verified.status !== 200) throw new Error(`code refused for ${email}: ${verified.status}`);
  return b;
}
