import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../server/config";

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
});
