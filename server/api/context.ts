import type { CardProvider } from "../providers/cards/card-provider";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Tenant } from "../db/tenant";
import type { Mailer } from "../mail/mailer";
import type { SessionRow } from "../auth/sessions";
import type { CurrentUser } from "./users/current";
import type { FinishedWeeksCache } from "./dashboard/finished-weeks";

/** Reads one page's loaders share: their GET calls to the in-process API ask once (server/api/middleware.ts pageRead). */
export type PageReads = Map<string, Promise<unknown>>;

export interface ApiDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  now?: () => Date;
  /** Active members in finished weeks, kept until the week rolls over (server/api/dashboard/finished-weeks.ts); made by createApi. */
  finishedWeeks?: FinishedWeeksCache;
  /** The card provider webhooks ask for a charge's state now (default: the sandbox on this database). */
  cards?: CardProvider;
  /** Row-level security behind every tenant query (default on); off only in the tenant-isolation test. */
  rowLevelSecurity?: boolean;
}

export type ApiEnv = {
  /** Passed by the HTTP server (or the in-process client) from the socket: never read from headers unless TRUST_PROXY. */
  Bindings: { clientIp?: string; pageReads?: PageReads };
  Variables: {
    deps: ApiDeps;
    session: SessionRow | null;
    user: CurrentUser | null;
    tenant: Tenant;
  };
};
