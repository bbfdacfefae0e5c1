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
    // The sign-up pages' inline stylesheet carries the nonce; nothing else inline is allowed.
    expect(csp).toContain("style-src 'self' 'nonce-abc123'");
  });

  it("lets images come from our origin and blob: URLs (a photo's preview before it is sent), and nowhere else", () => {
    const imgSrc = securityHeaders(config, "n")["Content-Security-Policy"].split("; ").find((d) => d.startsWith("img-src"));
    expect(imgSrc).toBe("img-src 'self' blob:");
    for (const page of ["/members", "/api/members", "/api/docs/x"]) expect(securityHeaders(config, "n", page)["Content-Security-Policy"]).toContain("img-src 'self' blob:;");
  });

  it("lets the API reference alone (Swagger UI's icons) load data: images", () => {
    expect(securityHeaders(config, "n", "/api/docs")["Content-Security-Policy"]).toContain("img-src 'self' blob: data:;");
  });

  it("lets a sign-up form's redirect reach the providers' hosted pages, and no other site", () => {
    const formAction = securityHeaders(config, "n")["Content-Security-Policy"].split("; ").find((d) => d.startsWith("form-action"))!;
    for (const page of ["https://checkout.stripe.com", "https://pay.gocardless.com", "https://oauth.akahu.nz"]) expect(formAction).toContain(page);
    expect(formAction).not.toContain("*.");
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
