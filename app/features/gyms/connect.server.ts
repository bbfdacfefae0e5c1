import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { gymRoute } from "./gym-route.server";

type Service = "stripe" | "gocardless";
const NAMES: Record<Service, { provider: string; what: string }> = {
  stripe: { provider: "Stripe", what: "Card payments" },
  gocardless: { provider: "GoCardless", what: "Direct debit" },
};

/** The gym page's Connect buttons: off to the provider's page (its own site, or the sandbox's page here). */
export async function connectAction(args: ActionFunctionArgs, service: Service) {
  const { id, api } = gymRoute(args);
  try {
    const { url } =
      service === "stripe"
        ? await api.post("/gyms/:id/stripe/redirect", { params: { id } })
        : await api.post("/gyms/:id/gocardless/redirect", { params: { id } });
    return redirect(url, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 503)
      return redirectWithToast(`/gyms/${id}`, { severity: "error", summary: `${NAMES[service].provider} not connected`, detail: err.message, life: 10_000 });
    redirectForApiError(args.request, err);
  }
}

/**
 * /stripe/callback and /gocardless/callback: where the provider sends the admin back. With ?code=&state= the code
 * becomes the gym's account (the API checks the state: ours, this admin's, recent); with ?error= they declined. A
 * code is good once, so the page never shows it again: it goes on to the gym's page with a toast.
 */
export async function connectCallback(args: LoaderFunctionArgs, service: Service) {
  const api = gymApi(args);
  const q = new URL(args.request.url).searchParams;
  const names = NAMES[service];
  if (!q.get("code")) {
    const declined = q.get("error") === "access_denied";
    return redirectWithToast("/gyms", {
      severity: "warn",
      summary: `${names.provider} not connected`,
      detail: declined ? `The connection was cancelled on ${names.provider}'s page.` : `${names.provider} sent no code back. Start again from the gym's page.`,
    });
  }
  try {
    const body = { code: q.get("code") ?? "", state: q.get("state") ?? "" };
    const gym = service === "stripe" ? await api.post("/stripe/exchange", { body }) : await api.post("/gocardless/exchange", { body });
    return redirectWithToast(
      `/gyms/${gym.id}`,
      {
        summary: `${names.provider} connected`,
        detail: `${names.what} for ${gym.name} now go to its own ${names.provider} account, and the sign-up app offers them.`,
      },
      api.headers,
    );
  } catch (err) {
    if (err instanceof ApiRequestError && [422, 403, 404, 503].includes(err.status)) {
      return redirectWithToast("/gyms", { severity: "error", summary: `${names.provider} not connected`, detail: err.message, life: 10_000 }, api.headers);
    }
    redirectForApiError(args.request, err);
  }
}
