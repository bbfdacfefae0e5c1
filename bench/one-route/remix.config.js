/**
 * The bench's baseline (bench/run.ts): a Remix app of one route, built by the same compiler with the same future
 * flags as ours, so the login page's throughput can be held against what Remix itself costs a request.
 */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  publicPath: "/build/",
  assetsBuildDirectory: "../../tmp/one-route/public/build",
  serverBuildPath: "../../tmp/one-route/build/index.js",
  cacheDirectory: "../../tmp/one-route/.cache",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
