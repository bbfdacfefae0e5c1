import { afterAll, beforeAll, expect, it } from "vitest";
import { ABSOLUTE_MS, createSession, IDLE_MS, readSession } from "../../server/core/auth/sessions";
import { makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

it("ends a session after the idle limit and after the absolute limit", async () => {
  const user = await makeUser(env.db, { name: "x", email: "x@example.com" });
  const t0 = new Date("2026-11-22T00:00:00Z");
  const token = await createSession(env.db, user.id, { twoFactorPassed: true }, t0);
  expect(await readSession(env.db, token, new Date(t0.getTime() + IDLE_MS - 1000))).not.toBeNull();
  expect(await readSession(env.db, token, new Date(t0.getTime() + 2 * IDLE_MS))).toBeNull();

  // Kept busy, it still ends at the absolute limit.
  let at = t0.getTime();
  const busy = await createSession(env.db, user.id, { twoFactorPassed: true }, t0);
  while (at + IDLE_MS / 2 < t0.getTime() + ABSOLUTE_MS) {
    at += IDLE_MS / 2;
    expect(await readSession(env.db, busy, new Date(at))).not.toBeNull();
  }
  expect(await readSession(env.db, busy, new Date(t0.getTime() + ABSOLUTE_MS + 1))).toBeNull();
  expect(await readSession(env.db, "not-a-token")).toBeNull();
});
