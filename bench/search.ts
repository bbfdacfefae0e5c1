/**
 * tsx bench/search.ts (part of npm run bench): latency of the global member search (POST /api/search)
 * on a large PostgreSQL data set.
 *
 *   DATABASE_URL=postgres://…/gym_search_bench npx tsx scripts/seed.ts --members 100000
 *   DATABASE_URL=postgres://…/gym_search_bench npx tsx bench/search.ts
 *
 * ~500 realistic queries (parts of names, e-mail addresses and mobile numbers drawn from the data,
 * 2–8 characters, plus some that find nobody) run one after another after a warm-up, first against the
 * query function, then through the gym API in-process (api.fetch, a real session cookie, no socket).
 * Budget: p95 ≤ 20 ms for the query.
 */
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { createApi } from "../server/api/app";
import { sessionCookieName } from "../server/core/middleware";
import { searchMembers } from "../server/search/queries";
import { currentUser } from "../server/core/current-user";
import { sha256 } from "../server/core/auth/crypto";
import { createSession, readSession } from "../server/core/auth/sessions";
import { parseConfig } from "../server/core/config";
import { openDatabase, type Db } from "../server/core/db/client";
import { organisation_users, sessions, users } from "../server/core/db/schema";
import { withTenant } from "../server/core/db/tenant";
import { outboxMailer } from "../server/core/mail/mailer";
import { DEMO_ACCOUNTS, mulberry32 } from "../server/seed/demo-data";

const P95_BUDGET_MS = 20;
const MIN_MEMBERS = 100_000;
const WARM_UP = 100;
const SEED_HINT = "npm run seed -- --members 100000 --reset";

type Kind = "first name" | "surname" | "inside name" | "full name" | "e-mail start" | "inside e-mail" | "mobile" | "no hit";
/** How many of each kind, out of QUERIES: roughly what staff type at a front desk. */
const MIX: [Kind, number][] = [
  ["first name", 70],
  ["surname", 80],
  ["inside name", 50],
  ["full name", 25],
  ["e-mail start", 60],
  ["inside e-mail", 50],
  ["mobile", 115],
  ["no hit", 50],
];

type Sample = { name: string; email: string; mobile_number: string | null };

