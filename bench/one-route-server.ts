/**
 * The bench's baseline server (bench/run.ts): the one-route Remix app (bench/one-route/) served the way server.js
 * serves ours, on Express with compression and our Remix adapter, without our app's middleware and routes.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "../server/http/remix-handler";

const root = path.resolve(process.env.BASELINE_DIR ?? "tmp/one-route");
const build = await import(pathToFileURL(path.join(root, "build/index.js")).href);
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build, mode: "production", getLoadContext: () => ({}) }));
const server = app.listen(Number(process.env.PORT), () => process.send?.("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
