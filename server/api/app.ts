import { Hono } from "hono";
import { createFinishedWeeksCache } from "../core/cache/finished-weeks";
import type { ApiDeps, ApiEnv } from "../core/context";
import { dashboardRoutes } from "../dashboard/routes";
import { routePath } from "hono/route";
import { noteRequest } from "../core/observability/context";
import { onError } from "./on-error";
import { loadSession, sameOrigin } from "../core/middleware";
import { publicGymRoutes } from "../register/gyms";
import { registerRoutes } from "../register/routes";
import { sessionRoutes } from "../session/routes";
import { statsRoutes } from "../dashboard/stats-routes";
import { switchRoutes } from "../switch/routes";
import { messagingRoutes } from "../messaging/routes";
import { searchRoutes } from "../search/routes";
import { memberRoutes } from "../members/routes";
import { offeringRoutes } from "../offerings/routes";
import { priceRoutes } from "../prices/routes";
import { organisationRoutes } from "../organisations/routes";
import { gymRoutes } from "../gyms/routes";
import { staffRoutes } from "../staff/routes";
import { invitationRoutes } from "../invitations/routes";
import { invitationAnswerRoutes } from "../invitations/answer";
import { importRoutes } from "../imports/routes";
import { doorRoutes } from "../doors/routes";
import { calendarRoutes } from "../calendar/routes";
import { calendarFeedRoutes } from "../calendar/feed-routes";
import { timetableRoutes } from "../classes/timetable-routes";
import { debuggingRoutes } from "../debugging/routes";
import { INCOMING_WEBHOOK_PATHS, incomingWebhookRoutes } from "../webhooks/incoming";
import { webhookRoutes } from "../webhooks/routes";
import { deepLinkRoutes } from "../deep-links/routes";
import { subscriptionRoutes } from "../subscriptions/routes";
import { paymentListRoutes } from "../payments/routes";
import { visitListRoutes } from "../visits/routes";
import { checkInRoutes } from "../check-in/routes";
import { attendRoutes } from "../classes/attend-routes";
import { walkInRoutes } from "../walk-in/routes";
import { apiKeyRoutes } from "../api-keys/routes";
import { openApiRoutes } from "../openapi/routes";
import { refundRoutes } from "../payments/refunds";
import { reconciliationRoutes } from "../reconciliation/routes";
import { bulkPriceChangeRoutes } from "../subscriptions/bulk-price-change-routes";
import { signupRoutes } from "../signup/routes";
import { selfServiceRoutes } from "../self-service/routes";
import { bookingRoutes } from "../classes/booking-routes";
import { sandboxPageRoutes } from "../signup/sandbox-pages";
import { inProcessJobs } from "../core/job-starter";
import { loadWebhookSecrets } from "../core/webhooks/secrets";
import { runBulkPriceChanges } from "../subscriptions/bulk-price-change";
import { importLinks, runImports } from "../imports/run";
import { runMemberNotices } from "../member-notices/run";
import { memberMailRoutes, UNSUBSCRIBE_PATH } from "../member-mail/routes";
import { sandboxProviders } from "../core/providers/registry";
import { mailSite } from "../member-mail/brand";
import { outgoingWebhookRoutes } from "../outgoing-webhooks/routes";
import { deliverDue } from "../outgoing-webhooks/deliver";
import { eventsRecorded, provideEventResources } from "../outgoing-webhooks/events";
import { eventResourcesFor } from "./event-resources";

/**
 * Public forms that integrators may post from their own sites (a honeypot and rate limits guard them instead), the
 * one-click unsubscribe of members' e-mails (its signed token guards it), and the providers' webhooks (their
 * signatures guard them; they carry no cookie to forge).
 */
const CROSS_SITE_ALLOWED = ["/api/register", UNSUBSCRIBE_PATH, ...INCOMING_WEBHOOK_PATHS];

/**
 * Every endpoint, in one chain so that its type holds each path's answer: the web app's client
 * (app/lib/api.server.ts) reads a path's response type from `ApiRoutes`. A new routes module joins here.
 */
