/**
 * `npm run fuzz`: hostile input against every API route and every page, counting 5xx answers.
 *
 * Starts the built server (`node server.js`, run `npx remix build` first) on a free port with a fresh PGlite,
 * or uses FUZZ_URL (a server already running on 127.0.0.1 or localhost, the demo seeded). Signs in as the demo
 * admin and also runs anonymous. Exits 1 when any request answered 5xx, timed out or was cut off.
 *
 *   FUZZ_REQUESTS  requests to send (default 3000)   FUZZ_SECONDS  time limit (default 600)
 *   FUZZ_SEED      the random seed (printed; default random)   FUZZ_CONCURRENCY  requests in flight (default 4)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, oddBody, oddCookies, oddId, oddQuery, seededRandom, type Rng } from "./fuzz/inputs";
import { Jar, jsonCaller, send, startServer, type Reply, type Server } from "./fuzz/server";
import { apiTargets, fieldNames, pageTargets, type Target } from "./fuzz/targets";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ADMIN = { email: "admin@example.com", password: "demo-gym-pass" };
/** Our cookies (session, toast, trusted device) and one unknown, for forged cookie headers. */
const COOKIE_NAMES = ["gym_session", "__Host-gym_session", "gym_toast", "gym_device", "other"];

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got ${JSON.stringify(raw)}).`);
  return n;
}

type Failure = { method: string; path: string; host: string; who: string; input: string; status: Reply["status"]; log: string[] };

async function main() {
  const requests = intEnv("FUZZ_REQUESTS", 3000);
  const seconds = intEnv("FUZZ_SECONDS", 600);
  const seed = intEnv("FUZZ_SEED", Math.floor(Math.random() * 2 ** 31));
  const concurrency = Math.max(1, intEnv("FUZZ_CONCURRENCY", 4));
  console.log(`fuzz: seed ${seed} (FUZZ_SEED=${seed} repeats this run), ${requests} requests, at most ${seconds} s`);

  let server: Server | null = null;
  let port: number;
  if (process.env.FUZZ_URL) {
    const url = new URL(process.env.FUZZ_URL);
    // Only ever a local server: this sends thousands of hostile requests.
    if (!["127.0.0.1", "localhost"].includes(url.hostname)) throw new Error("FUZZ_URL must be a server on 127.0.0.1 or localhost.");
    port = Number(url.port || 80);
  } else {
    server = await startServer(ROOT);
    port = server.port;
  }
  const backoffice = `localhost:${port}`;
  const signup = `signup.localhost:${port}`;

  try {
    const r = seededRandom(seed);
    const names = fieldNames();
    const targets: Target[] = [...apiTargets(), ...pageTargets(ROOT)];
    const admin = new Jar();
    const anonymous = new Jar();
    const json = jsonCaller(port, backoffice);
    const call = async (jar: Jar, method: string, p: string, body?: unknown, host = backoffice) => {
      const reply = await json(jar, method, p, body, host);
      return { status: reply.status, json: (() => { try { return JSON.parse(reply.body); } catch { return null; } })() };
    };
    const signIn = async () => {
      const login = await call(admin, "POST", "/api/login", ADMIN);
      if (login.status !== 200) throw new Error(`could not sign in as ${ADMIN.email}: ${login.status}`);
      const mails = (await call(anonymous, "GET", "/dev/mail.json")).json as { to: string; text: string }[];
      const code = mails.find((m) => m.to === ADMIN.email)?.text.match(/\b(\d{6})\b/)?.[1];
      const verified = await call(admin, "POST", "/api/email/verify", { code });
      if (verified.status !== 200) throw new Error(`the e-mailed code was refused: ${verified.status}`);
    };
    await signIn();

    // Ids to aim at: this organisation's members, gyms and organisations, and another organisation's members.
    const me = (await call(admin, "GET", "/api/me")).json.data as { current_organisation: { id: number }; organisations: { id: number }[]; gyms: { id: number }[] };
    const memberIds = async () => ((await call(admin, "GET", "/api/members?gym=all")).json?.data?.data ?? []).map((m: { id: number }) => m.id) as number[];
    const valid = [...(await memberIds()), ...me.organisations.map((o) => o.id), ...me.gyms.map((g) => g.id)];
    const foreign: number[] = [];
    const other = me.organisations.find((o) => o.id !== me.current_organisation.id);
    if (other) {
      await call(admin, "POST", `/api/organisations/${other.id}/switch`);
      foreign.push(...(await memberIds()));
      await call(admin, "POST", `/api/organisations/${me.current_organisation.id}/switch`);
    }

    const failures: Failure[] = [];
    const counts = { api: 0, page: 0 };
    let sent = 0;
    let reSignIns = 0;
    const statuses = new Map<Reply["status"], number>();
    const started = Date.now();
    const deadline = started + seconds * 1000;

    const next = (rng: Rng) => {
      const target = rng.pick(targets);
      // The admin never signs itself out (the rest of the run would be anonymous); anonymous runs try that.
      const endsSession = /\/logout$/.test(target.path);
      const who = !endsSession && rng.chance(0.7) ? "admin" : "anonymous";
      const host = target.kind === "api" || rng.chance(0.7) ? backoffice : signup;
      let filled = target.path.replace(/:(\w+)(\{[^}]*\})?/g, () => oddId(rng, valid, foreign));
      // With JavaScript on, Remix fetches and posts a page's data at `<path>.data` (single fetch): try that door too.
      if (target.kind === "page" && rng.chance(0.2)) filled = filled === "/" ? "/_root.data" : `${filled}.data`;
      const query = target.method === "GET" || rng.chance(0.2) ? oddQuery(rng, names) : "";
      const body = target.method === "GET" || target.method === "DELETE" ? null : oddBody(rng, names);
      const headers: Record<string, string> = { origin: `http://${host}`, accept: rng.pick(["text/html", "application/json", "*/*"]) };
      if (target.kind === "api" || rng.chance(0.3)) headers["x-requested-with"] = "XMLHttpRequest";
      if (body?.contentType) headers["content-type"] = body.contentType;
      const cookies = rng.chance(0.1) ? oddCookies(rng, COOKIE_NAMES) : "";
      return { target, who, host, path: filled + query, headers, body, cookies };
    };

    const worker = async () => {
      while (sent < requests && Date.now() < deadline) {
        const n = ++sent;
        if (n % 200 === 0 && (await call(admin, "GET", "/api/me")).status !== 200) {
          // Something in the run (a code resent, a session ended) signed the admin out: sign in again.
          reSignIns++;
          await signIn();
        }
        const req = next(r);
        counts[req.target.kind]++;
        const jar = req.who === "admin" ? admin : anonymous;
        const cookie = [jar.header().cookie, req.cookies].filter(Boolean).join("; ");
        const mark = server?.mark() ?? 0;
        const reply = await send(port, { method: req.target.method, path: req.path, host: req.host, headers: { ...req.headers, ...(cookie ? { cookie } : {}) }, body: req.body?.body });
        jar.take(reply.setCookies);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === "closed" ? false : typeof reply.status !== "number" || reply.status >= 500) {
          failures.push({ method: req.target.method, path: req.path, host: req.host, who: req.who, input: (req.body?.what ?? "no body") + (req.cookies ? `; cookies ${describe(req.cookies)}` : ""), status: reply.status, log: server?.since(mark).slice(0, 12) ?? [] });
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));

    const took = ((Date.now() - started) / 1000).toFixed(0);
    console.log(`fuzz: ${sent} requests, ${failures.length} 5xx`);
    console.log(`fuzz: ${counts.api} to the API, ${counts.page} to pages, ${took} s, ${reSignIns} re-sign-ins; answers ${[...statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([k, v]) => `${k}×${v}`).join(", ")}`);
    for (const f of failures.slice(0, 200)) {
      console.log(`  ${f.status} ${f.method} ${describe(f.path)} on ${f.host.split(":")[0]} as ${f.who}: ${f.input}`);
      // What the server logged meanwhile (the first failures only: enough to find the cause).
      if (failures.indexOf(f) < 10) for (const line of f.log) console.log(`    | ${line}`);
    }
    if (failures.length > 200) console.log(`  … and ${failures.length - 200} more`);
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    await server?.stop();
  }
}

main().catch((err) => {
  console.error(`fuzz: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
});
