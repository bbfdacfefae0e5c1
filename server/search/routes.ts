import { Hono } from "hono";
import { searchSchema } from "../../domain/schemas/search";
import { readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { requireStaff } from "../core/middleware";
import { gymsWhere, requireCan } from "../core/permissions";
import { searchMembers } from "./queries";

/**
 * POST /api/search { query } → { data: { data: [{ id, name, email }] } }. SPEC §7 reads the list from
 * data.data and our API client unwraps the outer `data`, hence the double wrapper.
 * The organisation comes from the session (requireStaff's tenant), never from the request.
 */
export const searchRoutes = new Hono<ApiEnv>().post("/search", requireStaff, requireCan("members.read"), async (c) => {
  const { query } = await readBody(c, searchSchema);
  // A blank query clears the results (SPEC §4); no need to ask the database.
  const hits = query ? await searchMembers(c.var.tenant, query, gymsWhere(c.var.user!, "members.read")) : [];
  return c.json({ data: { data: hits } });
});
