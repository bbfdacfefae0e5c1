import type { LoaderFunctionArgs } from "@remix-run/node";
import { ifAllowed, ifCalendar } from "../../lib/api.server";
import { pageQuery } from "../../lib/params.server";
import { memberRoute, orRefusal } from "./member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

/**
 * The member page's data (/members/{id}: profile, status card, payments, visits, door access and price changes), read
 * here beside the page (./member-page.tsx types its props by it) so the page and its route do not import each other.
 */
export async function memberPageData(args: LoaderFunctionArgs) {
  const { id, api } = memberRoute(args);
  const url = new URL(args.request.url);
  const [member, payments, visits, credentials, changes, events, schedule, classes] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/members/:id", { params: { id } }),
      // Money is for staff who may see it in the member's gym: null for the others.
      ifAllowed(api.get("/users/:id/payments", { params: { id }, query: { page: pageQuery(url, "payments_page") } })),
      api.get("/users/:id/visits", { params: { id }, query: { page: pageQuery(url, "visits_page") } }),
      api.get("/members/:id/access-control-credentials", { params: { id } }),
      ifAllowed(api.get("/users/:id/price-change-history", { params: { id } })),
      api.get("/members/:id/events", { params: { id } }),
      ifCalendar(api.get("/users/:id/recurring-schedule", { params: { id } })),
      // Group classes (issue 34): attended, missed, booked next.
      ifAllowed(api.get("/members/:id/classes", { params: { id } })),
    ]),
  );
  const subscriptionId = member.latest_subscription?.id;
  const view = subscriptionId ? await orRefusal(args.request, api.get("/subscriptions/:id", { params: { id: subscriptionId } })) : null;
  // A member without a membership can still be sold a paid-in-full one.
  const pifAllowed = !view && member.can.change_membership && member.can.take_money;
  return withDateTexts({ member, payments, visits, credentials: credentials.data, changes: changes?.data ?? null, events: events.data, view, pifAllowed, schedule: schedule?.data ?? null, classes });
}
