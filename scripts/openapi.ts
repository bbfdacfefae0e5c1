/**
 * npm run openapi: writes the OpenAPI document (server/openapi/document.ts) to client/openapi.json and the TypeScript
 * client's types generated from it with openapi-typescript to client/gym-api.d.ts, then validates the document with
 * Redocly's linter (redocly.yaml). `--check` (CI) writes nothing: it fails when either committed file is not what the
 * code makes now, so the published document and client never drift from the routes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openApiDocument } from "../server/openapi/document";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(path.join(tmpdir(), "openapi-")) : path.join(root, "client");
const docFile = path.join(out, "openapi.json");
const typesFile = path.join(out, "gym-api.d.ts");

writeFileSync(docFile, JSON.stringify(await openApiDocument(), null, 2) + "\n");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
execFileSync(bin("openapi-typescript"), [docFile, "-o", typesFile], { stdio: "inherit" });
execFileSync(bin("prettier"), ["--write", "--print-width", "160", "--trailing-comma", "all", typesFile], { stdio: "ignore" });
execFileSync(bin("redocly"), ["lint", docFile, "--config", path.join(root, "redocly.yaml")], {
  stdio: "inherit",
  env: { ...process.env, REDOCLY_TELEMETRY: "off" },
});

if (check) {
  const stale = ["openapi.json", "gym-api.d.ts"].filter((f) => readFileSync(path.join(out, f), "utf8") !== readFileSync(path.join(root, "client", f), "utf8"));
  if (stale.length) {
    console.error(`client/${stale.join(", client/")} differ from what the routes describe now: run npm run openapi and commit them.`);
    process.exit(1);
  }
  console.log("openapi: client/openapi.json and client/gym-api.d.ts match the routes");
}
