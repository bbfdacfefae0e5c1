import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { gocardlessConnect, stripeConnect } from "../../server/core/providers/connect/live";
import { ProviderError } from "../../server/core/providers/errors";

/**
 * The live adapters for a gym connecting its own accounts (issue 15), against nock answering as Stripe's Connect
 * OAuth reference and GoCardless's partner OAuth guide document: what we send, and how each answer becomes ours.
 */
beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => nock.cleanAll());

const redirectUri = "https://office.gym.example/stripe/callback";

describe("Stripe Connect OAuth (stripe SDK)", () => {
  const connect = stripeConnect({ secretKey: "sk_test_platform", clientId: "ca_gymplatform" });

  it("sends the admin to Stripe's authorise page with our client, state and return address", async () => {
    const url = new URL(await connect.authorizeUrl({ state: "signed-state", redirectUri, gymName: "North", email: "owner@north.example" }));
    expect(url.origin + url.pathname).toBe("https://connect.stripe.com/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: "code", client_id: "ca_gymplatform", scope: "read_write", redirect_uri: redirectUri, state: "signed-state", "stripe_user[email]": "owner@north.example" });
  });

  it("exchanges the code for the connected account's id", async () => {
    let sent = "";
    nock("https://connect.stripe.com")
      .post("/oauth/token", (body) => ((sent = new URLSearchParams(body).toString()), true))
      .reply(200, { access_token: "sk_acct", livemode: false, refresh_token: "rt", scope: "read_write", stripe_publishable_key: "pk", stripe_user_id: "acct_1GymNorth", token_type: "bearer" });
    expect(await connect.exchange("ac_code123", redirectUri)).toEqual({ accountId: "acct_1GymNorth" });
    expect(new URLSearchParams(sent).get("code")).toBe("ac_code123");
    expect(new URLSearchParams(sent).get("grant_type")).toBe("authorization_code");
  });

  it("turns a refused code into a ProviderError that is not worth retrying", async () => {
    nock("https://connect.stripe.com").post("/oauth/token").reply(400, { error: "invalid_grant", error_description: "Authorization code does not exist: ac_gone" });
    const err = await connect.exchange("ac_gone", redirectUri).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(false);
  });
});

describe("GoCardless partner OAuth", () => {
  const connect = gocardlessConnect({ clientId: "gc_client_id_1", clientSecret: "gc_client_secret_1", environment: "sandbox" });
  const back = "https://office.gym.example/gocardless/callback";

  it("sends the admin to GoCardless's sandbox authorise page with the e-mail prefilled", async () => {
    const url = new URL(await connect.authorizeUrl({ state: "signed-state", redirectUri: back, gymName: "North", email: "owner@north.example" }));
    expect(url.origin + url.pathname).toBe("https://connect-sandbox.gocardless.com/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({ response_type: "code", client_id: "gc_client_id_1", scope: "read_write", redirect_uri: back, state: "signed-state", "prefill[email]": "owner@north.example" });
  });

  it("exchanges the code for the organisation's id and an access token, with our client's secret", async () => {
    let sent = new URLSearchParams();
    nock("https://connect-sandbox.gocardless.com")
      .post("/oauth/access_token", (body) => ((sent = new URLSearchParams(body)), true))
      .reply(200, { access_token: "sandbox_token_north", scope: "read_write", token_type: "bearer", email: "owner@north.example", organisation_id: "OR123NORTH" });
    expect(await connect.exchange("code_1", back)).toEqual({ accountId: "OR123NORTH", accessToken: "sandbox_token_north", environment: "sandbox" });
    expect(Object.fromEntries(sent)).toEqual({ grant_type: "authorization_code", code: "code_1", redirect_uri: back, client_id: "gc_client_id_1", client_secret: "gc_client_secret_1" });
  });

  it("says whether a failure is worth retrying: a refused code no, GoCardless down yes", async () => {
    nock("https://connect-sandbox.gocardless.com").post("/oauth/access_token").reply(400, { error: "invalid_grant", error_description: "The code has expired" });
    const refused = await connect.exchange("old", back).catch((e) => e);
    expect([refused instanceof ProviderError, refused.retryable, refused.message]).toEqual([true, false, "GoCardless refused the connection: The code has expired"]);
    nock("https://connect-sandbox.gocardless.com").post("/oauth/access_token").reply(503, {});
    expect((await connect.exchange("x", back).catch((e) => e)).retryable).toBe(true);
  });
});