function makeQueries(people: Sample[]): { kind: Kind; query: string }[] {
  const r = mulberry32(20_240_601);
  const int = (min: number, max: number) => min + Math.floor(r() * (max - min + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  /** A piece of `s`, 2–8 characters (at least `min`), from `start` or anywhere. */
  const piece = (s: string, min: number, start?: number) => {
    const len = Math.min(s.length, int(min, 8));
    const from = start ?? int(0, s.length - len);
    return s.slice(from, from + len);
  };
  // People type in any case; the search must not care.
  const anyCase = (s: string) => (r() < 0.3 ? s.charAt(0).toUpperCase() + s.slice(1) : r() < 0.1 ? s.toUpperCase() : s);
  const out: { kind: Kind; query: string }[] = [];
  for (const [kind, n] of MIX) {
    for (let i = 0; i < n; i++) {
      const p = pick(people);
      const [first, ...rest] = p.name.split(" ");
      const last = rest.join(" ") || first;
      const local = p.email.split("@")[0];
      const digits = (p.mobile_number ?? "0215550100").replace(/\D/g, "");
      let query: string;
      if (kind === "first name") query = anyCase(piece(first, 2, 0));
      else if (kind === "surname") query = anyCase(piece(last, 2, 0));
      else if (kind === "inside name") query = piece(p.name.toLowerCase(), 3);
      else if (kind === "full name") query = anyCase(p.name);
      else if (kind === "e-mail start") query = piece(local, 2, 0);
      else if (kind === "inside e-mail") query = piece(p.email, 3);
      else if (kind === "mobile") {
        // The start (area code onwards) or the end (the part people remember), as digits or as stored ("555 0123").
        const len = int(3, 8);
        const roll = r();
        if (roll < 0.4) query = digits.slice(0, len);
        else if (roll < 0.8) query = digits.slice(-len);
        else query = (p.mobile_number ?? digits).slice(-Math.max(len, 4));
      } else query = Array.from({ length: int(4, 8) }, () => pick([..."qxzjvkwy"])).join("");
      out.push({ kind, query: query.trim() || first });
    }
  }
  // Interleave the kinds so caches are not warmed by a run of similar queries.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

function report(label: string, timings: { kind: Kind; query: string; ms: number }[]) {
  const all = timings.map((t) => t.ms).sort((a, b) => a - b);
  const p95 = quantile(all, 0.95);
  const line = (name: string, xs: number[]) =>
    `  ${name.padEnd(14)} ${String(xs.length).padStart(5)}  ${[0.5, 0.95, 0.99].map((q) => quantile(xs, q).toFixed(2).padStart(7)).join(" ")}  ${xs[xs.length - 1].toFixed(2).padStart(7)}`;
  console.log(`\n${label}`);
  console.log(`  ${"queries".padEnd(14)} ${"count".padStart(5)}  ${["p50 ms", "p95 ms", "p99 ms", "max ms"].map((h) => h.padStart(7)).join(" ")}`);
  console.log(line("all", all));
  for (const [kind] of MIX) {
    const xs = timings.filter((t) => t.kind === kind).map((t) => t.ms).sort((a, b) => a - b);
    if (xs.length) console.log(line(kind, xs));
  }
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`  slowest: ${slowest.map((t) => `${JSON.stringify(t.query)} ${t.ms.toFixed(1)}`).join(", ")}`);
  console.log(`  p95 ${p95.toFixed(2)} ms: ${p95 <= P95_BUDGET_MS ? "within" : "OVER"} the ${P95_BUDGET_MS} ms budget`);
  return p95;
}

async function time<T>(fn: () => Promise<T>) {
  const start = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - start };
}

async function memberCount(db: Db, organisationId?: number) {
  const [row] = await db
    .select({ n: count() })
    .from(organisation_users)
    .where(
      and(
        eq(organisation_users.role, "member"),
        isNull(organisation_users.deleted_at),
        organisationId ? eq(organisation_users.organisation_id, organisationId) : undefined,
      ),
    );
  return row.n;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.log("bench/search.ts: skipped. The search benchmark needs PostgreSQL with a large data set: set DATABASE_URL and seed it with " + SEED_HINT);
    return;
  }
  const database = await openDatabase({ databaseUrl, pgliteDir: "" });
  const { db } = database;
  let token: string | undefined;
  try {
    const total = await memberCount(db);
    if (total < MIN_MEMBERS) {
      console.log(`bench/search.ts: skipped. The database has ${total.toLocaleString("en-NZ")} members; the benchmark needs at least ${MIN_MEMBERS.toLocaleString("en-NZ")}. Run: DATABASE_URL=… ${SEED_HINT}`);
      return;
    }
    const [adminRow] = await db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS.admin));
    if (!adminRow) throw new Error(`${DEMO_ACCOUNTS.admin} not found: seed the database with ${SEED_HINT}`);
    // Signed in as the API would see it: the session read brings the memberships.
    token = await createSession(db, adminRow.id, { twoFactorPassed: true, userAgent: "bench/search.ts" });
    const found = await readSession(db, token);
    if (!found) throw new Error("the bench session could not be read back");
    const admin = currentUser(found.user, found.memberships);
    if (!admin.organisation) throw new Error(`${DEMO_ACCOUNTS.admin} has no organisation`);
    // The same scope requireStaff gives the API: each search in its own tenant transaction.
    const organisationId = admin.organisation.id;
    const search = (query: string) => withTenant(db, organisationId, admin.gym?.id ?? null, (t) => searchMembers(t, query));
    const inOrg = await memberCount(db, organisationId);

    const people = (await db.execute(sql`
      select u.name, u.email, u.mobile_number from ${users} u
      join ${organisation_users} ou on ou.user_id = u.id and ou.organisation_id = ${organisationId} and ou.role = 'member' and ou.deleted_at is null
      order by hashtext(u.id::text) limit 2000`)) as unknown as { rows: Sample[] };
    const queries = makeQueries(people.rows);
    const warmUp = makeQueries(people.rows.slice().reverse()).slice(0, WARM_UP);

    console.log(
      `\nmember search: ${total.toLocaleString("en-NZ")} members in the database, ${inOrg.toLocaleString("en-NZ")} in ${admin.organisation.name} (searched as ${DEMO_ACCOUNTS.admin}); ` +
        `${queries.length} queries one at a time after ${warmUp.length} warm-up queries`,
    );

    for (const { query } of warmUp) await search(query);
    const direct: { kind: Kind; query: string; ms: number }[] = [];
    let hits = 0;
    for (const { kind, query } of queries) {
      const { result, ms } = await time(() => search(query));
      direct.push({ kind, query, ms });
      if (result.length) hits++;
    }
    report(`query function (searchMembers): ${hits} of ${queries.length} queries found someone`, direct);

    // "test": throwaway secrets without warnings and a plain cookie name; nothing here is served.
    const config = parseConfig({ NODE_ENV: "test", DATABASE_URL: databaseUrl });
    const api = createApi({ db, mailer: outboxMailer(db), config });
    const cookie = `${sessionCookieName(config)}=${token}`;
    const post = async (query: string) => {
      const res = await api.fetch(
        new Request("http://localhost/api/search", {
          method: "POST",
          headers: { cookie, "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
          body: JSON.stringify({ query }),
        }),
        { clientIp: "127.0.0.1" },
      );
      if (res.status !== 200) throw new Error(`POST /api/search ${JSON.stringify(query)} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { data: { data: unknown[] } };
    };
    for (const { query } of warmUp) await post(query);
    const viaApi: { kind: Kind; query: string; ms: number }[] = [];
    for (const { kind, query } of queries) viaApi.push({ kind, query, ms: (await time(() => post(query))).ms });
    report("POST /api/search through the API in-process (session lookup + validation + query + JSON)", viaApi);
  } finally {
    if (token) await db.delete(sessions).where(eq(sessions.id, sha256(token)));
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
