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
