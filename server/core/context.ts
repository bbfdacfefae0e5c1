import type { Providers } from "./providers/registry";
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { Tenant } from "./db/tenant";
import type { Mailer } from "./mail/mailer";
import type { SessionRow } from "./auth/sessions";
import type { CurrentUser } from "./current-user";
import type { FinishedWeeksCache } from "./cache/finished-weeks";
import type { JobStarter } from "./job-starter";

/** Reads one page's loaders share: their GET calls to the in-process API ask once (server/core/middleware.ts pageRead). */
export type PageReads = Map<string, Promise<unknown>>;

import type { WebhookSecrets } from "./webhooks/secrets";

export interface ApiDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  now?: () => Date;
  /** Active members in finished weeks, kept until the week rolls over (server/core/cache/finished-weeks.ts); made by createApi. */
  finishedWeeks?: FinishedWeeksCache;
  /** The outside services (server/core/providers/registry.ts): webhooks ask them for a payment's state now (default: every sandbox on this database). */
  providers?: Providers;
  /** Starts background jobs once a request's change is committed (server/core/job-starter.ts); default: in this process. */
  jobs?: JobStarter;
  /**
   * What the providers' webhooks are checked with (server/core/webhooks/secrets.ts): loaded once, before any request, since
   * a request's unit of work may not take the system's handle to read them; createApi loads them when not given.
   */
  webhookSecrets?: Promise<WebhookSecrets>;
}

export type ApiEnv = {
  /** Passed by the HTTP server (or the in-process client) from the socket: never read from headers unless TRUST_PROXY. */
  Bindings: { clientIp?: string; pageReads?: PageReads };
  Variables: {
    deps: ApiDeps;
    session: SessionRow | null;
    user: CurrentUser | null;
    tenant: Tenant;
    /** Work to run once this request's transaction is committed (server/core/middleware.ts requireStaff). */
    afterCommit: (work: () => Promise<void>) => void;
  };
};
