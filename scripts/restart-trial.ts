/**
 * The restart trial (issue 19): two server processes on two ports share one PostgreSQL behind HAProxy (Debian's,
 * installed when missing and allowed), while a load of sign-ins, member page views and form posts runs through it,
 * each process is restarted in turn with SIGTERM. It passes when no request failed, every process stopped cleanly
 * (exit 0) and nothing was written twice (every message the load sent is in the database exactly once).
 *
 * On a throwaway database beside DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres). Needs a server
 * build (`npx remix build`). RESTART_USERS (default 6) virtual users; RESTART_SECONDS (default 4) of load before,
 * between and after the restarts.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { TRUSTED_DEVICE_COOKIE } from "../server/core/auth/trusted-device";
import { freePort, Jar, jsonCaller, send, type Reply } from "./fuzz/server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USERS = Number(process.env.RESTART_USERS ?? 6);
const PHASE_MS = Number(process.env.RESTART_SECONDS ?? 4) * 1000;
const ADMIN = { email: "admin@example.com", password: "demo-gym-pass" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!existsSync(path.join(ROOT, "build/index.js"))) throw new Error("no server build: run `npx remix build` first");

function haproxyPath(): string {
  const found = spawnSync("sh", ["-c", "command -v haproxy || ls /usr/sbin/haproxy 2>/dev/null"], { encoding: "utf8" }).stdout.trim().split("\n")[0];
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log("installing Debian's haproxy");
    spawnSync("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null"], { stdio: "inherit" });
    if (existsSync("/usr/sbin/haproxy")) return "/usr/sbin/haproxy";
  }
  throw new Error("the restart trial needs HAProxy (Debian: apt-get install haproxy)");
}

// A throwaway database, as the crash trial makes one.
const base = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const name = `gym_restart_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;

const dir = mkdtempSync(path.join(tmpdir(), "gym-restart-"));
const children = new Set<ChildProcess>();
const [lbPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
const host = `localhost:${lbPort}`;

type Proc = { port: number; child: ChildProcess; exited: Promise<number | null>; log: string[] };
function startServer(port: number): Proc {
  const log: string[] = [];
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEMO_MODE: "1",
      SEED_DEMO: "1",
      DATABASE_URL: dbUrl.toString(),
      PORT: String(port),
      HOST: "127.0.0.1",
      WEB_CONCURRENCY: "1",
      // The same secrets in both: a session made by one is honoured by the other.
      SESSION_SECRET: "restart-trial-session-secret-0123456789",
      TOAST_SECRET: "restart-trial-toast-secret-0123456789ab",
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_MS: "20000",
      // HAProxy below marks a server down after two failed checks 500 ms apart: out of rotation well within 2 s.
      SHUTDOWN_DRAIN_MS: "2000",
    },
  });
  children.add(child);
  const keep = (b: Buffer) => log.push(...b.toString("utf8").split("\n").filter(Boolean).map((l) => l.slice(0, 300)));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => (children.delete(child), resolve(code))));
  return { port, child, exited, log };
}

async function ready(p: Proc, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`the server on ${p.port} stopped (exit ${p.child.exitCode}):\n${p.log.slice(-15).join("\n")}`);
    const r = await send(p.port, { method: "GET", path: "/readyz", host: "localhost", headers: {} });
    if (r.status === 200) return;
    await sleep(250);
  }
  throw new Error(`the server on ${p.port} was not ready within ${timeoutMs / 1000} s:\n${p.log.slice(-15).join("\n")}`);
}

let failed = true;
try {
  console.log(`restart trial: 2 processes (${portA}, ${portB}) behind HAProxy (${lbPort}), ${USERS} users, database ${name}`);
  const servers = [startServer(portA)];
  await ready(servers[0]); // the first migrates and seeds the demo
  servers.push(startServer(portB));
  await ready(servers[1]);

  const cfg = path.join(dir, "haproxy.cfg");
  writeFileSync(
    cfg,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      // A connection refused (the process has closed its listener) is tried again on the other server: the request
      // never reached the first, so even a form post cannot be done twice.
      "  retries 3",
      "  option redispatch",
      "  retry-on conn-failure",
      // No idle connections to the servers to be cut under a request: one connection a request.
      "  option http-server-close",
      "frontend web",
      `  bind 127.0.0.1:${lbPort}`,
      "  default_backend app",
      "backend app",
      "  balance roundrobin",
      "  option httpchk GET /readyz",
      "  http-check expect status 200",
      // A busy server may take a while to answer its check: only two failed checks in a row take it out.
      "  timeout check 3s",
      "  default-server inter 500ms fall 2 rise 2",
      `  server a 127.0.0.1:${portA} check`,
      `  server b 127.0.0.1:${portB} check`,
      "",
    ].join("\n"),
  );
  const lb = spawn(haproxyPath(), ["-db", "-f", cfg], { stdio: ["ignore", "ignore", "pipe"] });
  children.add(lb);
  const lbLog: string[] = [];
  lb.stderr!.on("data", (b: Buffer) => lbLog.push(b.toString("utf8")));
  for (let i = 0; i < 40 && (await send(lbPort, { method: "GET", path: "/healthz", host, headers: {} })).status !== 200; i++) await sleep(250);

  // One sign-in with the e-mailed code makes this a trusted device; every user then signs in with its cookie.
  const call = jsonCaller(lbPort, host);
  const first = new Jar();
  if ((await call(first, "POST", "/api/login", ADMIN)).status !== 200) throw new Error("the first sign-in failed");
  const mails = JSON.parse((await call(new Jar(), "GET", "/dev/mail.json")).body) as { to: string; text: string }[];
  const code = mails.find((m) => m.to === ADMIN.email)?.text.match(/\b(\d{6})\b/)?.[1];
  if ((await call(first, "POST", "/api/email/verify", { code })).status !== 200) throw new Error("the e-mailed code was refused");
  const device = first.header().cookie?.split("; ").find((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`));
  if (!device) throw new Error("no trusted-device cookie after the code");
  const members = (JSON.parse((await call(first, "GET", "/api/members?gym=all")).body).data.data as { id: number }[]).slice(0, 20).map((m) => m.id);
  if (!members.length) throw new Error("the demo has no members to look at");

  /** A page's form, posted as a browser posts it from one of our pages (urlencoded, same-origin, its cookies). */
  const pageForm = async (jar: Jar, p: string, fields: Record<string, string>) => {
    const reply = await send(lbPort, {
      method: "POST",
      path: p,
      host,
      headers: { origin: `http://${host}`, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded", ...jar.header() },
      body: Buffer.from(new URLSearchParams(fields).toString()),
    });
    jar.take(reply.setCookies);
    return reply;
  };

  // The load.
  const counts = { sign_in: 0, member_page: 0, form_post: 0 };
  const failures: string[] = [];
  const sent = new Set<string>();
  let running = true;
  // Each user signs in when the load starts and again between the two restarts (the sign-in limit is 20 an address
  // in 15 minutes, and every user comes from the trial's one address).
  let round = 0;
  const ok = (kind: keyof typeof counts, r: Reply, expect: number[]) => {
    counts[kind]++;
    if (typeof r.status !== "number" || !expect.includes(r.status)) failures.push(`${kind}: ${r.status} ${typeof r.status === "number" ? r.body.slice(0, 120) : ""}`);
    return typeof r.status === "number" && expect.includes(r.status);
  };
  const user = async (n: number) => {
    const jar = new Jar();
    jar.take([device]);
    let i = 0;
    let signedIn = -1;
    while (running) {
      if (signedIn !== round) {
        signedIn = round;
        // Staggered: one account takes at most five sign-in attempts at once (server/session/routes.ts).
        await sleep(n * 250);
        ok("sign_in", await call(jar, "POST", "/api/login", ADMIN), [200]);
      }
      const member = members[(n * 7 + i) % members.length];
      ok("member_page", await call(jar, "GET", `/members/${member}`), [200]);
      if (i % 3 === 0) {
        // A message to the member, every other one as a person sends it (the /messages page's form, posted as a
        // browser posts it: a redirect back to the conversation) and the rest through the API, as a script would.
        const body = `restart-trial ${randomUUID()}`;
        const reply =
          (i / 3) % 2 === 0
            ? await pageForm(jar, "/messages", { member_id: String(member), body })
            : await call(jar, "POST", "/api/messaging/send", { member_id: member, body });
        if (ok("form_post", reply, (i / 3) % 2 === 0 ? [302, 303] : [200, 201])) sent.add(body);
      }
      i++;
    }
  };
  const load = Promise.all(Array.from({ length: USERS }, (_, n) => user(n)));

  // The rolling restart: each process in turn gets SIGTERM, drains, stops, and a new one takes its port.
  const restarts: { port: number; exit: number | null; stopMs: number; readyMs: number }[] = [];
  await sleep(PHASE_MS);
  for (let k = 0; k < servers.length; k++) {
    const old = servers[k];
    const t0 = Date.now();
    old.child.kill("SIGTERM");
    const exit = await Promise.race([old.exited, sleep(30_000).then(() => "timeout" as const)]);
    if (exit === "timeout") throw new Error(`the server on ${old.port} did not stop within 30 s`);
    const stopMs = Date.now() - t0;
    const fresh = startServer(old.port);
    await ready(fresh);
    servers[k] = fresh;
    restarts.push({ port: old.port, exit, stopMs, readyMs: Date.now() - t0 });
    round = Math.min(1, round + 1);
    await sleep(PHASE_MS); // HAProxy sees it ready (two checks), and the load runs on both again
  }
  running = false;
  await load;

  const rows = await new pg.Client({ connectionString: dbUrl.toString() });
  await rows.connect();
  const written = (await rows.query<{ body: string; n: number }>(`select body, count(*)::int as n from messages where body like 'restart-trial %' group by body`)).rows;
  await rows.end();
  const twice = written.filter((r) => r.n > 1).length;
  const missing = [...sent].filter((b) => !written.some((r) => r.body === b)).length;
  const total = counts.sign_in + counts.member_page + counts.form_post;

  console.log(`requests: ${total} (sign-ins ${counts.sign_in}, member pages ${counts.member_page}, messages posted ${counts.form_post}: half by the page's form, half by the API)`);
  for (const r of restarts) console.log(`restart of :${r.port}: exit ${r.exit}, stopped in ${r.stopMs} ms, ready again in ${r.readyMs} ms`);
  console.log(`failed requests: ${failures.length}${failures.length ? `\n  ${failures.slice(0, 10).join("\n  ")}` : ""}`);
  console.log(`messages written: ${written.length} for ${sent.size} posts answered; written twice: ${twice}; answered but missing: ${missing}`);
  failed = failures.length > 0 || twice > 0 || missing > 0 || restarts.some((r) => r.exit !== 0);
  if (failed) {
    console.log(lbLog.join("").slice(-3000));
    for (const s of servers) console.log(s.log.slice(-10).join("\n"));
  }
  console.log(failed ? "RESTART TRIAL FAILED" : "restart trial passed: 0 failed requests, nothing written twice");
} finally {
  for (const c of children) c.kill("SIGKILL");
  await sleep(300);
  await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
