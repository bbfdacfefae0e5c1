import { Agent, request } from "undici";
import { checkedLookup, staticRefusal, type AddressRules } from "./address";

/**
 * One POST to a receiver (issue 33): through an undici Agent whose connections resolve names with the checked lookup
 * (./address.ts), keep-alive so a busy endpoint is not handshaken again for every event, no redirect followed (a 3xx
 * is a failure, as the Standard Webhooks spec asks), at most `timeoutMs` for the answer's headers and as long again
 * for its body. The answer's body is kept to 4 KB, for the delivery's page.
 */
export const RESPONSE_BODY_LIMIT = 4096;

export interface SendResult {
  status: number | null;
  body: string | null;
  durationMs: number;
  /** Why no answer came (refused address, time-out, connection refused): null when one came. */
  error: string | null;
  retryAfter: string | null;
}

export interface Sender {
  post(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  close(): Promise<void>;
}

export function makeSender(rules: AddressRules, opts: { timeoutMs?: number; connectionsPerEndpoint?: number } = {}): Sender {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const agent = new Agent({
    connect: { lookup: checkedLookup(rules), timeout: Math.min(10_000, timeoutMs) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: opts.connectionsPerEndpoint ?? 32,
    keepAliveTimeout: 10_000,
  });
  return {
    async post(url, body, headers) {
      const refused = staticRefusal(url, rules);
      if (refused) return { status: null, body: null, durationMs: 0, error: `Not sent: ${refused}`, retryAfter: null };
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      try {
        const res = await request(url, { method: "POST", body, headers, dispatcher: agent, maxRedirections: 0 });
        const text = await firstBytes(res.body, RESPONSE_BODY_LIMIT);
        const retryAfter = res.headers["retry-after"];
        return {
          status: res.statusCode,
          body: text,
          durationMs: took(),
          error: null,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter ?? null,
        };
      } catch (err) {
        return { status: null, body: null, durationMs: took(), error: describe(err), retryAfter: null };
      }
    },
    close: () => agent.close(),
  };
}

/** The first `limit` bytes of an answer as text; the rest is read and thrown away, so the connection can be used again. */
async function firstBytes(body: AsyncIterable<Buffer> & { dump(opts?: { limit: number }): Promise<void> }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  await body.dump({ limit: 128 * 1024 }).catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code && e.code !== "UND_ERR_SOCKET" ? e.code : e.cause?.code;
  const message = e.message && e.message !== "fetch failed" ? e.message : e.cause?.message ?? "The request failed";
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
