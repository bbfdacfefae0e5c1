import { close, createTransport } from "@sentry/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { outboxMailer } from "../../server/core/mail/mailer";
import { runInRequest } from "../../server/core/observability/context";
import { flushReports, startErrorReporting } from "../../server/core/observability/report";
import { addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * An unhandled error inside an API route (issue 19) is reported with who asked, by id: the session is read before the
 * route runs, and the report is made before the API's own request bookkeeping ends. Sent to a transport that keeps
 * the envelopes instead of Sentry's servers.
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let ids: { user: number; organisation: number };
const sent: string[] = [];

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  // A route that fails the way a bug would, behind the same session middleware as every other.
  api.get("/failing-for-test", () => {
    throw new Error("Failed query: select * from users where email = $1\nparams: ava.admin@example.com");
  });
  const org = await makeOrganisation(env.db, { name: "Reported Gyms" });
  await makeGym(env.db, org.id, "Reported");
  const u = await makeUser(env.db, { name: "Ava Admin", email: "ava.admin@example.com", password_hash: await hashPassword("report passphrase") });
  await addStaff(env.db, u.id, org.id, "admin");
  ids = { user: u.id, organisation: org.id };
  const transport = (options: Parameters<typeof createTransport>[0]) =>
    createTransport(options, async (request) => {
      sent.push(typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body));
      return { statusCode: 200 };
    });
  startErrorReporting({ dsn: "https://public@o1.ingest.sentry.io/1", environment: "test", tracesSampleRate: 0, transport });
});
afterAll(async () => {
  await close();
  await env?.close?.();
});

describe("an API error's report", () => {
  it("names the route, the user and the organisation by id, and nothing of the person", async () => {
    const admin = await signedIn(api, env.db, "ava.admin@example.com", "report passphrase");
    const res = await runInRequest({ id: "req-api-0001", method: "GET" }, () => admin.call("GET", "/api/failing-for-test"));
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ message: "Something went wrong on our side. Please try again.", error: "server_error" });
    await flushReports();
    const envelope = sent.join("\n");
    const event = JSON.parse(envelope.split("\n").find((line) => line.includes('"exception"'))!);
    expect(event.tags).toMatchObject({ request_id: "req-api-0001", route: "/api/failing-for-test", method: "GET", status: "500", organisation_id: String(ids.organisation) });
    expect(event.user).toEqual({ id: String(ids.user) });
    expect(envelope).not.toContain("ava.admin@example.com");
  });
});
