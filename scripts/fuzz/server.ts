import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** One HTTP exchange with the server under test, over node:http so bodies and headers go out byte for byte. */
export type Reply = { status: number | "timeout" | "aborted" | "refused" | "closed"; body: string; setCookies: string[] };

export const REQUEST_TIMEOUT_MS = 30_000;

export function send(port: number, req: { method: string; path: string; host: string; headers: Record<string, string>; body?: Buffer }): Promise<Reply> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Reply) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const headers: Record<string, string> = { host: req.host, connection: "close", ...req.headers };
    if (req.body) headers["content-length"] = String(req.body.length);
    const out = http.request({ host: "127.0.0.1", port, method: req.method, path: req.path, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        if (size < 256 * 1024) chunks.push(c);
        size += c.length;
      });
      // A body cut off mid-stream (an export that failed after it began) is reported as such, not as its status.
      res.on("aborted", () => done({ status: "aborted", body: "", setCookies: [] }));
      res.on("error", () => done({ status: "aborted", body: "", setCookies: [] }));
      res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), setCookies: res.headers["set-cookie"] ?? [] }));
    });
    out.on("timeout", () => {
      out.destroy();
      done({ status: "timeout", body: "", setCookies: [] });
    });
    out.on("error", (err: NodeJS.ErrnoException) => {
      // A server may answer a large body early (413) and close while the rest is still being sent: that is a refusal, not a crash.
      const refusedBody = (req.body?.length ?? 0) > 64 * 1024 && (err.code === "EPIPE" || err.code === "ECONNRESET");
      done({ status: err.code === "ECONNREFUSED" ? "refused" : refusedBody ? "closed" : "aborted", body: err.code ?? "", setCookies: [] });
    });
    out.end(req.body);
  });
}

/**
 * A JSON call as the pages' scripts make one (same origin, X-Requested-With), with the jar's cookies, keeping the ones
 * it is given back.
 */
export function jsonCaller(port: number, defaultHost: string) {
  return async (jar: Jar, method: string, p: string, body?: unknown, host = defaultHost): Promise<Reply> => {
    const reply = await send(port, {
      method,
      path: p,
      host,
      headers: { origin: `http://${host}`, "x-requested-with": "XMLHttpRequest", ...jar.header(), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? Buffer.from(JSON.stringify(body)) : undefined,
    });
    jar.take(reply.setCookies);
    return reply;
  };
}

/** A cookie jar per identity (admin, anonymous), as a browser keeps one. */
export class Jar {
  private cookies = new Map<string, string>();
  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {};
  }
  take(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      if (!value || attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()))) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The server's output: `mark()` before a request, `since(mark)` after it for the lines it logged (others' too, under concurrency). */
export type Server = { port: number; mark(): number; since(mark: number): string[]; stop(): Promise<void> };

/**
 * The built server (`node server.js`) on a free port and a fresh PGlite in a temporary folder, the demo seeded,
 * as playwright.config.ts starts it. Its output is kept (the last lines) to show beside any 5xx.
 */
export async function startServer(root: string): Promise<Server> {
  if (!existsSync(path.join(root, "build/index.js"))) throw new Error("no server build: run `npx remix build` first (or set FUZZ_URL).");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "gym-fuzz-"));
  const log: string[] = [];
  let total = 0; // lines ever logged; log keeps the last 2,000
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      SHUTDOWN_DRAIN_MS: "0", // no load balancer to wait for
      DEMO_MODE: "1",
      SEED_DEMO: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PGLITE_DIR: path.join(dir, "pglite"),
      SESSION_SECRET: "fuzz-session-secret-0123456789abcdef",
      TOAST_SECRET: "fuzz-toast-secret-0123456789abcdefgh",
      DATABASE_URL: "",
      WEB_CONCURRENCY: "1",
      SIGNUP_LIMIT_PER_HOUR: "100000",
    },
  });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      log.push(line.slice(0, 500));
      total++;
    }
    if (log.length > 2000) log.splice(0, log.length - 2000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited: number | null = null;
  child.on("exit", (code) => (exited = code ?? -1));
  const stop = async () => {
    if (exited === null) {
      child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 300));
      if (exited === null) child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited !== null) {
      await stop();
      throw new Error(`the server stopped (exit ${exited}) before it answered:\n${log.slice(-20).join("\n")}`);
    }
    const r = await send(port, { method: "GET", path: "/login", host: `localhost:${port}`, headers: {} });
    if (r.status === 200) return { port, mark: () => total, since: (mark) => log.slice(Math.max(0, log.length - (total - mark))), stop };
    await new Promise((res) => setTimeout(res, 500));
  }
  await stop();
  throw new Error(`the server did not answer GET /login within 120 s:\n${log.slice(-20).join("\n")}`);
}
