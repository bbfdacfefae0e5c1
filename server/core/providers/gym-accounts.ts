import { openSecret } from "../crypto/secrets";

/**
 * A gym's accounts at the outside services, as the provider registry (./registry.ts) reads them to choose an
 * adapter: its Stripe Connect account, its GoCardless organisation, and the credentials staff stored for the
 * other services (SPEC §3 Gym: deep links, bank data, direct debit, push).
 */
export interface GymAccounts {
  id: number;
  stripe_id: string | null;
  gocardless_organisation_id: string | null;
  integrations: Record<string, Record<string, string>> | null;
}

export type GymService = "gocardless" | "akahu" | "onesignal" | "branch";

/**
 * One stored credential of a gym, or null when it has none. The one place the billing engine and the providers
 * read them: each is stored sealed (server/core/crypto/secrets.ts), and this opens it. A value that does not open (not
 * sealed by us, or under another key) counts as none: the service falls back to its sandbox or the server's own.
 */
export function gymCredential(gym: Pick<GymAccounts, "integrations">, service: GymService, key: string): string | null {
  const value = gym.integrations?.[service]?.[key];
  if (typeof value !== "string" || !value) return null;
  const open = openSecret(value);
  return open && open.trim() ? open : null;
}
