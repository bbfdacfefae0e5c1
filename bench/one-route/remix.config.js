/* global process */
/**
 * The bench's baseline (bench/run.ts): a Remix app of one route, built by the same compiler with the same future
 * flags as ours, so the login page's throughput can be held against what Remix itself costs a request.
 * With EXTRA_ROUTES=n it is built again (into tmp/one-route-n) with n more routes beside the page, as many as ours:
 * the same page served from a large route table shows what each request pays per route.
 */
const extra = Number(process.env.EXTRA_ROUTES ?? 0);
const out = extra ? `../../tmp/one-route-${extra}` : "../../tmp/one-route";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  publicPath: "/build/",
  assetsBuildDirectory: `${out}/public/build`,
  serverBuildPath: `${out}/build/index.js`,
  cacheDirectory: `${out}/.cache`,
  routes: (defineRoutes) =>
    defineRoutes((route) => {
      // Shaped like ours: static sections, ids in the path, and a layout with children.
      for (let i = 0; i < extra; i++) {
        if (i % 3 === 0) route(`section-${i}`, "routes/_index.tsx", { id: `extra-${i}` });
        else if (i % 3 === 1) route(`section-${i}/:id`, "routes/_index.tsx", { id: `extra-${i}` });
        else route(`section-${i}/:id/edit`, "routes/_index.tsx", { id: `extra-${i}` });
      }
    }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
