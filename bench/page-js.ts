/**
 * npm run bench (part): the gzipped JavaScript every page of the built app loads, from the build's manifest: the
 * entry, then each route module of the page's route chain (root → layouts → the page) with the shared chunks each
 * imports, counted once, as the browser's module preloads fetch them. bench/run.ts measures the login page and the
 * dashboard over HTTP as served; this covers every other page without signing in to each. Run `npm run build` first.
 * Budget (issue #2): at most 120 KB gzipped on any page.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 120;
const PUBLIC = join(process.cwd(), "public");

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

function readManifest(): Manifest {
  const file = readdirSync(join(PUBLIC, "build")).find((f) => f.startsWith("manifest-") && f.endsWith(".js"));
  if (!file) throw new Error("No build manifest in public/build: run `npm run build` first.");
  return JSON.parse(readFileSync(join(PUBLIC, "build", file), "utf8").replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, ""));
}

const gz = new Map<string, number>();
const gzipped = (src: string) => {
  if (!gz.has(src)) gz.set(src, gzipSync(readFileSync(join(PUBLIC, src)), { level: 9 }).length);
  return gz.get(src)!;
};

/** Every page (a route with no child routes: a leaf), with the KB its chain loads. */
export function pageJs(manifest = readManifest()) {
  const parents = new Set(Object.values(manifest.routes).map((r) => r.parentId).filter(Boolean));
  const pages = Object.values(manifest.routes).filter((r) => !parents.has(r.id) || r.id.endsWith("._index") || r.id === "root");
  return pages
    .map((page) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (let r: ManifestRoute | undefined = page; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
        files.add(r.module);
        for (const i of r.imports ?? []) files.add(i);
      }
      const kb = [...files].reduce((sum, f) => sum + gzipped(f), 0) / 1024;
      return { page: page.id.replace(/^routes\//, ""), files: files.size, kb };
    })
    .filter((p) => p.page !== "root")
    .sort((a, b) => b.kb - a.kb);
}

const pages = pageJs();
const over = pages.filter((p) => p.kb > BUDGET_KB);
console.log(`\nJavaScript per page (gzipped, from the build manifest): ${pages.length} pages, ${over.length} over ${BUDGET_KB} KB`);
for (const p of pages) console.log(`${p.kb.toFixed(1).padStart(7)} KB  ${String(p.files).padStart(3)} files  ${p.page}${p.kb > BUDGET_KB ? "  OVER BUDGET" : ""}`);
