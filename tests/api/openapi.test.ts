import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { KEY_ROUTES } from "../../server/core/key-routes";
import { outboxMailer } from "../../server/core/mail/mailer";
import { OPERATIONS } from "../../server/openapi/operations";
import { resolver } from "hono-openapi";
import { CONTRACT_ROUTES, pathShape } from "../../domain/contract/routes";
import { browser, setup } from "./harness";

/**
 * The integrators' OpenAPI document (issue 33): it describes exactly the routes open to API keys, each a route the API
 * really has, and what is served is what is committed (client/openapi.json, from which client/gym-api.d.ts is made).
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
});
afterAll(() => env?.close?.());

const toOpenApi = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

describe("the OpenAPI document", () => {
  it("describes every route open to keys, and nothing else", () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(KEY_ROUTES.map(([m, p]) => `${m} ${p}`).sort());
  });

  it("names only routes the API has", () => {
    const real = new Set(api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
    expect(KEY_ROUTES.map(([m, p]) => `${m} ${p}`).filter((k) => !real.has(k))).toEqual([]);
  });

  it("is served as committed: OpenAPI 3.1, one operation per route, each needing a bearer key", async () => {
    const res = await browser(api).call("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    const committed = JSON.parse(readFileSync("client/openapi.json", "utf8"));
    expect(res.json).toEqual(committed);
    expect(res.json.openapi).toBe("3.1.0");
    const operations = Object.entries(res.json.paths as Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.map((o) => o.key).sort()).toEqual(KEY_ROUTES.map(([m, p]) => `${m} ${toOpenApi(p)}`).sort());
    for (const { key, op } of operations) {
      expect(op.security, key).toEqual([{ bearer: [] }]);
      expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(["401", "403", "429"]));
    }
  });

  it("describes request bodies and queries from the routes' own schemas", async () => {
    const doc = (await browser(api).call("GET", "/api/openapi.json")).json;
    const put = doc.paths["/api/members/{id}"].put.requestBody.content["application/json"].schema;
    expect(put.properties).toMatchObject({ name: { type: "string" }, email: { type: "string", format: "email" } });
    const list = doc.paths["/api/members"].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(list).toEqual(expect.arrayContaining(["query:status", "query:gym", "query:page", "query:q"]));
    expect(doc.paths["/api/offerings"].post.parameters).toEqual([{ $ref: "#/components/parameters/IdempotencyKey" }]);
  });

  it("answers each route SPEC §7 names with SPEC's entity (the contract's own schema), fields and names", async () => {
    const doc = (await browser(api).call("GET", "/api/openapi.json")).json;
    let checked = 0;
    for (const [method, path] of KEY_ROUTES) {
      const contract = CONTRACT_ROUTES.find((r) => pathShape(r.call) === pathShape(`${method} ${path}`));
      if (!contract || "contentType" in contract.answer) continue;
      const op = doc.paths[toOpenApi(path)][method.toLowerCase()];
      const described = op.responses[String(contract.status)]?.content?.["application/json"]?.schema;
      const expected = (await resolver(contract.answer as never).toOpenAPISchema()).schema;
      expect(described, `${method} ${path}`).toEqual(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    // For instance, SPEC's Payment in the payments list.
    const payment = doc.paths["/api/payments"].get.responses["200"].content["application/json"].schema.properties.data.properties.data.items;
    expect(Object.keys(payment.properties)).toEqual(
      expect.arrayContaining(["period_start_at", "period_end_at", "user", "balance_owing", "expected_charge_date"]),
    );
  });

  it("has a reference page that loads its script and stylesheet from this origin", async () => {
    const page = await browser(api).call("GET", "/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.json).toContain('<script src="/api/docs/swagger-ui-bundle.js"></script>');
    expect(page.json).not.toMatch(/<script>(?!<)/);
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "init.js"]) expect((await browser(api).call("GET", `/api/docs/${file}`)).status).toBe(200);
    expect((await browser(api).call("GET", "/api/docs/package.json")).status).toBe(404);
  });
});
