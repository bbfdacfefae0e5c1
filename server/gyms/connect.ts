import { eq } from "drizzle-orm";
import { firstUseOfState, readState, signState } from "../core/auth/oauth-state";
import { sealSecret } from "../core/crypto/secrets";
import { gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError } from "../core/errors";
import { assertCan } from "../core/permissions";
import type { CurrentUser } from "../core/current-user";
import type { ConnectService } from "../core/providers/connect/connect-provider";
import { ProviderError } from "../core/providers/errors";
import type { Providers } from "../core/providers/registry";
import { findGym } from "./settings";

/**
 * A gym connecting its own Stripe or GoCardless account (issue 15): POST /api/gyms/{id}/{service}/redirect sends
 * the admin to the provider's page with a signed state naming this organisation, admin, gym and service; the
 * provider sends them back to /{service}/callback, whose page posts the code and state to POST /api/{service}/exchange.
 * A state that is forged, someone else's, for another service, older than 30 minutes or already used connects nothing.
 */
const LIFETIME_MS = 30 * 60 * 1000;
const PURPOSE = "gym-connect";
const NAMES = { stripe: "Stripe", gocardless: "GoCardless" } as const;

export const callbackUrl = (origin: string, service: ConnectService) => `${origin}/${service}/callback`;

export async function startConnection(t: Tenant, providers: Providers, user: CurrentUser, gymId: number, service: ConnectService, origin: string, secret: string, now: Date) {
  const gym = await findGym(t, gymId);
  const state = signState(secret, PURPOSE, [t.organisationId, user.row.id, gym.id, service], now, LIFETIME_MS);
  try {
    return { url: await providers.connect(service).authorizeUrl({ state, redirectUri: callbackUrl(origin, service), gymName: gym.name, email: user.row.email }) };
  } catch (err) {
    if (err instanceof ProviderError) throw new ApiError(503, `${NAMES[service]} cannot be connected right now: ${err.message}`, "provider_unavailable");
    throw err;
  }
}

const badState = (service: ConnectService) =>
  new ApiError(422, `That ${NAMES[service]} connection was not started here, or took too long. Start it again from the gym's page.`, "invalid_state", { state: ["Unknown or expired state"] });

/** POST /api/{service}/exchange { code, state }: the gym named in the state gets the account the code stands for. */
export async function finishConnection(t: Tenant, providers: Providers, user: CurrentUser, service: ConnectService, given: { code: string; state: string }, origin: string, secret: string, now: Date) {
  const parts = readState(secret, PURPOSE, given.state, 4, now);
  if (!parts || Number(parts[0]) !== t.organisationId || Number(parts[1]) !== user.row.id || parts[3] !== service) throw badState(service);
  const gym = await findGym(t, Number(parts[2]));
  assertCan(user, "gyms.write", gym.id);
  // One code per state: a state already exchanged is spent.
  if (!(await firstUseOfState(t.db, PURPOSE, given.state, LIFETIME_MS, now))) throw badState(service);
  let account;
  try {
    account = await providers.connect(service).exchange(given.code, callbackUrl(origin, service));
  } catch (err) {
    if (err instanceof ProviderError) throw new ApiError(err.retryable ? 503 : 422, `${NAMES[service]} did not connect the account: ${err.message}`, "connection_refused", { code: [err.message] });
    throw err;
  }
  if (service === "stripe") {
    await t.db.update(gyms).set({ stripe_id: account.accountId, updated_at: now }).where(t.where(gyms, eq(gyms.id, gym.id)));
  } else {
    // A live connection's token acts for the gym's own GoCardless account; a sandbox one has none (its debits stay on the sandbox).
    const integrations = { ...gym.integrations };
    if (account.accessToken) integrations.gocardless = { access_token: sealSecret(account.accessToken), environment: sealSecret(account.environment ?? "live") };
    else delete integrations.gocardless;
    await t.db.update(gyms).set({ gocardless_organisation_id: account.accountId, integrations, updated_at: now }).where(t.where(gyms, eq(gyms.id, gym.id)));
  }
  return gym.id;
}
