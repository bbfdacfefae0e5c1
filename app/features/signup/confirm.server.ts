import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { addCalendarDays, localDay } from "../../../domain/dates";
import { COOLING_OFF_DAYS } from "../../../domain/start";
import { confirmSubscriptionSchema, LATEST_START_DAYS, registerFieldsSchema } from "../../../domain/schemas/signup";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import type { Quote } from "./quote";

/** The page's form: the member's details and the membership, checked together, sent as two calls. */
const pageSchema = z.intersection(registerFieldsSchema, confirmSubscriptionSchema);

/**
 * The last step before joining (issue 13): the gym's prices by offering (a private one only through its link), the
 * start day, what it costs (the billing engine's own quote), the member's details, the terms. Confirming saves the
 * details (PUT /api/me/register-fields), then makes the membership and takes its first payment (POST
 * /api/subscriptions, with the idempotency key the page was drawn with: a double tap or a retry makes one).
 */
export async function confirmLoader(args: LoaderFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  try {
    const signup = await api.get("/me/signup");
    const today = localDay(new Date());
    // Nothing is chosen for the person unless their link named a price (issue 31): a first price preselected (a
    // 12-month term, say) would commit whoever did not look.
    const priceId = signup.chosen_price_id ?? null;
    // A walk-in's start day, as the desk quoted it (issue 32); otherwise today.
    const start = signup.chosen_start_date ?? today;
    const quote = priceId ? await api.get("/me/signup/quote", { query: { price_id: priceId, start_date: start } }).catch(() => null) : null;
    return {
      me: { name: me.name },
      signup,
      today,
      start,
      coolingOffDays: COOLING_OFF_DAYS,
      latest: addCalendarDays(today, LATEST_START_DAYS),
      priceId,
      quote,
      key: randomBytes(18).toString("base64url"),
    };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export async function confirmAction(args: ActionFunctionArgs) {
  const { api } = await requireSignupStep(args);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: pageSchema });
  if (form.get("intent") === "quote") {
    // Without JavaScript, "Work out my payments" posts the whole form: the quote comes back with every value kept.
    const q = { price_id: String(form.get("price_id") ?? ""), start_date: String(form.get("start_date") ?? "") };
    try {
      return data({ result: submission.reply(), quote: (await api.get("/me/signup/quote", { query: q })) as Quote | null });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 422)
        return data({ result: submission.reply({ fieldErrors: err.errors ?? {} }), quote: null }, { status: 422 });
      redirectForApiError(args.request, err);
    }
  }
  if (submission.status !== "success") return data({ result: submission.reply(), quote: null }, { status: 400 });
  const { price_id, start_date, terms, idempotency_key, ...fields } = submission.value;
  try {
    await api.put("/me/register-fields", { body: fields });
    await api.post("/subscriptions", { body: { price_id, start_date, terms, idempotency_key } });
    const joined = await api.get("/me/active-subscription");
    if (joined?.failed) {
      const why = joined.first_payment?.error ?? "The payment was declined.";
      return redirectWithToast(
        "/choose-payment-method",
        {
          severity: "error",
          summary: "Your first payment did not go through",
          detail: `${why} Nothing else was charged. Connect another way to pay, or try again.`,
          life: 10_000,
        },
        api.headers,
      );
    }
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) {
      const fieldErrors = err.status === 422 && err.errors ? err.errors : undefined;
      return data({ result: submission.reply({ fieldErrors, formErrors: fieldErrors ? [] : [err.message] }), quote: null }, { status: err.status });
    }
    redirectForApiError(args.request, err);
  }
  return redirect("/welcome-to-gym", { headers: api.headers });
}
