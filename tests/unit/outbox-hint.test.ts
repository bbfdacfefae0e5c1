import { describe, expect, it } from "vitest";
import { outboxHint } from "../../app/lib/outbox.server";
import { parseConfig } from "../../server/core/config";

const secrets = { SESSION_SECRET: "s".repeat(40), TOAST_SECRET: "t".repeat(40), CREDENTIALS_KEY: "c".repeat(40) };

describe("the code pages' pointer to the demo's mail", () => {
  it("points at /dev/mail while mail stays in the outbox: a demo, or development", () => {
    expect(outboxHint(parseConfig({ NODE_ENV: "production", DEMO_MODE: "1", ...secrets }))).toBe("/dev/mail");
    expect(outboxHint(parseConfig({ NODE_ENV: "development", ...secrets }))).toBe("/dev/mail");
  });

  it("says nothing once SMTP sends real mail, in production or a demo", () => {
    expect(outboxHint(parseConfig({ NODE_ENV: "production", SMTP_URL: "smtp://mail.example:587", ...secrets }))).toBeNull();
    expect(outboxHint(parseConfig({ NODE_ENV: "production", DEMO_MODE: "1", SMTP_URL: "smtp://mail.example:587", ...secrets }))).toBeNull();
  });
});
