import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Tenant } from "../db/tenant";
import type { Mailer } from "../mail/mailer";
import type { SessionRow } from "../auth/sessions";
import type { CurrentUser } from "./users/current";

export interface ApiDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  now?: () => Date;
}

export type ApiEnv = {
  /** Passed by the HTTP server (or the in-process client) from the socket: never read from headers unless TRUST_PROXY. */
  Bindings: { clientIp?: string };
  Variables: {
    deps: ApiDeps;
    session: SessionRow | null;
    user: CurrentUser | null;
    tenant: Tenant;
  };
};
