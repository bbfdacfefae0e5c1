import { flatRoutes } from "remix-flat-routes";

/**
 * The route files are grouped by the app they belong to (app/lib/host-gate.server.ts): app/routes/backoffice/,
 * app/routes/signup/, and app/routes/shared/ for the few that both hosts serve. Within a group the names follow
 * Remix's flat routes; the group is not part of the address, only of the route id (routes/signup/card-details).
 */
const ROUTE_GROUPS = ["routes/backoffice", "routes/signup", "routes/shared"];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Remix's own scan of app/routes is off: the groups are read by remix-flat-routes below.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) => flatRoutes(ROUTE_GROUPS, defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"] }),
  serverModuleFormat: "esm",
  tailwind: true,
  postcss: true,
  // Built assets are served from /build/ (SPEC §9).
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  serverBuildPath: "build/index.js",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
