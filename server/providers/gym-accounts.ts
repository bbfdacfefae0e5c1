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
 * read them: when they are encrypted at rest (issue 15), this is what decrypts.
 */
export function gymCredential(gym: Pick<GymAccounts, "integrations">, service: GymService, key: string): string | null {
  const value = gym.integrations?.[service]?.[key];
  return typeof value === "string" && value.trim() ? value : null;
}
