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
  /**
   * A price's `subscriptions_count` may be up to PRICE_COUNT_TTL_MS old: for prices nested in a list of members,
   * where counting every holder of each price on every page would cost the list its budget (decision 0062). A
   * price's own answers (offerings, prices) always count afresh.
   */
  countsMayLag?: boolean;
}

export const entityContext = (c: Context<ApiEnv>): EntityContext => ({ at: now(c), signupBase: signupUrl(c.var.deps.config) });