const apiRoutes = new Hono<ApiEnv>()
  .route("/", sessionRoutes)
  .route("/", registerRoutes)
  .route("/", publicGymRoutes)
  .route("/", statsRoutes)
  .route("/", dashboardRoutes)
  .route("/", switchRoutes)
  .route("/", messagingRoutes)
  .route("/", searchRoutes)
  .route("/", checkInRoutes)
  .route("/", memberRoutes)
  .route("/", offeringRoutes)
  .route("/", priceRoutes)
  .route("/", organisationRoutes)
  .route("/", gymRoutes)
  .route("/", staffRoutes)
  .route("/", invitationRoutes)
  .route("/", invitationAnswerRoutes)
  .route("/", importRoutes)
  .route("/", doorRoutes)
  .route("/", calendarRoutes)
  .route("/", calendarFeedRoutes)
  .route("/", timetableRoutes)
  .route("/", incomingWebhookRoutes)
  .route("/", webhookRoutes)
  .route("/", debuggingRoutes)
  .route("/", deepLinkRoutes)
  .route("/", subscriptionRoutes)
  .route("/", walkInRoutes)
  .route("/", apiKeyRoutes)
  .route("/", openApiRoutes)
  .route("/", paymentListRoutes)
  .route("/", visitListRoutes)
  .route("/", refundRoutes)
  .route("/", reconciliationRoutes)
  .route("/", bulkPriceChangeRoutes)
  .route("/", signupRoutes)
  .route("/", selfServiceRoutes)
  .route("/", bookingRoutes)
  .route("/", memberMailRoutes)
  .route("/", sandboxPageRoutes)
  .route("/", outgoingWebhookRoutes)
  .route("/", attendRoutes);

export type ApiRoutes = typeof apiRoutes;

export type Api = ReturnType<typeof createApi>;

/** Jobs run in this process, for an API made without a scheduler's (tests, BILLING_JOBS=0). */
export function localJobs(deps: Pick<ApiDeps, "db" | "mailer" | "now" | "config" | "providers">) {
  // A job that wrote outgoing webhook events (a bulk price change's) has them sent once it is done.
  const thenDeliver = (work: () => Promise<unknown>) => async () => {
    const before = eventsRecorded();
    await work();
    if (eventsRecorded() !== before) jobs.start("webhook-delivery");
  };
  const jobs = inProcessJobs({
    "bulk-price-changes": thenDeliver(() => runBulkPriceChanges(deps.db, { mailer: deps.mailer, site: mailSite(deps.config) }, deps.now)),
    "member-imports": thenDeliver(() => runImports(deps.db, deps.mailer, importLinks(deps.config), deps.now)),
    "member-mail": thenDeliver(() =>
      runMemberNotices(deps.db, deps.mailer, deps.providers ?? sandboxProviders(deps.db), deps.now?.() ?? new Date(), mailSite(deps.config)),
    ),
    "webhook-delivery": () => deliverDue(deps),
  });
  return jobs;
}

/** Builds the gym API around its dependencies, so tests can make one per fresh database. */
export function createApi(given: ApiDeps) {
  // Outgoing webhooks' payloads are read by the resources' own code (./event-resources.ts).
  provideEventResources(eventResourcesFor(given.config));
  const deps: ApiDeps = {
    ...given,
    finishedWeeks: given.finishedWeeks ?? createFinishedWeeksCache(),
    jobs: given.jobs ?? localJobs(given),
    webhookSecrets: given.webhookSecrets ?? loadWebhookSecrets(given.db, given.config),
  };
  // Loaded before any request goes on: one that needs them inside its unit of work must not wait there for a query
  // on the system's handle (on PGlite that query would wait for the unit of work in turn). A failure is answered by
  // the requests that need them (a 500), not an unhandled rejection.
  const secretsLoaded = deps.webhookSecrets!.then(
    () => undefined,
    () => undefined,
  );
  const app = new Hono<ApiEnv>().basePath("/api");
  app.onError(onError);
  app.notFound((c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}`, error: "not_found" }, 404));
  app.use("*", async (c, next) => {
    await secretsLoaded;
    c.set("deps", deps);
    c.header("Cache-Control", "no-store");
    await next();
    // For the request's log line and error reports: the route pattern (an API request's own) and who asked, by id.
    noteRequest({ route: routePath(c, -1), user_id: c.var.user?.row.id, organisation_id: c.var.user?.organisation?.id });
  });
  // A request that wrote outgoing webhook events starts their delivery once it is over (its transaction committed, or
  // rolled back and the start finds nothing); the job's every-minute catch-up covers a start that is lost.
  app.use("*", async (_c, next) => {
    const before = eventsRecorded();
    await next();
    if (eventsRecorded() !== before) deps.jobs?.start("webhook-delivery");
  });
  app.use("*", sameOrigin(CROSS_SITE_ALLOWED));
  app.use("*", loadSession);
  app.route("/", apiRoutes);
  return app;
}
