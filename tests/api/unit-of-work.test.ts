import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecondHandleError } from "../../server/core/db/client";
import { withTenant } from "../../server/core/db/tenant";
import { makeOrganisation } from "../../server/seed/factories";
import { freshDatabase } from "./harness";

/**
 * Issue 29 H2: one database handle per unit of work. A query on the database's own handle from inside a unit of work
 * that holds a connection is refused at once (on PGlite it waited for ever: one connection, held by the transaction
 * that waits for the query). On PGlite, and on PostgreSQL with DATABASE_URL.
 */
let env: Awaited<ReturnType<typeof freshDatabase>>;
let organisationId: number;

beforeAll(async () => {
  env = await freshDatabase();
  organisationId = (await makeOrganisation(env.db, { name: "Units of Work" })).id;
});
afterAll(() => env.close());

/** Fails instead of hanging when `work` never settles. */
function within<T>(work: Promise<T>, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (a deadlock?)`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const one = sql`select 1 as one`;

/** Whether `work` was refused as a second handle (drizzle wraps a driver's error as the cause of its own). */
async function refused(work: Promise<unknown>) {
  const err = await within(work).then(() => null, (e: unknown) => e as Error & { cause?: unknown });
  return err instanceof SecondHandleError || err?.cause instanceof SecondHandleError ? "refused" : err;
}

describe("the database's own handle inside a unit of work", () => {
  it("is refused inside a transaction, which passes its own handle down instead", async () => {
    expect(await refused(env.db.transaction(async () => env.db.execute(one)))).toBe("refused");
    expect(await refused(env.db.transaction(async () => env.db.transaction(async (tx) => tx.execute(one))))).toBe("refused");
    await expect(within(env.db.transaction(async (tx) => tx.transaction(async (inner) => inner.execute(one))))).resolves.toBeDefined();
  });

  it("is refused inside an organisation's unit of work (a request's), read-only or atomic", async () => {
    for (const atomic of [false, true]) {
      const inside = withTenant(env.db, organisationId, null, async (t) => {
        await t.db.execute(one);
        return env.db.execute(one);
      }, { atomic });
      expect(await refused(inside)).toBe("refused");
      // And a second organisation's unit of work inside the first, the same.
      expect(await refused(withTenant(env.db, organisationId, null, async () => withTenant(env.db, organisationId, null, async (t) => t.db.execute(one)), { atomic }))).toBe("refused");
    }
  });

  it("is free again once the unit of work has ended, for what it started and did not wait for", async () => {
    let later: Promise<unknown> | undefined;
    await env.db.transaction(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() => env.db.execute(one));
    });
    await expect(within(later!)).resolves.toBeDefined();
    await expect(within(env.db.execute(one))).resolves.toBeDefined();
  });
});
