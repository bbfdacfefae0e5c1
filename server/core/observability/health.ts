import { readFileSync } from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { MIGRATIONS_FOLDER } from "../db/client";

/**
 * GET /healthz (the process is up) and GET /readyz (it can serve: the database answers, every migration is applied,
 * the job runner is started, and it is not shutting down), without a session, for a load balancer or an orchestrator
 * (issue 19). Each check has a short time limit, and the answers say which check failed, never why (no error text).
 */
export interface ReadinessSources {
  db: Db;
  /** null when this process runs no jobs (BILLING_JOBS=0): nothing to wait for. */
  jobsStarted: (() => boolean) | null;
  draining: () => boolean;
}

const CHECK_MS = 2000;
const within = <T>(work: Promise<T>, ms = CHECK_MS) => Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms).unref())]);

let expected: number | undefined;
/** How many migrations this build ships (drizzle/meta/_journal.json), read once. */
function expectedMigrations(): number {
  expected ??= (JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
  return expected;
}

async function migrated(db: Db): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const list = (rows as unknown as { rows?: { n: number }[] }).rows ?? (rows as unknown as { n: number }[]);
  return Number(list[0]?.n) >= expectedMigrations();
}

export async function readiness(s: ReadinessSources): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
  const ok = (p: Promise<unknown>) => within(p).then((v) => v !== false, () => false);
  const [database, migrations] = await Promise.all([ok(s.db.execute(sql`select 1`)), ok(migrated(s.db))]);
  const checks = { database, migrations, jobs: s.jobsStarted ? s.jobsStarted() : true, accepting: !s.draining() };
  return { ready: Object.values(checks).every(Boolean), checks };
}

export function healthRoutes(s: ReadinessSources) {
  return new Hono()
    .get("/healthz", (c) => c.json({ status: "ok" }, 200, { "Cache-Control": "no-store" }))
    .get("/readyz", async (c) => {
      const r = await readiness(s);
      return c.json({ status: r.ready ? "ready" : "not ready", checks: r.checks }, r.ready ? 200 : 503, { "Cache-Control": "no-store" });
    });
}
