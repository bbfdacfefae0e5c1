import { describe, expect, it } from "vitest";
import { cspNonce, securityHeaders } from "../../server/http/security-headers";

const config = {
  NODE_ENV: "production" as const,
  DEMO_MODE: false,
  BACKOFFICE_HOSTS: ["office.gym.example"],
  SIGNUP_HOSTS: ["join.gym.example", "signup.localhost"],
};

describe("securityHeaders", () => {
  it("allows scripts from our origin and this response's nonce only, and posts to our hosts only", () => {
    const csp = securityHeaders(config, "abc123")["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' office.gym.example:* join.gym.example:* signup.localhost:*");
  });

  it("sends HSTS in production only, and not for a demo over plain http", () => {
    expect(securityHeaders(config, "n")["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(securityHeaders({ ...config, DEMO_MODE: true }, "n")["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ ...config, NODE_ENV: "development" }, "n")["Strict-Transport-Security"]).toBeUndefined();
  });

  it("makes a new unguessable nonce each time", () => {
    const a = cspNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(cspNonce()).not.toBe(a);
  });
});
