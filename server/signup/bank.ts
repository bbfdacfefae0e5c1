import { and, eq } from "drizzle-orm";
import { readState, signState as signState_ } from "../core/auth/oauth-state";
import { bank_connections } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError } from "../core/errors";
import { ProviderError } from "../core/providers/errors";
import type { Providers } from "../core/providers/registry";
import type { SignupGym } from "./methods";
import { savePaymentType } from "./payment-types";

/**
 * Paying from a bank account through Akahu (issue 13): the member consents on Akahu's page (OAuth), comes back with
 * a code and our `state`, the code becomes their user token (kept in bank_connections, never sent to a browser),
 * and they choose which shared account pays. The state is signed and names this member and organisation, and
 * expires in 30 minutes: a forged, someone else's or stale return connects nothing.
 */
const STATE_LIFETIME_MS = 30 * 60 * 1000;

export const signState = (secret: string, organisationId: number, userId: number, now: Date) => signState_(secret, "akahu-state", [organisationId, userId], now, STATE_LIFETIME_MS);

export function stateIsFor(secret: string, state: string, organisationId: number, userId: number, now: Date): boolean {
  const parts = readState(secret, "akahu-state", state, 2, now);
  return parts !== null && Number(parts[0]) === organisationId && Number(parts[1]) === userId;
}

const redirectUri = (origin: string) => `${origin}/bank-account-connected`;

export async function bankAuthUrl(t: Tenant, providers: Providers, member: { id: number; email: string }, gym: SignupGym, origin: string, secret: string, now: Date) {
  const state = signState(secret, t.organisationId, member.id, now);
  return providers.bank(gym).authorisationUrl({ redirectUri: redirectUri(origin), state, email: member.email });
}

/**
 * GET /api/akahu/auth-url for a gym's staff (SPEC §7 lists it under Gyms too): the consent page of the gym's own
 * open-banking app (its akahu-config, else the server's), which brings them back to the gym's page: how an admin
 * sees that the app the gym set up is the one its members will be asked to consent to. The state names the staff
 * member, as a member's names them.
 */
export async function gymBankAuthUrl(
  t: Tenant,
  providers: Providers,
  staff: { id: number; email: string },
  gym: SignupGym,
  backofficeOrigin: string,
  secret: string,
  now: Date,
) {
  const state = signState(secret, t.organisationId, staff.id, now);
  return providers.bank(gym).authorisationUrl({ redirectUri: `${backofficeOrigin}/gyms/${gym.id}`, state, email: staff.email });
}

/** POST /api/akahu/exchange: the code for the member's user token, kept (one connection per member, the newest wins). */
export async function exchangeBankCode(t: Tenant, providers: Providers, userId: number, gym: SignupGym, origin: string, secret: string, given: { code: string; state: string }, now: Date) {
  if (!stateIsFor(secret, given.state, t.organisationId, userId, now)) {
    throw new ApiError(422, "That bank connection was not started here, or took too long: connect your bank again.", "invalid_state", { state: ["Unknown or expired state"] });
  }
  let token: string;
  try {
    ({ token } = await providers.bank(gym).exchange(given.code, redirectUri(origin)));
  } catch (err) {
    if (err instanceof ProviderError && !err.retryable) throw new ApiError(422, "Your bank connection could not be completed: connect your bank again.", "invalid_code", { code: ["Invalid or used code"] });
    throw err;
  }
  await t.db
    .insert(bank_connections)
    .values({ organisation_id: t.organisationId, user_id: userId, provider: "akahu", access_token: token, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: [bank_connections.organisation_id, bank_connections.user_id, bank_connections.provider], set: { access_token: token, reauthenticate: false, revoked_at: null, updated_at: now } });
}

async function tokenOf(t: Tenant, userId: number) {
  const [connection] = await t.db
    .select({ token: bank_connections.access_token })
    .from(bank_connections)
    .where(t.where(bank_connections, and(eq(bank_connections.user_id, userId), eq(bank_connections.provider, "akahu"))));
  if (!connection) throw new ApiError(409, "Connect your bank first.", "not_connected");
  return connection.token;
}

/**
 * POST /api/akahu/sync-accounts [{ account_id }]: the accounts the member shared, read from Akahu now; with an
 * account id, that account (one that can pay) becomes their payment method.
 */
export async function syncBankAccounts(t: Tenant, providers: Providers, userId: number, gym: SignupGym, accountId?: string) {
  const accounts = await providers.bank(gym).accounts(await tokenOf(t, userId));
  if (!accountId) return { accounts, saved: null };
  const chosen = accounts.find((a) => a.id === accountId);
  if (!chosen || !chosen.canPay) throw new ApiError(422, "Choose an account payments can be made from.", "invalid_account", { account_id: ["Choose an account payments can be made from"] });
  const saved = await savePaymentType(
    t,
    userId,
    "bank_account",
    { akahu_account_id: chosen.id, account_number: chosen.accountNumber ?? "", name: `${chosen.bank} ${chosen.name}`.trim(), status: "active" },
    "akahu_account_id",
  );
  return { accounts, saved };
}
