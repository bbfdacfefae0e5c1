import { close, createTransport } from "@sentry/node";
import { describe, expect, it } from "vitest";
import { runInRequest } from "../../server/core/observability/context";
import { flushReports, reportError, startErrorReporting } from "../../server/core/observability/report";

/**
 * Error reports (issue 19) as Sentry receives them: with the request's id, route, method, status and organisation,
 * the user by id, and nothing of a member's details. Sent to a transport that keeps the envelopes instead of
 * Sentry's servers.
 */
describe("error reports", () => {
  it("carry the request and no personal data", async () => {
    const sent: string[] = [];
    const transport = (options: Parameters<typeof createTransport>[0]) =>
      createTransport(options, async (request) => {
        sent.push(typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body));
        return { statusCode: 200 };
      });
    expect(startErrorReporting({ dsn: "https://public@o1.ingest.sentry.io/1", environment: "test", tracesSampleRate: 0, transport })).toBe(true);

    runInRequest({ id: "req-test-0001", method: "POST", route: "/members/:id/edit", user_id: 7, organisation_id: 3 }, () =>
      reportError("[remix] loader or action failed", new Error("Failed query: update users set email = $1\nparams: mia.member@example.com,7"), { status: 500 }),
    );
    await flushReports();

    const envelope = sent.join("\n");
    const event = JSON.parse(envelope.split("\n").find((line) => line.includes('"exception"'))!);
    expect(event.tags).toMatchObject({ request_id: "req-test-0001", route: "/members/:id/edit", method: "POST", organisation_id: "3", status: "500" });
    expect(event.user).toEqual({ id: "7" });
    expect(event.exception.values[0].value).toBe("Failed query: update users set email = $1\nparams: [redacted]");
    expect(envelope).not.toContain("mia.member@example.com");
    await close();
  });
});
