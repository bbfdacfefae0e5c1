import { Hono } from "hono";
import { apiKeyCreateSchema } from "../../domain/schemas/api-keys";
import { pathId, readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { now, requireStaff } from "../core/middleware";
import { requireCan } from "../core/permissions";
import { createKey, listKeys, revokeKey } from "./store";

const admins = [requireStaff, requireCan("integrations.write")] as const;

/** Integrators' API keys (issue 33): organisation admins make, list and revoke them; keys cannot manage keys. */
export const apiKeyRoutes = new Hono<ApiEnv>()
  /** GET /api/api-keys → { data: { data: [key…] } }: never a secret. */
  .get("/api-keys", ...admins, async (c) => c.json({ data: { data: await listKeys(c.var.tenant) } }))
  /** POST /api/api-keys (apiKeyCreateSchema) → 201 { data: key with `secret` }: the only answer that holds the secret. */
  .post("/api-keys", ...admins, async (c) => {
    const input = await readBody(c, apiKeyCreateSchema);
    const u = c.var.user!;
    return c.json({ data: await createKey(c.var.tenant, input, { id: u.row.id, name: u.row.name }, now(c)) }, 201);
  })
  /** DELETE /api/api-keys/{id}: revoked at once, kept in the list as revoked. */
  .delete("/api-keys/:id{[0-9]+}", ...admins, async (c) => {
    const key = await revokeKey(c.var.tenant, pathId(c, "No such API key."), c.var.user!.row.id, now(c));
    return c.json({ data: key });
  });
