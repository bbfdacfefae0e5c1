import { assertCan } from "./permissions";
import type { MiddlewareHandler } from "hono";
import { pathId } from "./body";
import type { ApiEnv } from "./context";
import { notFound } from "./errors";

/** After requireStaff: the path's organisation (`:id`) must be the session's; any other id answers as if it did not exist. */
export const ownOrganisation: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (pathId(c, "No such organisation.") !== c.var.tenant.organisationId) throw notFound("No such organisation.");
  await next();
};

/** The calendar, recurring schedules and messaging exist only for organisations that have them switched on (SPEC §6): 404 otherwise. */
export const calendarAndMessaging: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (!c.var.user?.organisation?.calendar_and_messaging) throw notFound("Not found.");
  await next();
};

/** The calendar's routes: the organisation has calendar and messaging on, and the caller holds `capability` in some gym. */
export const calendarCan =
  (capability: "calendar.read" | "calendar.write"): MiddlewareHandler<ApiEnv> =>
  async (c, next) => {
    if (!c.var.user?.organisation?.calendar_and_messaging) throw notFound("Not found.");
    assertCan(c.var.user, capability);
    await next();
  };
