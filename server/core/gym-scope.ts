import type { Context } from "hono";
import type { ApiEnv } from "./context";
import { invalid } from "./errors";
import { isOrganisationAdmin } from "./current-user";
import { assertCan, type Capability } from "./permissions";

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

/** A list's filters with its gym resolved (resolveGym) and the capability checked in that gym (payments, visits). */
export function scopedToGym<T extends { gym?: number | "all" }>(c: Context<ApiEnv>, q: T, capability: Capability) {
  const { gym, ...rest } = q;
  const gymId = resolveGym(c, gym);
  assertCan(c.var.user!, capability, gymId);
  return { ...rest, gymId };
}
