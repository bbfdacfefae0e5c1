import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { BACKOFFICE, SIGNUP } from "./helpers";

/**
 * The host split (app/lib/host-gate.server.tsx), over every route of the build this server runs: each page of one
 * app, asked for on the other app's host (and on an unknown host), answers 404 before any loader or action runs,
 * for a page load, a data request and a form post. Shared routes are the short list below, so a new route that
 * lands in app/routes/shared/ is a decision someone made here.
 */
type Route = { id: string; parentId?: string; path?: string; index?: boolean; hasAction: boolean };
const manifestFile = readdirSync("public/build").find((f) => f.startsWith("manifest-") && f.endsWith(".js"))!;
const routes: Record<string, Route> = JSON.parse(
  readFileSync(join("public/build", manifestFile), "utf8")
    .replace(/^window\.__remixManifest=/, "")
    .replace(/;\s*$/, ""),
).routes;

const SHARED = [
  "_index",
  "api.$",
  "contact-us",
  "dev.mail",
  "dev.mail[.]json",
  "legal.privacy-policy",
  "logout",
  "sandbox.$service.connect.$id",
  "sandbox.akahu.authorize.$id",
  "sandbox.gocardless.flow.$id",
  "sandbox.stripe.checkout.$id",
  "session-handoff",
];

/** A real address for a route: its chain's path segments, each parameter filled in. */
function addressOf(route: Route): string {
  const parts: string[] = [];
  for (let r: Route | undefined = route; r && r.id !== "root"; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
  return (
    (
      "/" +
      parts
        .join("/")
        .split("/")
        .map((s) => (s === "*" ? "anything" : s.startsWith(":") ? "12" : s))
        .join("/")
    ).replace(/\/+$/, "") || "/"
  );
}

const pages = Object.values(routes).filter((r) => r.id !== "root" && !Object.values(routes).some((c) => c.parentId === r.id && !c.index));
/**
 * One request to this server with the given Host header (Node cannot resolve signup.localhost as a browser does):
 * status and body, redirects not followed.
 */
function ask(host: string, path: string, post = false): Promise<{ status: number; body: string; location?: string }> {
  const { hostname, port } = new URL(host);
  const form = "intent=x";
  const headers: Record<string, string> = { host: `${hostname}:${port}` };
  if (post) Object.assign(headers, { origin: host, "content-type": "application/x-www-form-urlencoded", "content-length": String(form.length) });
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: post ? "POST" : "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end(post ? form : undefined);
  });
}

const groupOf = (id: string) => /^routes\/(backoffice|signup|shared)\//.exec(id)?.[1];

// Requests only, no browser: once is enough.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the same requests either way");

test("every route file is in one app's folder, and the shared ones are the known few", () => {
  expect(Object.keys(routes).filter((id) => id !== "root" && !groupOf(id))).toEqual([]);
  const shared = Object.keys(routes)
    .filter((id) => groupOf(id) === "shared")
    .map((id) => id.replace("routes/shared/", ""));
  expect(shared.sort()).toEqual([...SHARED].sort());
  expect(pages.length).toBeGreaterThan(80);
});

test("every page of one app answers 404 on the other app's host and on an unknown host", async () => {
  const unknown = `http://elsewhere.localhost:${new URL(BACKOFFICE).port}`;
  const checked: string[] = [];
  for (const route of pages) {
    const group = groupOf(route.id);
    if (group === "shared") continue;
    const path = addressOf(route);
    const wrongHosts = group === "backoffice" ? [SIGNUP, unknown] : [BACKOFFICE, unknown];
    for (const host of wrongHosts) {
      // The one address typed on the wrong host that leads somewhere: the sign-up host's /login is its members' sign-in.
      if (host === SIGNUP && path === "/login") {
        const moved = await ask(host, "/login?email=x%40example.com");
        expect(moved.status, "GET /login on the sign-up host").toBe(302);
        expect(moved.location, "GET /login on the sign-up host").toBe("/sign-in?email=x%40example.com");
        expect((await ask(host, "/login.data")).status).toBe(404);
        expect((await ask(host, path, true)).status).toBe(404);
        continue;
      }
      const page = await ask(host, path);
      expect(page.status, `${route.id}: GET ${host}${path}`).toBe(404);
      expect(page.body, `${route.id}: GET ${host}${path}`).toContain("Page not found");
      const data = await ask(host, `${path === "/" ? "/_root" : path}.data`);
      expect(data.status, `${route.id}: GET ${host}${path}.data`).toBe(404);
      if (route.hasAction) {
        const post = await ask(host, path, true);
        expect(post.status, `${route.id}: POST ${host}${path}`).toBe(404);
      }
    }
    // On its own host the same address is not refused by the split (it may still redirect to sign-in, or find no record).
    // (The gate's 404 document has no scripts; a page Remix renders, a 404 one included, has its modules.)
    const own = await ask(group === "backoffice" ? BACKOFFICE : SIGNUP, path);
    const refused = own.status === 404 && !own.body.includes("<script");
    expect(refused, `${route.id}: GET ${path} on its own host`).toBe(false);
    checked.push(route.id);
  }
  expect(checked.length).toBeGreaterThan(70);
});
