import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { openApiDocument } from "./document";

/**
 * The integrators' reference (issue 33): the OpenAPI document at /api/openapi.json and a page to read it at /api/docs.
 * The page is Swagger UI from swagger-ui-dist, served from here (no CDN: the CSP allows scripts and styles from this
 * origin only), started by a script file rather than an inline one, so it needs no nonce. Its icons are data: images,
 * which the site's policy allows on this page alone (server/http/security-headers.ts).
 */
const require = createRequire(import.meta.url);
const SWAGGER = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: path.join(SWAGGER, "swagger-ui.css"), type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: path.join(SWAGGER, "swagger-ui-bundle.js"), type: "text/javascript; charset=utf-8" },
};
const loaded = new Map<string, Buffer>();
const asset = (name: string) => {
  let body = loaded.get(name);
  if (!body) loaded.set(name, (body = readFileSync(ASSETS[name].file)));
  return body;
};

const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true, persistAuthorization: false, tryItOutEnabled: false });\n`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gym Membership API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<noscript><p>This reference needs JavaScript. The same description is at <a href="/api/openapi.json">/api/openapi.json</a>, for any OpenAPI tool.</p></noscript>
<main id="reference"></main>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const cached = { "Cache-Control": "public, max-age=3600" };

export const openApiRoutes = new Hono<ApiEnv>()
  /** GET /api/openapi.json: the OpenAPI 3.1 document of the routes open to API keys. */
  .get("/openapi.json", async (c) => {
    const doc = await openApiDocument();
    return c.json(doc, 200, { "Cache-Control": "public, max-age=300" });
  })
  .get("/docs", (c) => c.html(PAGE, 200, { "Cache-Control": "public, max-age=300" }))
  .get("/docs/:file{[a-z.-]+}", (c) => {
    const name = c.req.param("file");
    if (name === "init.js") return c.body(INIT, 200, { "Content-Type": "text/javascript; charset=utf-8", ...cached });
    if (!(name in ASSETS)) throw notFound("No such file.");
    return c.body(new Uint8Array(asset(name)), 200, { "Content-Type": ASSETS[name].type, ...cached });
  });
