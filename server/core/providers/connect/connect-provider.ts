/**
 * Connecting a gym's own account at a payment provider (issue 15): the OAuth-style round trip. The gym's admin is
 * sent to the provider's page (`authorizeUrl`), approves there, and comes back to our callback with a code and our
 * signed state; `exchange` turns the code into the gym's account (Stripe: its Connect account id; GoCardless: its
 * organisation id and an access token to act for it).
 */
export type ConnectService = "stripe" | "gocardless";

export interface ConnectedAccount {
  accountId: string;
  /** GoCardless's token for acting on the gym's account: stored sealed (server/core/crypto/secrets.ts). */
  accessToken?: string;
  environment?: "live" | "sandbox";
}

export interface ConnectProvider {
  service: ConnectService;
  mode: "live" | "sandbox" | "unconfigured";
  authorizeUrl(req: { state: string; redirectUri: string; gymName: string; email: string }): Promise<string>;
  exchange(code: string, redirectUri: string): Promise<ConnectedAccount>;
}
