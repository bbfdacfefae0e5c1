import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { ProviderError } from "../errors";
import { sandboxSessions } from "../sandbox-sessions";
import type { ConnectProvider, ConnectService } from "./connect-provider";

/**
 * The sandbox providers' account-connection pages (/sandbox/{stripe|gocardless}/connect/{id}), kept as their
 * hosted pages are (server/core/providers/sandbox-sessions.ts): opened with where to send the admin back, approved or
 * refused on the page, and the code read back once. The account made is a sandbox one: GoCardless's comes with no
 * token, so the gym's direct debits stay on the sandbox.
 */
export function sandboxConnect(db: Db, service: ConnectService): ConnectProvider {
  const sessions = sandboxSessions(db, service, service === "stripe" ? "oauth" : "OA");
  return {
    service,
    mode: "sandbox",
    async authorizeUrl({ state, redirectUri, gymName, email }) {
      const back = (extra: string) => `${redirectUri}${redirectUri.includes("?") ? "&" : "?"}${extra}&state=${encodeURIComponent(state)}`;
      const session = await sessions.open({
        idempotencyKey: `connect:${state}`,
        successUrl: back("code={CHECKOUT_SESSION_ID}"),
        cancelUrl: back("error=access_denied"),
        request: { kind: "connect", gym: gymName, email },
      });
      return `/sandbox/${service}/connect/${session.id}`;
    },
    async exchange(code) {
      const session = await sessions.read(code);
      if (!session || session.request.kind !== "connect" || session.status !== "complete" || !session.result?.account_id) {
        throw new ProviderError(`The ${service === "stripe" ? "Stripe" : "GoCardless"} sandbox does not know that code.`, false);
      }
      // A code is good once, as a real provider's is.
      await sessions.finish(session.id, "expired", session.result);
      return { accountId: String(session.result.account_id) };
    },
  };
}

/** The account the sandbox's page makes when the admin approves. */
export const sandboxAccountId = (service: ConnectService) => (service === "stripe" ? `acct_sandbox${randomBytes(6).toString("hex")}` : `OR_sandbox${randomBytes(5).toString("hex").toUpperCase()}`);
