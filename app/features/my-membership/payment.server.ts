import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { formatCents } from "../../../domain/money";
import { ApiRequestError, type GymApi } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { LEFT_PROVIDER_PAGE } from "../signup/payment-methods";
import { describeMethod } from "../signup/methods";
import { requireJoinedMember } from "./my-membership.server";

/**
 * /membership/payment (issue 31): how a joined member pays. Another connected method, a new one on the same provider
 * pages sign-up uses (they come back here: features/signup/payment-journey.ts), and what is owing paid now with the
 * method that pays, at the amount the API's preview worked out for it (a card's surcharge included).
 */
export async function loadMyPayment(args: LoaderFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  const cancelled = new URL(args.request.url).searchParams.get("cancelled");
  try {
    const [signup, membership, actions] = await Promise.all([api.get("/me/signup"), api.get("/me/membership"), api.get("/me/membership/actions")]);
    const paying = signup.payment_types.find((m) => m.id === signup.default_payment_type_id) ?? null;
    const key = randomBytes(12).toString("base64url");
    const preview =
      membership.owing.total > 0 && paying && actions.version != null
        ? await api.post("/me/membership/pay-owing", { body: { key, version: actions.version, preview: true } })
        : null;
    const owing = preview && "preview" in preview ? preview.preview : null;
    return withDateTexts({
      gym: signup.gym,
      methods: signup.methods,
      payment_types: signup.payment_types,
      default_payment_type_id: signup.default_payment_type_id,
      paying: paying ? describeMethod(paying) : null,
      owed: membership.owing,
      owing: owing ? { total: owing.total, periods: owing.periods } : null,
      version: actions.version,
      key,
      notice: cancelled ? LEFT_PROVIDER_PAGE[cancelled] ?? null : null,
    });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export async function myPaymentAction(args: ActionFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  const form = await readForm(args.request);
  if (form.get("intent") === "pay") return payOwing(args, api, form);
  try {
    const chosen = await api.post("/me/payment-types/:id/switch", { params: { id: String(form.get("payment_type") ?? "") } });
    const signup = await api.get("/me/signup");
    const method = signup.payment_types.find((m) => m.id === chosen.default_payment_type_id);
    return redirectWithToast(
      "/membership/payment",
      { summary: "Payment method changed", detail: method ? `${describeMethod(method)} pays your membership now.` : undefined },
      api.headers,
    );
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Pays what is owing, then says how it went: the charge has its answer before the API's does (a direct debit's comes in days). */
async function payOwing(args: ActionFunctionArgs, api: GymApi, form: FormData) {
  let paid;
  try {
    paid = await api.post("/me/membership/pay-owing", { body: { key: String(form.get("key") ?? ""), version: String(form.get("version") ?? "") } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) {
      const why = Object.values(err.errors ?? {}).flat()[0] ?? err.message;
      return data({ problem: why }, { status: err.status, headers: api.headers });
    }
    redirectForApiError(args.request, err);
  }
  const ids = "payment_ids" in paid ? paid.payment_ids : [];
  const mine = (await api.get("/me/payments", { query: { page: "1" } })).data.filter((p) => ids.includes(p.id));
  const total = mine.reduce((sum, p) => sum + p.amount + p.surcharge, 0);
  const declined = mine.find((p) => p.outcome === "failed");
  if (declined)
    return redirectWithToast(
      "/membership/payment",
      { severity: "error", summary: "The payment did not go through", detail: declined.error_description ?? "Try another way to pay.", life: 10_000 },
      api.headers,
    );
  const done = mine.length > 0 && mine.every((p) => p.outcome === "successful");
  return redirectWithToast(
    "/membership",
    done
      ? { summary: `Thank you: ${formatCents(total)} is paid`, detail: "Your receipt is on its way by e-mail." }
      : { summary: `${formatCents(total)} is on its way`, detail: "A direct debit or bank payment takes a few days; you will get a receipt once it arrives." },
    api.headers,
  );
}
