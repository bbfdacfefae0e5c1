/**
 * tsx bench/members.ts (part of npm run bench): the members list (GET /api/members) and its CSV export on a
 * large PostgreSQL data set.
 *
 *   DATABASE_URL=postgres://…/gym_search_bench npx tsx scripts/seed.ts --members 100000
 *   DATABASE_URL=postgres://…/gym_search_bench npx tsx bench/members.ts
 *
 * 300 filtered pages as staff ask for them (status, offering, price, tag, text, gym, each sort both ways,
 * pages 1 to 40 and a few deep ones), one after another after a warm-up, through the gym API in-process
 * (a real session cookie, no socket). Then the CSV export of the whole organisation, with the live heap's growth (bench/stream-memory.ts).
 * Budget: p95 ≤ 50 ms for a filtered page.
 */
import { eq, sql } from "drizzle-orm";
import { createApi } from "../server/api/app";
import { sessionCookieName } from "../server/core/middleware";
import { currentUser } from "../server/core/current-user";
import { sha256 } from "../server/core/auth/crypto";
import { createSession, readSession } from "../server/core/auth/sessions";
import { parseConfig } from "../server/core/config";
import { openDatabase } from "../server/core/db/client";
import { organisation_users, prices, sessions, users } from "../server/core/db/schema";
import { outboxMailer } from "../server/core/mail/mailer";
import { DEMO_ACCOUNTS, mulberry32 } from "../server/seed/demo-data";
import { readStream } from "./stream-memory";

const P95_BUDGET_MS = 50;
const MIN_MEMBERS = 100_000;
const REQUESTS = 300;
const WARM_UP = 60;

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.log("bench/members.ts: skipped. It needs PostgreSQL with a large data set: set DATABASE_URL and run npm run seed -- --members 100000 --reset");
    return;
  }
  const database = await openDatabase({ databaseUrl, pgliteDir: "" });
  const { db } = database;
  let token: string | undefined;
  try {
    const counted = (await db.execute(sql`select count(*)::int as n from ${organisation_users} where role = 'member' and deleted_at is null`)) as unknown as { rows: { n: number }[] };
    const total = counted.rows[0].n;
    if (total < MIN_MEMBERS) {
      console.log(`bench/members.ts: skipped. The database has ${total} members; it needs at least ${MIN_MEMBERS}.`);
      return;
    }
    const [adminRow] = await db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS.admin));
    // Signed in as the API would see it: the session read brings the memberships.
    token = await createSession(db, adminRow.id, { twoFactorPassed: true, userAgent: "bench/members.ts" });
    const found = await readSession(db, token);
    if (!found) throw new Error("the bench session could not be read back");
    const admin = currentUser(found.user, found.memberships);
    const orgId = admin.organisation!.id;
    const priceRows = await db.select({ id: prices.id, offering_id: prices.offering_id }).from(prices).where(eq(prices.organisation_id, orgId));
    const tags = ((await db.execute(sql`select distinct unnest(tags) as tag from ${organisation_users} where organisation_id = ${orgId} limit 20`)) as unknown as { rows: { tag: string }[] }).rows.map((r) => r.tag);
    const names = ((await db.execute(sql`select split_part(u.name, ' ', 2) as s from ${users} u join ${organisation_users} ou on ou.user_id = u.id and ou.organisation_id = ${orgId} order by hashtext(u.id::text) limit 200`)) as unknown as { rows: { s: string }[] }).rows.map((r) => r.s).filter(Boolean);

    const r = mulberry32(4242);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const makeRequest = () => {
      const q = new URLSearchParams();
      const kinds: string[] = [];
      const filter = (kind: string, key: string, value: string) => {
        q.set(key, value);
        kinds.push(kind);
      };
      if (r() < 0.5) filter("status", "status", pick(["active", "paused", "cancelled", "grace_period", "upcoming", "none"]));
      if (r() < 0.15) filter("offering", "offering", String(pick(priceRows).offering_id));
      else if (r() < 0.1) filter("price", "price", String(pick(priceRows).id));
      if (r() < 0.15 && tags.length) filter("tag", "tag", pick(tags));
      if (r() < 0.2) filter("text", "q", pick(names).slice(0, 3 + Math.floor(r() * 4)).toLowerCase());
      if (r() < 0.3) filter("all gyms", "gym", "all");
      q.set("sort", pick(["name", "joined", "last_visit"] as const));
      if (r() < 0.4) q.set("dir", pick(["asc", "desc"] as const));
      q.set("page", String(r() < 0.9 ? 1 + Math.floor(r() * 40) : 100 + Math.floor(r() * 300)));
      return { query: q.toString(), kind: kinds.length ? kinds.join("+") : "no filter" };
    };
    const requests = Array.from({ length: REQUESTS }, makeRequest);
    const warmUp = Array.from({ length: WARM_UP }, makeRequest);

    const config = parseConfig({ NODE_ENV: "test", DATABASE_URL: databaseUrl });
    const api = createApi({ db, mailer: outboxMailer(db), config });
    const cookie = `${sessionCookieName(config)}=${token}`;
    const get = async (query: string) => {
      const res = await api.fetch(new Request(`http://localhost/api/members?${query}`, { headers: { cookie, "x-requested-with": "XMLHttpRequest" } }), { clientIp: "127.0.0.1" });
      if (res.status !== 200) throw new Error(`GET /api/members?${query} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { data: { meta: { total: number } } };
    };
    for (const w of warmUp) await get(w.query);
    const timings: { kind: string; query: string; ms: number }[] = [];
    for (const { query, kind } of requests) {
      const start = performance.now();
      await get(query);
      timings.push({ kind, query, ms: performance.now() - start });
    }
    const all = timings.map((t) => t.ms).sort((a, b) => a - b);
    console.log(`\nmembers list: ${total.toLocaleString("en-NZ")} members in the database; ${REQUESTS} filtered pages one at a time after ${WARM_UP} warm-up pages, as ${DEMO_ACCOUNTS.admin}`);
    console.log(`  GET /api/members in-process   p50 ${quantile(all, 0.5).toFixed(1)} ms  p95 ${quantile(all, 0.95).toFixed(1)} ms  p99 ${quantile(all, 0.99).toFixed(1)} ms  max ${all[all.length - 1].toFixed(1)} ms`);
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`  slowest: ${slowest.map((t) => `${t.query} ${t.ms.toFixed(0)} ms`).join("; ")}`);
    const p95 = quantile(all, 0.95);
    console.log(`  p95 ${p95.toFixed(1)} ms: ${p95 <= P95_BUDGET_MS ? "within" : "OVER"} the ${P95_BUDGET_MS} ms budget`);

    // The export of every member of the organisation, read to the end as a browser would.
    const figures = await readStream(() =>
      api.fetch(
        new Request("http://localhost/api/members/export", {
          method: "POST",
          headers: { cookie, "x-requested-with": "XMLHttpRequest", "content-type": "application/json" },
          body: JSON.stringify({ gym: "all" }),
        }),
        { clientIp: "127.0.0.1" },
      ),
    );
    console.log(
      `  POST /api/members/export (every gym): ${(figures.lines - 1).toLocaleString("en-NZ")} members, ${(figures.bytes / 1024 / 1024).toFixed(1)} MB in ${figures.seconds.toFixed(1)} s; ` +
        `live heap grew at most ${figures.liveHeapGrowthMb.toFixed(1)} MB while streaming (RSS ${figures.rssGrowthMb.toFixed(1)} MB)`,
    );
  } finally {
    if (token) await db.delete(sessions).where(eq(sessions.id, sha256(token)));
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
