/**
 * npm run bench (part): the gzipped JavaScript every page of the built app loads, from the build's manifest: the
 * entry, then each route module of the page's route chain (root → layouts → the page) with the shared chunks each
 * imports, counted once, as the browser's module preloads fetch them. bench/run.ts measures the login page and the
 * dashboard over HTTP as served; this covers every other page without signing in to each. Run `npm run build` first.
 * Budgets (issue 30, "Budgets, restated"): a back-office page at most 150 KB gzipped, Headless UI included; a sign-up
 * page at most 110 KB, and no Headless UI at all (decision 0052).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = { backoffice: 150, signup: 110 } as const;

/**
 * Which app a page belongs to, from its route chain: the staff frame and the staff sign-in pages are the back-office,
 * as are the two pages of a staff member's own (their invitation, their second factor). Anything else is held to the
 * sign-up budget, the stricter one (pages both apps serve, the sandbox and dev pages among them).
 */
/** The app a page belongs to is its route folder (app/routes/backoffice/, signup/, shared/: decision 0050); a shared page is held to the sign-up budget, the stricter. */
const BACKOFFICE_ROUTES = /^routes\/backoffice\//;
const appOf = (chain: string[]) => (chain.some((id) => BACKOFFICE_ROUTES.test(id)) ? "backoffice" : "signup");

/** Headless UI's code marks its elements with this attribute, so a file holding it carries the library. */
const HEADLESS_UI_MARK = "data-headlessui-state";
const hasHeadlessUi = (src: string) => readFileSync(join(PUBLIC, src), "utf8").includes(HEADLESS_UI_MARK);
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
  return JSON.parse(
    readFileSync(join(PUBLIC, "build", file), "utf8")
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  );
}

const gz = new Map<string, number>();
const gzipped = (src: string) => {
  if (!gz.has(src)) gz.set(src, gzipSync(readFileSync(join(PUBLIC, src)), { level: 9 }).length);
  return gz.get(src)!;
};

/** Every page (a route with no child routes: a leaf), with the KB its chain loads. */
export function pageJs(manifest = readManifest()) {
  const parents = new Set(
    Object.values(manifest.routes)
      .map((r) => r.parentId)
      .filter(Boolean),
  );
  const pages = Object.values(manifest.routes).filter((r) => !parents.has(r.id) || r.id.endsWith("._index") || r.id === "root");
  return pages
    .map((page) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      const chain: string[] = [];
      for (let r: ManifestRoute | undefined = page; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
        chain.push(r.id);
        files.add(r.module);
        for (const i of r.imports ?? []) files.add(i);
      }
      const kb = [...files].reduce((sum, f) => sum + gzipped(f), 0) / 1024;
      const app = appOf(chain);
      return { page: page.id.replace(/^routes\//, ""), app, files: files.size, kb, headlessUi: [...files].some(hasHeadlessUi), budget: BUDGET_KB[app] };
    })
    .filter((p) => p.page !== "root")
    .sort((a, b) => b.kb - a.kb);
}

/**
 * The chunks loaded on demand (decision 0052: Headless UI's widgets, the confetti…): each dynamic import() named in a
 * file pages preload, with the static imports it brings that no page preloads, counted once per widget. Not part of any
 * page's figure: the browser fetches them only when the widget is about to be shown.
 */
export function lazyChunks(manifest = readManifest()) {
  const preloaded = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const r of Object.values(manifest.routes)) [r.module, ...(r.imports ?? [])].forEach((f) => preloaded.add(f));
  const read = (src: string) => readFileSync(join(PUBLIC, src), "utf8");
  const dynamic = new Set([...preloaded].flatMap((f) => [...read(f).matchAll(/import\("(\/build\/[^"]+\.js)"\)/g)].map((m) => m[1])));
  return [...dynamic]
    .filter((f) => !preloaded.has(f))
    .map((chunk) => {
      const files = new Set<string>();
      const visit = (f: string) => {
        if (files.has(f) || preloaded.has(f)) return;
        files.add(f);
        for (const m of read(f).matchAll(/(?:from|import)\s*"(\/build\/[^"]+\.js)"/g)) visit(m[1]);
      };
      visit(chunk);
      const kb = [...files].reduce((sum, f) => sum + gzipped(f), 0) / 1024;
      return {
        chunk: chunk.replace(/^\/build\/_shared\//, "").replace(/-[A-Z0-9]+\.js$/, ""),
        files: files.size,
        kb,
        headlessUi: [...files].some(hasHeadlessUi),
      };
    })
    .sort((a, b) => b.kb - a.kb);
}

const pages = pageJs();
const faults = (p: (typeof pages)[number]) =>
  [p.kb > p.budget ? "OVER BUDGET" : "", p.app === "signup" && p.headlessUi ? "HEADLESS UI ON A SIGN-UP PAGE" : ""].filter(Boolean);
const over = pages.filter((p) => faults(p).length);
console.log(
  `\nJavaScript per page (gzipped, from the build manifest): ${pages.length} pages, ${over.length} over budget ` +
    `(back-office ${BUDGET_KB.backoffice} KB, sign-up ${BUDGET_KB.signup} KB and no Headless UI)`,
);
for (const p of pages) {
  const note = [p.headlessUi ? "headless-ui" : "", ...faults(p)].filter(Boolean).join("  ");
  console.log(`${p.kb.toFixed(1).padStart(7)} KB  ${String(p.files).padStart(3)} files  ${p.app.padEnd(10)}  ${p.page}${note ? `  ${note}` : ""}`);
}
console.log("\nLoaded on demand (not in any page's figure above; shared chunks counted in each widget that needs them):");
for (const c of lazyChunks()) {
  console.log(`${c.kb.toFixed(1).padStart(7)} KB  ${String(c.files).padStart(3)} files  ${c.chunk}${c.headlessUi ? "  headless-ui" : ""}`);
}
