import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { createApi } from "../../server/api/app";
import { parseConfig } from "../../server/core/config";
import * as authSchemas from "../../domain/schemas/auth";
import * as memberSchemas from "../../domain/schemas/members";
import * as searchSchemas from "../../domain/schemas/search";

/** What the fuzzer aims at: every API route and every page, found where they are defined, so new ones are covered. */
export type Target = { kind: "api" | "page"; method: string; path: string };

/** The gym API's own route table (app.routes), without the middleware entries. */
export function apiTargets(): Target[] {
  // Building the app registers its routes and opens nothing: no database or mailer is touched until a request.
  const config = parseConfig({ NODE_ENV: "test", SESSION_SECRET: "s".repeat(40), TOAST_SECRET: "t".repeat(40) });
  const app = createApi({ db: null as never, mailer: null as never, config });
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const r of app.routes) {
    if (r.method === "ALL") continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: "api", method: r.method, path: r.path });
  }
  return out;
}

/**
 * The Remix pages from app/routes (flat routes): `_staff.members.$id.edit.tsx` is /members/:id/edit. Pages
 * exporting an action are posted to; every page is also read with odd query strings. The API's splat is left out.
 */
export function pageTargets(root = process.cwd()): Target[] {
  const dir = path.join(root, "app/routes");
  const out = new Map<string, Target>();
  for (const file of readdirSync(dir)) {
    if (!/\.tsx?$/.test(file) || file.startsWith("api.")) continue;
    const source = readFileSync(path.join(dir, file), "utf8");
    const segments = file
      .replace(/\.tsx?$/, "")
      .split(/\.(?![^[]*\])/)
      .filter((s) => s !== "_index" && !(s.startsWith("_") && s.length > 1))
      .map((s) => (s === "$" ? "not/a/page" : s.startsWith("$") ? `:${s.slice(1)}` : s.replace(/\[(.+?)\]/g, "$1")));
    const url = `/${segments.join("/")}`;
    const hasAction = /export\s+(async\s+)?(function|const)\s+action\b|export\s*\{[^}]*\baction\b/.test(source);
    // Layouts (_staff, _guest) map to "/" like the index: one target per method and path.
    out.set(`GET ${url}`, { kind: "page", method: "GET", path: url });
    if (hasAction) out.set(`POST ${url}`, { kind: "page", method: "POST", path: url });
  }
  return [...out.values()];
}

/** Field names the forms and the API know: the keys of every shared zod object schema, plus the forms' own. */
export function fieldNames(): string[] {
  const names = new Set(["intent", "redirect", "redirectTo", "organisation_id", "gym_id", "file", "token", "code", "website", "query", "from", "to", "day", "week", "dob", "start_date", "billing_date", "date", "starts_at", "ends_at", "member"]);
  const shapeOf = (schema: unknown): Record<string, unknown> | null => {
    let s = schema instanceof z.ZodType ? schema : undefined;
    for (let i = 0; s && i < 5; i++) {
      if (s instanceof z.ZodObject) return s.shape as Record<string, unknown>;
      const def = s._def as { schema?: z.ZodTypeAny; innerType?: z.ZodTypeAny };
      s = def.schema ?? def.innerType;
    }
    return null;
  };
  for (const mod of [authSchemas, memberSchemas, searchSchemas]) {
    for (const value of Object.values(mod)) for (const key of Object.keys(shapeOf(value) ?? {})) names.add(key);
  }
  return [...names];
}
