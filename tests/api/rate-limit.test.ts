import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SWEEP_EVERY, take } from "../../server/core/auth/rate-limit";
import { rate_limits } from "../../server/core/db/schema";
import { setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("rate-limit rows", () => {
  it("are swept once their window has ended, so addresses that come and go leave nothing behind", async () => {
    const start = new Date("2026-05-04T02:00:00Z");
    const minute = 60_000;
    // Windows of one minute from many addresses, then the same number of attempts an hour later: by then every
    // earlier window has ended, and a sweep (every SWEEP_EVERY attempts) has removed them.
    for (let i = 0; i < SWEEP_EVERY; i++) await take(env.db, { key: `test:ip:${i}`, max: 5, windowMs: minute }, start);
    const later = new Date(start.getTime() + 60 * minute);
    for (let i = 0; i < SWEEP_EVERY; i++) await take(env.db, { key: `test:later:${i}`, max: 5, windowMs: minute }, later);
    const keys = (await env.db.select({ key: rate_limits.key }).from(rate_limits)).map((r) => r.key);
    expect(keys.filter((k) => k.startsWith("test:ip:"))).toEqual([]);
    expect(keys.filter((k) => k.startsWith("test:later:")).length).toBeGreaterThan(0);
  });

  it("keep a running window: a sweep never forgets attempts that still count", async () => {
    const now = new Date("2026-06-01T00:00:00Z");
    const limit = { key: "test:running", max: 3, windowMs: 60 * 60_000 };
    for (let i = 0; i < 3; i++) await take(env.db, limit, now);
    // Enough other attempts to sweep at least once, all within the running window.
    for (let i = 0; i < SWEEP_EVERY; i++) await take(env.db, { key: `test:other:${i}`, max: 5, windowMs: 60_000 }, new Date(now.getTime() + 120_000));
    expect((await take(env.db, limit, new Date(now.getTime() + 10 * 60_000))).allowed).toBe(false);
  });
});
