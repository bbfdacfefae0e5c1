import { z } from "zod";
import { flag, optional } from "./fields";
import { MSG } from "./messages";
import { WEBHOOK_EVENT_TYPES } from "../webhook-events";

/**
 * An outgoing webhook endpoint (issue 33): where an organisation's events go, and which. The page and the API check
 * it with this one schema. Only the address's form is checked here; whether it may be sent to (https, not a private
 * address, not our own host) is the server's to say when it is saved, and again at every delivery.
 */
const URL_HINT = "Enter the endpoint's full address, starting with https://";

function isWebAddress(value: string) {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && Boolean(u.hostname);
  } catch {
    return false;
  }
}

/** A repeated form field arrives as an array, a single one as a string, none as nothing. */
const list = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess((v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(item));

export const webhookEndpointFields = z.object({
  url: z
    .string({ required_error: MSG.required, invalid_type_error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(2048, MSG.max(2048))
    .refine(isWebAddress, URL_HINT)
    .refine((v) => !isWebAddress(v) || (!new URL(v).username && !new URL(v).password), "Leave the user name and password out of the address"),
  description: optional(z.string().trim().max(200, MSG.max(200))),
  events: list(z.enum(WEBHOOK_EVENT_TYPES, { errorMap: () => ({ message: "Choose events from the list" }) })),
  /** "Every event" (the select-all box): every type there is now. */
  all_events: flag,
});

/** POST /api/webhook-endpoints and PUT /api/webhook-endpoints/{id}: the whole endpoint, its events at least one. */
export const webhookEndpointRequest = webhookEndpointFields
  .refine((e) => e.all_events || e.events.length > 0, { path: ["events"], message: "Choose at least one event" })
  .transform(({ all_events, events, description, url }) => ({
    url,
    description: description ?? "",
    events: all_events ? [...WEBHOOK_EVENT_TYPES] : [...new Set(events)],
  }));
export type WebhookEndpointInput = z.output<typeof webhookEndpointRequest>;

/** GET /api/webhook-endpoints/{id}/deliveries?status=&page=: newest first. */
export const webhookDeliveriesQuery = z.object({
  status: optional(z.enum(["pending", "succeeded", "failed"], { errorMap: () => ({ message: "Choose Sending, Delivered or Failed" }) })),
  page: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ invalid_type_error: "Page must be a whole number from 1" })
      .int("Page must be a whole number from 1")
      .min(1, "Page must be a whole number from 1")
      .max(100_000)
      .default(1),
  ),
});
