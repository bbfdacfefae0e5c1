import type { Context } from "hono";
import { signupUrl } from "../core/config";
import type { ApiEnv } from "../core/context";
import { now } from "../core/middleware";

/**
 * What SPEC's entities are built with besides the tenant's rows (server/entities/): the moment they are read as of
 * (a subscription's "within its term", a price's value from today) and the sign-up site's address (a private
 * link's addresses). The gym a price's card surcharge is worked out at is the tenant's current gym.
 */
export interface EntityContext {
  at: Date;
  signupBase: string;
}

export const entityContext = (c: Context<ApiEnv>): EntityContext => ({ at: now(c), signupBase: signupUrl(c.var.deps.config) });
