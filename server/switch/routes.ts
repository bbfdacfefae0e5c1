import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { users } from "../core/db/schema";
import type { ApiEnv } from "../core/context";
import { ApiError } from "../core/errors";
import { currentUser } from "../core/current-user";
import { requireStaff } from "../core/middleware";

const idParam = (raw: string) => {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1) throw new ApiError(404, "Not found.", "not_found");
  return id;
};

/**
 * Where the user works is kept on the user (current_organisation_id / current_gym_id), so it follows
 * them to their next sign-in. Only organisations and gyms the user belongs to can be chosen; anything
 * else answers 404, as if it did not exist.
 */
export const switchRoutes = new Hono<ApiEnv>()
  .post("/organisations/:id/switch", requireStaff, async (c) => {
    const { db } = c.var.tenant; // users carry no organisation: the tenant transaction may update them
    const id = idParam(c.req.param("id"));
    const u = c.var.user!;
    const target = u.organisations.find((o) => o.id === id && o.role !== "member");
    if (!target) throw new ApiError(404, "You are not staff of that organisation.", "not_found");
    await db.update(users).set({ current_organisation_id: id, current_gym_id: null }).where(eq(users.id, u.row.id));
    // The new organisation's first gym becomes current.
    const next = currentUser({ ...u.row, current_organisation_id: id, current_gym_id: null }, u.memberships);
    if (next.gym) await db.update(users).set({ current_gym_id: next.gym.id }).where(eq(users.id, u.row.id));
    return c.json({ data: { current_organisation: next.organisation, current_gym: next.gym } });
  })

  .post("/gyms/:id/switch", requireStaff, async (c) => {
    const { db } = c.var.tenant; // users carry no organisation: the tenant transaction may update them
    const id = idParam(c.req.param("id"));
    const u = c.var.user!;
    const gym = u.gyms.find((g) => g.id === id);
    if (!gym) throw new ApiError(404, "You do not work at that gym.", "not_found");
    if (gym.archived) throw new ApiError(409, "That gym is archived: restore it on its page to work in it again.", "gym_archived");
    await db.update(users).set({ current_gym_id: id }).where(eq(users.id, u.row.id));
    return c.json({ data: { current_gym: gym } });
  });
