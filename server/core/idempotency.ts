import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Context } from "hono";
import type { ApiEnv } from "./context";
import { idempotency_keys } from "./db/schema";
import type { Tenant } from "./db/tenant";
import { ApiError } from "./errors";

/** How long an answer is kept for its key: a client retrying after a day is making a new request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const HEADER = "idempotency-key";

/** Who the key belongs to: two callers' keys never meet. */
export const principalOf = (c: Context<ApiEnv>) => (c.var.user?.apiKey ? `key:${c.var.user.apiKey.id}` : `user:${c.var.user?.row.id ?? 0}`);

/**
 * `Idempotency-Key` on a POST (issue 33; draft-ietf-httpapi-idempotency-key-header): the first answer is kept and the
 * same request with the same key is answered it again (`Idempotent-Replayed: true`) without running anything; the
 * same key with another method, path or body is 422. Runs inside the request's transaction (server/core/middleware.ts
 * inTenant): the key's row is written first, so a second request with the key waits on its unique index until the
 * first commits, then is answered its result; a request that fails rolls back and keeps nothing, so it may be tried
 * again. Only successful answers are kept, for that reason.
 */
export async function withIdempotency(c: Context<ApiEnv>, t: Tenant, at: Date, run: () => Promise<void>) {
  const key = c.req.method === "POST" ? c.req.header(HEADER) : undefined;
  if (key === undefined) return run();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError(400, "Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID.", "invalid_idempotency_key", {
      "Idempotency-Key": ["Use 1 to 255 visible ASCII characters, such as a UUID"],
    });
  }
  const requestHash = createHash("sha256")
    .update(`${c.req.method} ${c.req.path}\n`)
    .update(Buffer.from(await c.req.arrayBuffer()))
    .digest("hex");
  const principal = principalOf(c);
  const mine = t.where(idempotency_keys, eq(idempotency_keys.principal, principal), eq(idempotency_keys.key, key));
  // A key older than a day is forgotten: its row goes, and this request is new.
  await t.db.delete(idempotency_keys).where(and(mine, lt(idempotency_keys.created_at, new Date(at.getTime() - IDEMPOTENCY_TTL_MS))));
  const [claimed] = await t.db
    .insert(idempotency_keys)
    .values(t.owned({ principal, key, request_hash: requestHash, status: 0, body: "", content_type: "", created_at: at }))
    .onConflictDoNothing()
    .returning({ id: idempotency_keys.id });
  if (!claimed) {
    const [first] = await t.db.select().from(idempotency_keys).where(mine);
    if (!first || first.status === 0)
      throw new ApiError(409, "A request with this Idempotency-Key is still being answered. Try again shortly.", "idempotency_key_in_use");
    if (first.request_hash !== requestHash) {
      throw new ApiError(422, "This Idempotency-Key was already used for a different request. Use a new key for a new request.", "idempotency_key_reused", {
        "Idempotency-Key": ["Already used for a different request"],
      });
    }
    c.res = new Response(first.body, { status: first.status, headers: { "Content-Type": first.content_type, "Idempotent-Replayed": "true" } });
    return;
  }
  await run();
  if (c.res.status >= 400) return; // rolled back with everything else
  const body = await c.res.clone().text();
  await t.db
    .update(idempotency_keys)
    .set({ status: c.res.status, body, content_type: c.res.headers.get("content-type") ?? "application/json" })
    .where(eq(idempotency_keys.id, claimed.id));
}
