import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthRoutes } from "../../server/core/observability/health";
import { freshDatabase } from "./harness";

/** GET /healthz and /readyz (issue 19): no session, fast, no details; ready only when everything is. */
let db: Awaited<ReturnType<typeof freshDatabase>>;
let down: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
  down = await freshDatabase();
  await down.close();
});
afterAll(() => db?.close());

describe("health", () => {
  const state = { jobs: true, draining: false };
  const app = () => healthRoutes({ db: db.db, jobsStarted: () => state.jobs, draining: () => state.draining });

  it("says the process is up", async () => {
    const res = await app().request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("is ready when the database answers, the migrations are applied and the jobs run", async () => {
    const started = Date.now();
    const res = await app().request("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", checks: { database: true, migrations: true, jobs: true, accepting: true } });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("is not ready while the jobs have stopped or the process is shutting down", async () => {
    state.jobs = false;
    expect((await app().request("/readyz")).status).toBe(503);
    state.jobs = true;
    state.draining = true;
    const res = await app().request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "not ready", checks: { database: true, migrations: true, jobs: true, accepting: false } });
    state.draining = false;
  });

  it("is not ready when the database is down, and says nothing of why", async () => {
    const res = await healthRoutes({ db: down.db, jobsStarted: null, draining: () => false }).request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "not ready", checks: { database: false, migrations: false, jobs: true, accepting: true } });
    // Liveness is the process, not the database.
    expect((await healthRoutes({ db: down.db, jobsStarted: null, draining: () => false }).request("/healthz")).status).toBe(200);
  });
});
