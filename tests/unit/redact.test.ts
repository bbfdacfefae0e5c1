import { describe, expect, it } from "vitest";
import { safeError, scrub, scrubText } from "../../server/core/observability/redact";
import { scrubEvent } from "../../server/core/observability/report";

/** What may leave the process in logs and error reports (issue 19): no secrets, no personal data. */
describe("redaction", () => {
  it("masks e-mail addresses, card and bank numbers, and a failed query's parameters in text", () => {
    expect(scrubText("no member mia.member@example.com here")).toBe("no member [email] here");
    expect(scrubText("card 4242 4242 4242 4242 declined")).toBe("card [number] declined");
    expect(scrubText("account 12-3456-7890123-00 closed")).toBe("account [bank account] closed");
    expect(scrubText('Failed query: select "id" from "users" where "email" = $1\nparams: mia@example.com,secret')).toBe('Failed query: select "id" from "users" where "email" = $1\nparams: [redacted]');
    expect(scrubText("payment 123 for 4500 cents")).toBe("payment 123 for 4500 cents");
  });

  it("drops the values of keys that name secrets or personal details, at any depth", () => {
    const out = scrub({ password: "hunter2", body: { email: "a@b.co", code: "123456", amount: 4500, nested: [{ access_token: "tok_1", card_number: "4242424242424242" }] }, Authorization: "Bearer x", verified: true, note: "call a@b.co" });
    expect(out).toEqual({ password: "[redacted]", body: { email: "[redacted]", code: "[redacted]", amount: 4500, nested: [{ access_token: "[redacted]", card_number: "[redacted]" }] }, Authorization: "[redacted]", verified: true, note: "call [email]" });
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(scrub(loop)).toEqual({ a: 1, self: "[…]" });
  });

  it("keeps an error's kind, code, cause and stack, never its parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique": Key (email)=(mia@example.com)'), { code: "23505" });
    const err = new Error("Failed query: insert into users values ($1)\nparams: mia@example.com", { cause });
    const safe = safeError(err);
    expect(safe).toMatchObject({ type: "Error", message: "Failed query: insert into users values ($1)\nparams: [redacted]", cause: { code: "23505" } });
    expect(safe.cause!.message).not.toContain("mia@example.com");
    expect(safe.stack.length).toBeGreaterThan(0);
    expect(JSON.stringify(safe)).not.toContain("mia@example.com");
  });

  it("sends Sentry no cookies, headers, query strings or bodies, and the user by id only", () => {
    const event = scrubEvent({
      request: { method: "POST", url: "https://admin.example.com/reset?token=abc", cookies: { session: "s" }, headers: { cookie: "session=s" }, data: { password: "x" }, query_string: "token=abc" },
      user: { id: "42", email: "mia@example.com", ip_address: "203.0.113.7" },
      extra: { card: "4242424242424242", gym_id: 3 },
      exception: { values: [{ type: "Error", value: "no user mia@example.com" }] },
      breadcrumbs: [
        { message: "sent to mia@example.com", data: { token: "t" } },
        { category: "navigation", data: { from: "/search?q=mia%20member", to: "/members/7#notes" } },
        { category: "http", data: { url: "https://api.provider.example/v1/customers?email=mia@example.com", status_code: 200 } },
      ],
    });
    expect(event.request).toEqual({ method: "POST", url: "https://admin.example.com/reset" });
    expect(event.user).toEqual({ id: "42" });
    expect(event.extra).toEqual({ card: "[redacted]", gym_id: 3 });
    expect(event.exception!.values![0].value).toBe("no user [email]");
    expect(event.breadcrumbs![0]).toEqual({ message: "sent to [email]", data: { token: "[redacted]" } });
    // Addresses lose their query strings (searches, tokens) and fragments.
    expect(event.breadcrumbs![1].data).toEqual({ from: "/search", to: "/members/7" });
    expect(event.breadcrumbs![2].data).toEqual({ url: "https://api.provider.example/v1/customers", status_code: 200 });
  });
});
