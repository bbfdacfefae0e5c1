// The HTTP server: Express with Remix's request handler, as remix-serve does, plus what remix-serve cannot:
// settings checked and the database opened before listening, the client IP from the socket for throttling,
// and cross-site form posts refused before any action runs.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const root = path.dirname(fileURLToPath(import.meta.url));
const build = await import(pathToFileURL(path.join(root, "build/index.js")).href);
const { boot, ConfigError, crossSitePolicy } = build.entry.module;

let runtime;
try {
  runtime = await boot();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const { config } = runtime;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.TRUST_PROXY);
app.use(compression());
app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));

app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const url = `${req.protocol}://${req.get("host")}${req.originalUrl}`;
  const headers = new Headers();
  for (const name of ["origin", "sec-fetch-site", "host"]) if (req.get(name)) headers.set(name, req.get(name));
  const policy = crossSitePolicy(new Request(url, { method: req.method, headers }));
  if (policy === "refuse") {
    res.status(403).type("text/plain").send("Cross-site form posts are not accepted.");
    return;
  }
  if (policy === "open-form") delete req.headers.origin;
  next();
});

app.all(
  "*",
  createRequestHandler({
    build,
    mode: config.NODE_ENV === "production" ? "production" : "development",
    // sessionMemo: the loaders of one page share one session lookup (see server/api/middleware.ts).
    getLoadContext: (req) => ({ clientIp: req.ip, sessionMemo: new Map() }),
  }),
);

const server = app.listen(config.PORT, config.HOST, () => {
  const apps = `back-office on ${config.BACKOFFICE_HOSTS.join(", ")}; sign-up on ${config.SIGNUP_HOSTS.join(", ")}`;
  console.log(`Gym Membership on http://localhost:${config.PORT} (${apps}; database: ${runtime.database.kind})`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close();
    runtime.database.close().finally(() => process.exit(0));
  });
}
