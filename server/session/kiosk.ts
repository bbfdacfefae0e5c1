import { Hono } from "hono";
import { makeKiosk } from "../core/auth/sessions";
import type { ApiEnv } from "../core/context";
import { ApiError } from "../core/errors";
import { requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/**
 * POST /api/kiosk (issue 32): this device becomes the check-in kiosk at the staff member's gym, for members at the
 * entrance to check themselves in with their code. From then on its session answers only the kiosk's routes
 * (requireKiosk: GET /api/kiosk, POST /api/check-ins/kiosk) and GET /api/me; signing out ends it, and the
 * back-office comes back only with a staff member signing in again. Here, with the session's other writes.
 */
export const kioskRoutes = new Hono<ApiEnv>().post("/kiosk", requireStaff, requireCan("visits.write"), async (c) => {
  const gym = c.var.user!.gym;
  if (!gym) throw new ApiError(409, "Choose the gym you are at first.", "no_gym");
  assertCan(c.var.user!, "visits.write", gym.id);
  // In the request's transaction: the session row is the person's, not the organisation's, and no policy scopes it.
  await makeKiosk(c.var.tenant.db, c.var.session!.id, gym.id);
  return c.json({ data: { gym: { id: gym.id, name: gym.name } } });
});
