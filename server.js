// The HTTP server: Express with Remix's request handler, as remix-serve does, plus what remix-serve cannot:
// settings checked and the database opened before listening, the client IP from the socket for throttling,
// security headers (a CSP with a nonce per request), request bodies limited while they stream in
// (server/http/body-limits.ts), and cross-site form posts refused before any action runs.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";

// WEB_CONCURRENCY worker processes share the port (node:cluster), one per core, with PostgreSQL only:
// the embedded PGlite database belongs to the one process that opened it.
const workers = process.env.WEB_CONCURRENCY ? Number(process.env.WEB_CONCURRENCY) : 1;
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  console.error(`WEB_CONCURRENCY must be a whole number from 1 to 64 (got ${JSON.stringify(process.env.WEB_CONCURRENCY)}).`);
  process.exit(1);
}
if (workers > 1 && !process.env.DATABASE_URL) {
  console.error("WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database can only be opened by one process.");
  process.exit(1);
}

if (cluster.isPrimary && workers > 1) {
  // Where a missing secret may be made up (outside production, or a demo: server/core/config.ts), it is made once here,
  // so every worker signs and reads sessions, codes and toasts with the same one. Production still refuses to start.
  if (process.env.NODE_ENV !== "production" || process.env.DEMO_MODE) {
    for (const name of ["SESSION_SECRET", "TOAST_SECRET"]) {
      if (!process.env[name]) process.env[name] = randomBytes(32).toString("hex");
    }
  }
  // The first worker runs the migrations (and the demo seed); the others start once it listens.
  let stopping = false;
  const first = cluster.fork();
  first.once("listening", () => {
    for (let i = 1; i < workers; i++) cluster.fork();
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} stopped (${signal ?? code}); starting another`);
    if (code === 1 && worker === first) process.exit(1); // settings refused at boot: another try would fail the same way
    cluster.fork();
  });
  // Each worker drains on the first signal and stops at once on a second. The primary passes them on as messages,
  // not signals: when the whole process group is signalled (Ctrl-C, systemd's default), a worker gets the signal
  // itself as well, and a second signal of ours would make it stop at once, cutting its requests. A message only
  // starts a drain that has not started; the primary's second signal is the one that says "now".
  let signals = 0;
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      stopping = true;
      signals += 1;
      for (const w of Object.values(cluster.workers ?? {})) {
        if (w?.isConnected()) w.send({ shutdown: sig, now: signals > 1 }, () => {});
      }
    });
  }
} else {
  await serve();
}

async function serve() {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const build = await import(pathToFileURL(path.join(root, "build/index.js")).href);
  const { boot, ConfigError, crossSitePolicy, createRequestHandler, cspNonce, hostGate, securityHeaders, log, pagePatterns, requestObservability } = build.entry.module;

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
  // Request id, route pattern, trace span and one JSON log line per request (server/core/observability/http.ts).
  app.use(requestObservability(pagePatterns(build.routes)));
  // Liveness and readiness for a load balancer: before sessions, pages and the API, and without them.
  app.get(["/healthz", "/readyz"], async (req, res) => {
    const answer = await runtime.health.fetch(new Request(`http://health${req.path}`));
    res.status(answer.status).set({ "Content-Type": "application/json", "Cache-Control": "no-store" }).send(await answer.text());
  });
  // While shutting down, every answer tells the client not to reuse the connection.
  app.use((req, res, next) => {
    if (shuttingDown) res.set("Connection", "close");
    next();
  });
  app.use(compression());
  app.use((req, res, next) => {
    res.locals.cspNonce = cspNonce();
    res.set(securityHeaders(config, res.locals.cspNonce, req.path));
    next();
  });
  app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
  // Only a path that names a file (favicon.ico) is looked for on disk: a page request costs no failed stat.
  const publicFiles = express.static(path.join(root, "public"), { maxAge: "1h" });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()));

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
    if (policy === "pass-cross-origin") delete req.headers.origin;
    next();
  });

  // The host split, once for every request before any loader or action: a route of the other app answers 404
  // (app/lib/host-gate.server.tsx).
  app.use(hostGate(build.routes));

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.NODE_ENV === "production" ? "production" : "development",
      // pageReads: the loaders of one page share one session lookup and member summary (server/core/middleware.ts pageRead).
      getLoadContext: (req, res) => ({ clientIp: req.ip, pageReads: new Map(), cspNonce: res.locals.cspNonce }),
    }),
  );

  let shuttingDown = false;
  const server = app.listen(config.PORT, config.HOST, () => {
    const apps = `back-office on ${config.BACKOFFICE_HOSTS.join(", ")}; sign-up on ${config.SIGNUP_HOSTS.join(", ")}`;
    log.info({ port: config.PORT, database: runtime.database.kind }, `Gym Membership on http://localhost:${config.PORT} (${apps}; database: ${runtime.database.kind})`);
  });

  // SIGTERM: /readyz answers 503 at once and the process keeps serving (every answer with Connection: close) for
  // SHUTDOWN_DRAIN_MS, long enough for the load balancer's health check to take it out; then it stops taking
  // connections, lets the requests in flight and the current job step finish, and exits. Closing the listener at once
  // cut connections the balancer had just opened (a form post answered 502 in the restart trial). Ctrl-C (SIGINT)
  // skips the wait. A second signal, or SHUTDOWN_TIMEOUT_MS after the wait, ends it at once.
  // `now`: a second signal of the same kind. A worker of WEB_CONCURRENCY may hear of one signal twice, from the OS
  // (the whole group signalled) and from the primary, in either order: only a second of either kind stops it at once.
  const shutdown = (signal, now) => {
    if (shuttingDown) {
      if (!now) return;
      log.warn({ signal }, "second signal: stopping now");
      process.exit(1);
    }
    shuttingDown = true;
    runtime.drain();
    const drainMs = signal === "SIGINT" ? 0 : config.SHUTDOWN_DRAIN_MS;
    log.info({ signal, drain_ms: drainMs }, "shutting down: not ready any more; finishing the requests in flight");
    const deadline = setTimeout(() => {
      log.error({ timeout_ms: config.SHUTDOWN_TIMEOUT_MS }, "shutdown took too long: stopping now");
      process.exit(1);
    }, drainMs + config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    setTimeout(() => {
      server.close(() => {
        runtime
          .stop()
          .then(() => {
            log.info("stopped");
            process.exit(0);
          })
          .catch(() => process.exit(1));
      });
      // Idle keep-alive connections would hold close() open; busy ones end after their answer (Connection: close).
      server.closeIdleConnections();
    }, drainMs);
  };
  let signals = 0;
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => shutdown(signal, ++signals > 1));
  // A worker of WEB_CONCURRENCY: the primary's signals arrive as messages (see above).
  process.on("message", (m) => {
    if (m && typeof m === "object" && (m.shutdown === "SIGINT" || m.shutdown === "SIGTERM")) shutdown(m.shutdown, m.now === true);
  });
}
