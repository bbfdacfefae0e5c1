/**
 * npm run mutate: the safety proofs must be able to fail (issue 30, decision 0051). Each mutation below breaks one
 * guard in a throwaway copy of the working tree (tracked and new files, node_modules linked), then runs only the
 * tests that should catch it; the script fails unless every mutation is caught. A race (a guard PGlite cannot
 * exercise: it runs one query at a time) is caught on PostgreSQL when DATABASE_URL is set, and reported skipped
 * otherwise, never as caught.
 *
 * Paths move with the code: a `find` that is no longer in its file fails the script, naming it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type Edit = { file: string; find: string; replace: string };
type Mutation = { name: string; edits: Edit[]; tests: string[]; only?: string; race?: boolean };

const MUTATIONS: Mutation[] = [
  {
    name: "every API request runs with row-level security off (withTenant skips the role gym_tenant)",
    edits: [
      { file: "server/core/db/tenant.ts", find: ", set_config('role', 'gym_tenant', true)`", replace: "`" },
      { file: "server/core/db/client.ts", find: `await client.query("select set_config('role', 'gym_tenant', false)");`, replace: "" },
    ],
    tests: ["tests/api/tenant-role.test.ts"],
  },
  {
    name: "no per-gym record check in any action on a member's record",
    edits: [
      { file: "server/subscriptions/routes.ts", find: "assertCan(c.var.user!, capability, m.s.gym_id)", replace: "assertCan(c.var.user!, capability)" },
      { file: "server/subscriptions/routes.ts", find: ", found.membership.home_gym_id);", replace: ");" },
      { file: "server/subscriptions/routes.ts", find: `assertCan(c.var.user!, "money.write", p.gym_id)`, replace: `assertCan(c.var.user!, "money.write")` },
      { file: "server/subscriptions/routes.ts", find: `"subscriptions.write", gymId);`, replace: `"subscriptions.write");` },
      { file: "server/subscriptions/routes.ts", find: `"money.write", gymId);`, replace: `"money.write");` },
      {
        file: "server/members/routes.ts",
        find: "assertCan(c.var.user!, capability, found.membership.home_gym_id)",
        replace: "assertCan(c.var.user!, capability)",
      },
      { file: "server/payments/refunds.ts", find: "assertCan(c.var.user!, capability, target.p.gym_id)", replace: "assertCan(c.var.user!, capability)" },
      {
        file: "server/debugging/active-user.ts",
        find: `assertCan(staff, "members.read", membership.home_gym_id)`,
        replace: `assertCan(staff, "members.read")`,
      },
    ],
    tests: ["tests/api/gym-record-checks.test.ts"],
  },
  {
    name: "payments' idempotency key no longer unique",
    edits: [
      {
        file: "drizzle/0016_billing_engine.sql",
        find: `CREATE UNIQUE INDEX "payments_idempotency_key_idx"`,
        replace: `CREATE INDEX "payments_idempotency_key_idx"`,
      },
    ],
    tests: ["tests/api/idempotency-guards.test.ts"],
  },
  {
    name: "sign-up's double-tap guards gone (the key's unique index and the advisory lock)",
    edits: [
      { file: "drizzle/0026_signup.sql", find: `CREATE UNIQUE INDEX "subscriptions_signup_key_idx"`, replace: `CREATE INDEX "subscriptions_signup_key_idx"` },
      { file: "server/signup/subscribe.ts", find: "await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`signup:${member.id}`}))`);", replace: "" },
    ],
    tests: ["tests/api/signup.test.ts"],
    only: "at once",
    race: true,
  },
  {
    name: "a check-in kiosk's session answers every staff route (issue 32)",
    edits: [{ file: "server/core/middleware.ts", find: `if (c.var.session.kiosk_gym_id && !kiosk) throw new ApiError(403, KIOSK_LOCKED, "kiosk_mode");`, replace: "void kiosk;" }],
    tests: ["tests/api/check-in.test.ts"],
    only: "kiosk",
  },
  {
    name: "member codes no longer unique in an organisation (issue 32)",
    edits: [{ file: "drizzle/0044_check_in.sql", find: `CREATE UNIQUE INDEX "organisation_users_member_code_idx"`, replace: `CREATE INDEX "organisation_users_member_code_idx"` }],
    tests: ["tests/api/check-in.test.ts"],
    only: "unique in an organisation",
  },
  {
    name: "a check-in form sent twice records two visits (issue 32)",
    edits: [{ file: "server/check-in/record.ts", find: "        door_event_id: event,", replace: "        door_event_id: null," }],
    tests: ["tests/api/check-in.test.ts"],
    only: "once for the same form",
  },
  {
    name: "a member paying what is owing as the billing run retries it gets a 500, not the 409 (issue 31)",
    edits: [{ file: "server/self-service/pay-owing.ts", find: "if (isUniqueViolation(err)) throw", replace: "if (!isUniqueViolation) throw" }],
    tests: ["tests/api/member-payment.test.ts"],
    only: "409",
  },
  {
    name: "a walk-in's form sent twice at once: the second is refused rather than answered the first's member (issue 32)",
    edits: [{ file: "server/walk-in/join.ts", find: "await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`walk-in:${t.organisationId}:${req.key}`}))`);", replace: "" }],
    tests: ["tests/api/walk-in.test.ts"],
    only: "same moment",
    race: true,
  },
  {
    name: "gym admins may open and archive gyms (issue 32)",
    edits: [{ file: "server/core/permissions.ts", find: `"gyms.create": ["organisation_admin"],`, replace: `"gyms.create": ["organisation_admin", "gym_admin"],` }],
    tests: ["tests/api/gyms-open.test.ts"],
    only: "organisation admins only",
  },
  {
    name: "an archived gym is still sold (issue 32)",
    edits: [{ file: "server/signup/catalogue.ts", find: "sql`exists (select 1 from ${gyms} g where g.id = ${gymId} and g.archived_at is null)`,", replace: "" }],
    tests: ["tests/api/gyms-open.test.ts"],
    only: "archives a gym",
  },
  {
    name: "an API key holds every capability a key may hold, whatever its scopes (issue 33)",
    edits: [{ file: "server/core/permissions.ts", find: `grants(capability, "api_key") && user.apiKey.scopes.includes(capability)`, replace: `grants(capability, "api_key")` }],
    tests: ["tests/api/api-keys.test.ts"],
    only: "may do only what its scopes allow",
  },
  {
    name: "an API key reaches the routes for people, not only those listed for keys (issue 33)",
    edits: [{ file: "server/core/middleware.ts", find: "if (kiosk || !openToKeys(c.req.method, routePath(c))) refuseKeys(c);", replace: "if (kiosk) refuseKeys(c);" }],
    tests: ["tests/api/api-keys.test.ts"],
    only: "is refused on the routes for people",
  },
  {
    name: "a revoked API key still works (issue 33)",
    edits: [{ file: "server/core/auth/api-key.ts", find: "and(eq(api_keys.secret_hash, sql.placeholder(\"hash\")), isNull(api_keys.revoked_at))", replace: "eq(api_keys.secret_hash, sql.placeholder(\"hash\"))" }],
    tests: ["tests/api/api-keys.test.ts"],
    only: "stops working the moment it is revoked",
  },
  {
    name: "an Idempotency-Key is not unique per caller (issue 33)",
    edits: [{ file: "drizzle/0047_integrators.sql", find: `CREATE UNIQUE INDEX "idempotency_keys_key_idx"`, replace: `CREATE INDEX "idempotency_keys_key_idx"` }],
    tests: ["tests/api/api-keys.test.ts"],
    only: "does it once when the same request arrives",
    race: true,
  },
  {
    name: "outgoing webhooks: a delivery another sender holds is taken again (the claim ignores the lease; issue 33)",
    edits: [
      {
        file: "server/outgoing-webhooks/deliver.ts",
        find: "const free = sql`(d.locked_until is null or d.locked_until <= ${nowIso}::timestamptz)`;",
        replace: "const free = sql`true`;",
      },
    ],
    tests: ["tests/api/webhooks-out.test.ts"],
    only: "two workers",
    race: true,
  },
  {
    name: "outgoing webhooks: an endpoint's name that resolves to a private address is accepted (issue 33)",
    edits: [{ file: "server/outgoing-webhooks/address.ts", find: "const bad = addresses.find((a) => !addressAllowed(a.address, rules));", replace: "const bad = undefined;" }],
    tests: ["tests/api/webhooks-out.test.ts"],
    only: "resolves to a private address",
  },
  {
    name: "outgoing webhooks: an event may be delivered twice to one endpoint (no unique index on the pair; issue 33)",
    edits: [{ file: "drizzle/0047_integrators.sql", find: `CREATE UNIQUE INDEX "webhook_deliveries_pair_idx"`, replace: `CREATE INDEX "webhook_deliveries_pair_idx"` }],
    tests: ["tests/api/webhooks-out.test.ts"],
    only: "once per endpoint",
  },
  {
    name: "group classes: taking a place no longer locks the class (no FOR UPDATE; issue 34)",
    edits: [{ file: "server/classes/places.ts", find: `.where(t.where(class_occurrences, eq(class_occurrences.id, occurrenceId)))\n    .for("update");`, replace: ".where(t.where(class_occurrences, eq(class_occurrences.id, occurrenceId)));" }],
    tests: ["tests/api/classes-book.test.ts"],
    only: "50 members at once",
    race: true,
  },
  {
    name: "group classes: a member's bookings no longer taken one at a time (no per-member advisory lock; issue 34)",
    edits: [{ file: "server/classes/bookings.ts", find: "await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`class-member:${t.organisationId}:${userId}`}))`);", replace: "" }],
    tests: ["tests/api/classes-guards.test.ts"],
    only: "one short of the most at once",
    race: true,
  },
  {
    name: "group classes: a class no longer takes the trainer's lock (clashes.ts; issue 34)",
    edits: [{ file: "server/classes/clashes.ts", find: "await t.db.execute(sql`select pg_advisory_xact_lock(${TRAINER_LOCK + trainerId})`);", replace: "" }],
    tests: ["tests/api/classes-guards.test.ts"],
    only: "for one trainer over the same hour",
    race: true,
  },
  {
    name: "group classes: an appointment no longer takes the trainer's lock (the calendar's assertFree; issue 34)",
    edits: [{ file: "server/calendar/entries.ts", find: "await t.db.execute(sql`select pg_advisory_xact_lock(${lockKey.trainer + who.trainerId})`);", replace: "" }],
    tests: ["tests/api/classes-guards.test.ts"],
    only: "for one trainer over the same hour",
    race: true,
  },
  {
    name: "class drop-ins: a declined card keeps its place (issue 34)",
    edits: [{ file: "server/classes/drop-ins.ts", find: "ids = await releaseDeclined(deps, now, ids);", replace: "ids = [];" }],
    tests: ["tests/api/classes-drop-ins.test.ts"],
    only: "when the card is declined",
  },
  {
    name: "class drop-ins: a drop-in on a card is written paid without the provider's answer (issue 34)",
    edits: [{ file: "server/classes/drop-ins.ts", find: `status: byCard ? "pending" : "sent",`, replace: `status: "sent",` }],
    tests: ["tests/api/classes-drop-ins.test.ts"],
    only: "charging the card once",
  },
  {
    name: "class drop-ins: a late cancellation is refunded too (issue 34)",
    edits: [{ file: "server/classes/bookings.ts", find: `done.changed && done.booking.status === "cancelled" ? await refundDropIn`, replace: `done.changed ? await refundDropIn` }],
    tests: ["tests/api/classes-drop-ins.test.ts"],
    only: "keeps a late one",
  },
  {
    name: "class drop-ins: one payment may pay for two bookings (no unique index on class_bookings.payment_id; issue 34)",
    edits: [{ file: "drizzle/0049_class_drop_ins.sql", find: `CREATE UNIQUE INDEX "class_bookings_payment_idx"`, replace: `CREATE INDEX "class_bookings_payment_idx"` }],
    tests: ["tests/api/classes-drop-ins.test.ts"],
    only: "ties a payment to one booking only",
  },
  {
    name: "class drop-ins: a member owing on their membership may drop in (issue 34)",
    edits: [{ file: "server/classes/booking-rules.ts", find: "if (!covered && m.owing) return", replace: "if (false) return" }],
    tests: ["tests/api/classes-drop-ins.test.ts"],
    only: "owing on their membership",
  },
];

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const postgres = process.env.DATABASE_URL;
const started = Date.now();

/** The working tree as it is (committed or not), without what git ignores, node_modules linked. */
function copyOfWorkingTree() {
  const dir = mkdtempSync(path.join(tmpdir(), "mutate-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const f of files) {
    if (!existsSync(path.join(root, f))) continue; // deleted, not yet committed
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    cpSync(path.join(root, f), path.join(dir, f));
  }
  symlinkSync(realpathSync(path.join(root, "node_modules")), path.join(dir, "node_modules"));
  return dir;
}

type Report = { numFailedTests: number; numPassedTests: number; numPendingTests: number; numTodoTests: number };

function run(dir: string, m: Mutation): { verdict: "caught" | "NOT CAUGHT" | "skipped"; detail: string } {
  const env = { ...process.env };
  if (!m.race || !postgres) delete env.DATABASE_URL;
  const out = path.join(dir, "mutate-report.json");
  const args = ["vitest", "run", ...m.tests, "--reporter=json", `--outputFile=${out}`, ...(m.only ? ["-t", m.only] : [])];
  const res = spawnSync("npx", args, { cwd: dir, env, encoding: "utf8" });
  if (!existsSync(out)) return { verdict: "NOT CAUGHT", detail: `vitest gave no report (exit ${res.status}): ${res.stderr.slice(-400)}` };
  const r = JSON.parse(readFileSync(out, "utf8")) as Report;
  rmSync(out);
  const counts = `${r.numFailedTests} failed, ${r.numPassedTests} passed, ${r.numPendingTests + r.numTodoTests} skipped`;
  if (r.numFailedTests > 0) return { verdict: "caught", detail: counts };
  if (m.race && !postgres && r.numPassedTests === 0 && r.numPendingTests > 0)
    return { verdict: "skipped", detail: `${counts}: a race, PostgreSQL only (set DATABASE_URL)` };
  return { verdict: "NOT CAUGHT", detail: counts };
}

const dir = copyOfWorkingTree();
let failed = false;
try {
  // `npm run mutate -- <words>` runs only the mutations whose name holds them (while working on one guard).
  const pick = process.argv.slice(2).join(" ").toLowerCase();
  for (const m of MUTATIONS.filter((x) => x.name.toLowerCase().includes(pick))) {
    const originals = new Map<string, string>();
    for (const e of m.edits) {
      const file = path.join(dir, e.file);
      if (!existsSync(file)) throw new Error(`mutate: ${e.file} is gone (moved?): fix the MUTATIONS table in scripts/mutate.ts`);
      const text = readFileSync(file, "utf8");
      if (!originals.has(file)) originals.set(file, text);
      if (!text.includes(e.find)) throw new Error(`mutate: ${e.file} no longer holds ${JSON.stringify(e.find)}: fix the MUTATIONS table in scripts/mutate.ts`);
      writeFileSync(file, text.split(e.find).join(e.replace));
    }
    const t0 = Date.now();
    const { verdict, detail } = run(dir, m);
    for (const [file, text] of originals) writeFileSync(file, text);
    console.log(
      `${verdict.padEnd(10)} ${m.name}  (${m.tests.join(" ")}${m.only ? ` -t "${m.only}"` : ""}: ${detail}; ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
    if (verdict === "NOT CAUGHT") failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`mutate: ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (failed) {
  console.error("mutate: a mutation was not caught: the tests above can no longer fail for it.");
  process.exit(1);
}
