import type { SwrCache } from "../cache/stale-while-revalidate";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Tenant } from "../db/tenant";
import type { Mailer } from "../mail/mailer";
import type { SessionRow } from "../auth/sessions";
import type { CurrentUser } from "./users/current";

/** One page's session lookups, shared by its loaders' GET calls to the in-process API. */
export type SessionMemo = Map<string, Promise<{ session: SessionRow; user: CurrentUser } | null>>;

export interface ApiDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  now?: () => Date;
  /** Costly figures that may be a little old (server/api/dashboard/membership-figures.ts); made by createApi. */
  figures?: SwrCache;
  /** Row-level security behind every tenant query (default on); off only in the tenant-isolation test. */
  rowLevelSecurity?: boolean;
}

export type ApiEnv = {
  /** Passed by the HTTP server (or the in-process client) from the socket: never read from headers unless TRUST_PROXY. */
  Bindings: { clientIp?: string; sessionMemo?: SessionMemo };
  Variables: {
    deps: ApiDeps;
    session: SessionRow | null;
    user: CurrentUser | null;
    tenant: Tenant;
  };
};
