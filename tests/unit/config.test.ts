import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../server/core/config";

describe("settings from the environment", () => {
  it("has working defaults", () => {
    const c = parseConfig({ NODE_ENV: "test" });
    expect(c.PORT).toBe(3000);
    expect(c.BACKOFFICE_HOSTS).toEqual(["localhost", "127.0.0.1"]);
    expect(c.SIGNUP_HOSTS).toEqual(["signup.localhost"]);
    expect(c.outboxMail).toBe(true);
  });
  it("names the variable that is wrong", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseConfig({ SIGNUP_HOSTS: "signup.localhost:3000" })).toThrow(/SIGNUP_HOSTS: host names only/);
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(ConfigError);
  });
  it("refuses production without SMTP or secrets unless it is a demo", () => {
    expect(() => parseConfig({ NODE_ENV: "production" })).toThrow(/SMTP_URL: is required in production/);
    expect(() => parseConfig({ NODE_ENV: "production", SMTP_URL: "smtp://mail:25" })).toThrow(/SESSION_SECRET/);
    expect(parseConfig({ NODE_ENV: "production", DEMO_MODE: "1" }).outboxMail).toBe(true);
    const secrets = { SMTP_URL: "smtp://mail:25", SESSION_SECRET: "s".repeat(40), TOAST_SECRET: "t".repeat(40) };
    expect(() => parseConfig({ NODE_ENV: "production", ...secrets })).toThrow(/CREDENTIALS_KEY: is required in production/);
    expect(parseConfig({ NODE_ENV: "production", ...secrets, CREDENTIALS_KEY: "k".repeat(40) }).CREDENTIALS_KEY).toBe("k".repeat(40));
  });
  it("does not start with a provider's key but not its webhook secret, naming the variable (issue 29 H3)", () => {
    const demo = { NODE_ENV: "production", DEMO_MODE: "1" };
    expect(() => parseConfig({ ...demo, STRIPE_SECRET_KEY: "sk_live_abcdefgh" })).toThrow(/STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY/);
    expect(() => parseConfig({ ...demo, GOCARDLESS_ACCESS_TOKEN: "live_abcdefgh" })).toThrow(/GOCARDLESS_WEBHOOK_SECRET: is required with GOCARDLESS_ACCESS_TOKEN/);
    expect(() => parseConfig({ ...demo, GOCARDLESS_CLIENT_ID: "client-abcdefgh", GOCARDLESS_CLIENT_SECRET: "secret-abcdefgh" })).toThrow(/GOCARDLESS_WEBHOOK_SECRET: is required with GOCARDLESS_CLIENT_ID/);
    expect(() => parseConfig({ ...demo, KISI_API_KEY: "kisi-abcdefgh" })).toThrow(/KISI_WEBHOOK_SECRET: is required with KISI_API_KEY/);
    // Outside production too: a key means the provider's own webhooks will come.
    expect(() => parseConfig({ NODE_ENV: "development", STRIPE_SECRET_KEY: "sk_test_abcdefgh" })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(parseConfig({ ...demo, STRIPE_SECRET_KEY: "sk_live_abcdefgh", STRIPE_CONNECT_CLIENT_ID: "ca_abcdefgh", STRIPE_WEBHOOK_SECRET: "whsec_abcdefgh" }).STRIPE_WEBHOOK_SECRET).toBe("whsec_abcdefgh");
  });
});
