import { Hono } from "hono";
import { createFinishedWeeksCache } from "./dashboard/finished-weeks";
import type { ApiDeps, ApiEnv } from "./context";
import { dashboardRoutes } from "./dashboard/routes";
import { onError } from "./errors";
import { loadSession, sameOrigin } from "./middleware";
import { publicGymRoutes } from "./register/gyms";
import { registerRoutes } from "./register/routes";
import { sessionRoutes } from "./session/routes";
import { statsRoutes } from "./stats/routes";
import { switchRoutes } from "./switch/routes";
import { messagingRoutes } from "./messaging/routes";
import { searchRoutes } from "./search/routes";
import { memberRoutes } from "./members/routes";
import { offeringRoutes } from "./offerings/routes";

/** Public forms that integrators may post from their own sites; a honeypot and rate limits guard them instead. */
const CROSS_SITE_ALLOWED = ["/api/register"];

/** Builds the gym API around its dependencies, so tests can make one per fresh database. */
export function createApi(given: ApiDeps) {
  const deps: ApiDeps = {
    ...given,
    finishedWeeks: given.finishedWeeks ?? createFinishedWeeksCache(),
  };
  const app = new Hono<ApiEnv>().basePath("/api");
  app.onError(onError);
  app.notFound((c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}`, error: "not_found" }, 404));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.header("Cache-Control", "no-store");
    await next();
  });
  app.use("*", sameOrigin(CROSS_SITE_ALLOWED));
  app.use("*", loadSession);
  app.route("/", sessionRoutes);
  app.route("/", registerRoutes);
  app.route("/", publicGymRoutes);
  app.route("/", statsRoutes);
  app.route("/", dashboardRoutes);
  app.route("/", switchRoutes);
  app.route("/", messagingRoutes);
  app.route("/", searchRoutes);
  app.route("/", memberRoutes);
  app.route("/", offeringRoutes);
  return app;
}

export type Api = ReturnType<typeof createApi>;
