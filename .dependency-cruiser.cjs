/**
 * The layers, as rules (decision 0049; `npm run deps`). From the floor up:
 *   domain/             rules and types of the business: imports nothing of ours but domain/
 *   server/core/        what every resource shares: errors, the request context and tenant, the permission table,
 *                       the current user, body parsing, config, the database, the providers, mail, observability
 *   server/<resource>/  one folder per resource: its HTTP routes (routes.ts), queries and commands
 *   server/api/, server/jobs/, server/http/, server/seed/, server/runtime.ts
 *                       the composition: mounts the routes, runs the jobs, serves HTTP, seeds, starts the process
 *   app/                the Remix pages: reach the server only through app/lib/*.server.ts and app/entry.server.tsx
 * tests/, scripts/ and bench/ are not cruised (`npm run deps` names server, app and domain): they may reach anything.
 */
const COMPOSITION = "^server/(api|jobs|http|seed)/|^server/runtime[.]ts$";
const CORE = "^server/core/";
const RESOURCE = "^server/(?!core/|api/|jobs/|http/|seed/)[^/]+/";
// Where app/ may reach the server from: its server-only modules (app/lib/*.server.ts), the server entry, and the
// API's contract (app/lib/api-contract.ts: the types of the API's route chain, for Hono's typed client).
const APP_SERVER_DOORS = "^app/(lib/[^/]+[.]server[.]tsx?|lib/api-contract[.]ts|entry[.]server[.]tsx)$";
// What they may import: the process (runtime) and the API's route types (api/app), the request context's types, the
// settings, the cookie and origin helpers, the outbox, the HTTP helpers and the observability every server entry reports
// through. A page's data comes over the in-process API (app/lib/api.server.ts), never from a resource's module.
const SERVER_ENTRY_POINTS =
  "^server/(runtime[.]ts|api/app[.]ts|core/(context|config|middleware|route-tree)[.]ts|core/mail/outbox[.]ts|core/observability/(context|http|log|report)[.]ts|http/(remix-handler|security-headers)[.]ts)$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes two modules one: neither can be read, tested or moved alone.",
      from: { path: "^(server|app|domain)/" },
      to: { circular: true },
    },
    {
      name: "no-circular-between-server-folders",
      severity: "error",
      comment:
        "Two resources that use each other are one resource in two folders: a folder of server/ (its files seen as one) never " +
        "reaches itself again through another folder (decision 0049). The core's own folders (db, observability) are one layer and may.",
      scope: "folder",
      from: { path: "^server/(?!core(/|$))" },
      to: { path: "^server/", circular: true },
    },
    {
      name: "domain-is-the-floor",
      severity: "error",
      comment: "domain/ holds the business's rules and types; it imports nothing from server/ or app/.",
      from: { path: "^domain/" },
      to: { path: "^(server|app)/" },
    },
    {
      name: "core-below-resources",
      severity: "error",
      comment: "server/core/ is what the resources share: it imports no resource folder and not the composition.",
      from: { path: CORE },
      to: { path: "^server/(?!core/)" },
    },
    {
      name: "resources-below-composition",
      severity: "error",
      comment: "A resource imports core, domain and other resources' modules, never the composition above it.",
      from: { path: RESOURCE },
      to: { path: COMPOSITION },
    },
    {
      name: "routes-mounted-by-the-composition",
      severity: "error",
      comment: "A resource's routes.ts is its HTTP face: only the composition (server/api/app.ts) mounts it; resources share queries and commands, not routes.",
      from: { path: RESOURCE },
      to: { path: "^server/[^/]+/routes[.]ts$" },
    },
    {
      name: "server-never-imports-app",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^app/" },
    },
    {
      name: "pages-reach-the-server-through-app-lib",
      severity: "error",
      comment:
        "Route modules, features and components never import server/: pages get their data over the API (app/lib/api.server.ts). The one exception is the browser-safe scrubber the error reporter loads (server/core/observability/redact.ts).",
      from: { path: "^app/", pathNot: APP_SERVER_DOORS },
      to: { path: "^server/", pathNot: "^server/core/observability/redact[.]ts$" },
    },
    {
      name: "app-lib-imports-only-published-server-modules",
      severity: "error",
      comment: "app/lib/*.server.ts, app/lib/api-contract.ts and app/entry.server.tsx import only the server's published entry points (SERVER_ENTRY_POINTS).",
      from: { path: APP_SERVER_DOORS },
      to: { path: "^server/", pathNot: SERVER_ENTRY_POINTS },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo or a missing package.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|build|public/build)/" },
    // Type-only imports count: a type ties two modules as much as a value does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
