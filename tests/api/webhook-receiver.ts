import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";

/**
 * A receiver for outgoing webhooks on 127.0.0.1 (tests, the benchmark, the kill trial): it keeps each request and
 * answers what `answer` says (200 by default).
 */
export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  answer: (r: Received) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };
  close(): Promise<void>;
}

const flat = (h: IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], answer: () => ({ status: 200, body: "ok" }), close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { headers: flat(req.headers), body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "/" };
      receiver.received.push(r);
      const a = receiver.answer(r);
      const reply = () => res.writeHead(a.status, { "content-type": "text/plain", ...a.headers }).end(a.body ?? "");
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  server.keepAliveTimeout = 1000;
  return receiver;
}

/**
 * Checks a request as a receiver would, with the `standardwebhooks` package: the signature (any one of the
 * space-separated ones) and the timestamp against the clock of when it was signed. Answers the parsed body, or throws.
 */
export function verified(secret: string, r: Received, asOf?: Date): unknown {
  const wh = new Webhook(secret);
  const signedAt = Number(r.headers["webhook-timestamp"]) * 1000;
  const realNow = Date.now;
  // The package compares the timestamp with its own clock (five minutes either way): the tests' clock may be days on.
  Date.now = () => (asOf ?? new Date(signedAt)).getTime();
  try {
    return wh.verify(r.body, r.headers);
  } finally {
    Date.now = realNow;
  }
}
