/**
 * Receivers of outgoing webhooks on 127.0.0.1 for the benchmark (bench/webhooks.ts) and the kill trial
 * (scripts/webhook-kill-trial.ts), in a process of their own so that verifying signatures does not share the sender's
 * event loop, and so that they live through the sender's kills. One HTTP server per endpoint, each checking every
 * request as a receiver should: the signature with the `standardwebhooks` package (any of the space-separated ones)
 * and the timestamp; then it keeps the `webhook-id` and counts a repeat as a duplicate, not a new message.
 *
 *   startReceivers(secrets) → { urls, stats(), close() }   (the parent; the child is this file with --webhook-receivers)
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";

export interface ReceiverStats {
  /** Requests that came in, verified or not. */
  requests: number;
  /** Distinct (endpoint, webhook-id) pairs verified: the messages a deduplicating receiver took. */
  unique: number;
  /** Verified requests whose (endpoint, webhook-id) had come before. */
  duplicates: number;
  /** Requests whose signature or timestamp did not verify. */
  invalid: number;
  /** The distinct pairs, as "endpoint webhook-id", when asked for (the kill trial compares them with the outbox). */
  ids?: string[];
}

type Message = { type: "stats"; ids: boolean } | { type: "close" };

if (process.argv.includes("--webhook-receivers")) {
  const secrets = JSON.parse(process.env.WEBHOOK_RECEIVER_SECRETS ?? "[]") as string[];
  const delayMs = Number(process.env.WEBHOOK_RECEIVER_DELAY_MS ?? 0);
  const seen = new Set<string>();
  const stats = { requests: 0, unique: 0, duplicates: 0, invalid: 0 };
  const servers: Server[] = secrets.map((secret, i) => {
    const wh = new Webhook(secret);
    return createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        stats.requests++;
        const body = Buffer.concat(chunks).toString("utf8");
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        try {
          wh.verify(body, headers);
        } catch {
          stats.invalid++;
          return void res.writeHead(400).end("bad signature");
        }
        const key = `${i} ${headers["webhook-id"]}`;
        if (seen.has(key)) stats.duplicates++;
        else {
          seen.add(key);
          stats.unique++;
        }
        const answer = () => res.writeHead(204).end();
        if (delayMs) setTimeout(answer, Math.random() * delayMs);
        else answer();
      });
    });
  });
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  for (const s of servers) s.keepAliveTimeout = 30_000;
  process.on("message", (m: Message) => {
    if (m.type === "stats") process.send!({ ...stats, ...(m.ids ? { ids: [...seen] } : {}) });
    if (m.type === "close") for (const s of servers) s.close(() => undefined);
  });
  process.send!({ ports: servers.map((s) => (s.address() as { port: number }).port) });
}

export interface Receivers {
  urls: string[];
  stats(opts?: { ids?: boolean }): Promise<ReceiverStats>;
  close(): Promise<void>;
}

/** One receiver per secret, in a child process; `urls[i]` checks signatures with `secrets[i]`. */
export async function startReceivers(secrets: string[], opts: { delayMs?: number } = {}): Promise<Receivers> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--webhook-receivers"], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, WEBHOOK_RECEIVER_SECRETS: JSON.stringify(secrets), WEBHOOK_RECEIVER_DELAY_MS: String(opts.delayMs ?? 0) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once("message", (m: { ports: number[] }) => resolve(m.ports));
    child.once("exit", (code) => reject(new Error(`the receivers' process ended (exit ${code})`)));
  });
  return {
    urls: ports.map((p, i) => `http://127.0.0.1:${p}/endpoint-${i}`),
    stats: ({ ids = false } = {}) =>
      new Promise<ReceiverStats>((resolve) => {
        child.once("message", (m: ReceiverStats) => resolve(m));
        child.send({ type: "stats", ids } satisfies Message);
      }),
    close: async () => {
      child.kill();
      await new Promise((r) => child.once("exit", r));
    },
  };
}
