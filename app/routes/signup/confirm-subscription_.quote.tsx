import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";

/**
 * GET /confirm-subscription/quote?price_id=&start_date=: the confirm page's quote as the person changes the price or
 * the day, with JavaScript (GET /api/me/signup/quote). Without JavaScript the page's own "Work out my payments"
 * button asks the same.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireSignupStep(args, "/confirm-subscription");
  const q = new URL(args.request.url).searchParams;
  try {
    return { quote: await api.get("/me/signup/quote", { query: { price_id: q.get("price_id") ?? "", start_date: q.get("start_date") ?? "" } }), errors: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return data({ quote: null, errors: err.errors ?? {} }, { status: 422 });
    redirectForApiError(args.request, err);
  }
}
