/**
 * The providers of the crash trial (decision 0043), as their own long-lived process with their own store: the
 * sandboxes (`createProviders(ledgerDb, …)`, their code unchanged) on the ledger database, served over HTTP on
 * localhost. The trial's parent starts it once and never kills it, so a call a billing child made just before its
 * SIGKILL is finished here and written down under its idempotency key, as a real provider would; the next child finds
 * it by asking again with the same key.
 *
 *   node --import tsx scripts/crash-trial/provider-process.ts <ledgerUrl>   → prints "providers listening <port>"
 *
 * - POST /rpc {root, rootArgs, method, args, now}: one provider call (./rpc.ts), on the caller's simulated time.
 * - POST /webhooks {now, url}: the webhooks owed as of `now` (server/core/providers/sandbox-webhooks.ts), delivered to
 *   `url`/{provider} one after another, signed with the endpoint's secrets (CRASH_STRIPE_WEBHOOK_SECRET,
 *   CRASH_GOCARDLESS_WEBHOOK_SECRET); what is not answered 2xx (the endpoint died mid-call, or failed) is sent again
 *   next time: at least once. Some are sent twice and each batch in a shuffled order, as real providers do.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer } from "node:http";
import { openDatabase } from "../../server/core/db/client";
import { ProviderError } from "../../server/core/providers/errors";
import { createProviders } from "../../server/core/providers/registry";
import { deliverSandboxWebhooks } from "../../server/core/providers/sandbox-webhooks";
import type { SandboxWebhookSettings } from "../../server/core/providers/sandbox-webhook-settings";
import { decode, encode, FACTORIES, OBJECTS, type RpcAnswer, type RpcCall } from "./rpc";

const [, , ledgerUrl] = process.argv;
const stripeSecret = process.env.CRASH_STRIPE_WEBHOOK_SECRET;
const gocardlessSecret = process.env.CRASH_GOCARDLESS_WEBHOOK_SECRET;
if (!ledgerUrl || !stripeSecret || !gocardlessSecret) throw new Error("usage: provider-process.ts <ledgerUrl>, with CRASH_STRIPE_WEBHOOK_SECRET and CRASH_GOCARDLESS_WEBHOOK_SECRET set");

const ledger = await openDatabase({ databaseUrl: ledgerUrl, pgliteDir: "", migrate: false });
// Each request's own time: calls of two children (one just killed) may be under way at once.
const time = new AsyncLocalStorage<Date>();
const clock = { now: () => time.getStore() ?? new Date() };
const akahuKey = process.env.CRASH_AKAHU_SANDBOX_SIGNING_KEY;
const providers = createProviders(ledger.db, { sandboxAllowed: true, linkBase: "http://signup.localhost:3000/", akahuSandboxKey: akahuKey }, clock);
const WEBHOOKS: SandboxWebhookSettings = { delaySeconds: 30, duplicate: 0.05, drop: 0, reorder: true, inFlight: 8 };

async function rpc(call: RpcCall): Promise<unknown> {
  const roots: readonly string[] = [...FACTORIES, ...OBJECTS];
  if (!roots.includes(call.root)) throw new Error(`No such rail: ${call.root}`);
  const rails = providers as unknown as Record<string, ((...a: unknown[]) => Record<string, unknown>) & Record<string, unknown>>;
  const target = (FACTORIES as readonly string[]).includes(call.root) ? rails[call.root](...call.rootArgs) : rails[call.root];
  const method = target[call.method];
  if (typeof method !== "function") throw new Error(`No such call: ${call.root}.${call.method}`);
  return time.run(new Date(call.now), () => (method as (...a: unknown[]) => Promise<unknown>).apply(target, call.args));
}

// One delivery round at a time: two rounds reading the same rows would only send them twice.
let rounds: Promise<unknown> = Promise.resolve();
function deliverWebhooks(now: Date, url: string) {
  const round = rounds.then(async () => {
    const deliver = async (provider: string, body: string, headers: Record<string, string>) => {
      try {
        return (await fetch(`${url}/${provider}`, { method: "POST", body, headers })).status;
      } catch {
        return 0; // the endpoint is gone (its process was killed): not acknowledged, sent again next time
      }
    };
    const total = { delivered: 0, duplicated: 0, dropped: 0, refused: 0 };
    // 500 ledger rows a round, the earliest owed first, until a round delivers nothing more (all owed were sent, or
    // the endpoint is gone: what it refused is owed still, for the next call).
    for (;;) {
      const r = await deliverSandboxWebhooks(ledger.db, deliver, now, WEBHOOKS, { stripe: stripeSecret!, gocardless: gocardlessSecret!, akahu: akahuKey ?? null });
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r[k];
      if (r.delivered === 0) return total;
    }
  });
  rounds = round.catch(() => undefined);
  return round;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    void (async () => {
      let answer: RpcAnswer;
      try {
        const body = Buffer.concat(chunks).toString("utf8");
        if (req.method === "POST" && req.url === "/rpc") answer = { result: await rpc(decode<RpcCall>(body)) };
        else if (req.method === "POST" && req.url === "/webhooks") {
          const { now, url } = decode<{ now: string; url: string }>(body);
          answer = { result: await deliverWebhooks(new Date(now), url) };
        } else answer = { error: { message: `No such route: ${req.method} ${req.url}`, provider: false, retryable: false } };
      } catch (err) {
        const e = err as Error;
        answer = { error: { message: e.message, provider: e instanceof ProviderError, retryable: e instanceof ProviderError && e.retryable } };
      }
      // The caller may be gone (killed): the work above is done and in the books all the same.
      if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end(encode(answer));
    })();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`providers listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
const stop = () => void ledger.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
