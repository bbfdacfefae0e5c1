import type { Context } from "hono";
import type { ApiEnv } from "./context";
import { invalid } from "./errors";
import { isOrganisationAdmin } from "./current-user";

/**
 * Which gym a list is of (members, payments, visits): the current gym unless the request names another. Every gym
 * ("all") and any gym of the organisation are for organisation admins; other staff may name the gyms they work in.
 */
export function resolveGym(c: Context<ApiEnv>, gym: number | "all" | undefined): number | null {
  const user = c.var.user!;
  const admin = isOrganisationAdmin(user);
  if (gym === undefined) return c.var.tenant.gymId;
  if (gym === "all") {
    if (!admin) throw invalid({ gym: ["Only organisation admins can list every gym"] });
    return null;
  }
  if (!user.gyms.some((g) => g.id === gym)) throw invalid({ gym: ["Choose a gym from the list"] });
  return gym;
}
