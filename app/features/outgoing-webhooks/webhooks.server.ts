import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { webhookEndpointRequest } from "../../../domain/schemas/webhook-endpoints";
import { ApiRequestError, gymApi, type GymApi } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { idParam, pageQuery } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { orRefusal } from "../members/member-route.server";

/**
 * The webhook pages' loaders and actions (issue 33, /organisation/developers/webhooks): everything through the API
 * (organisation admins only; another organisation's endpoint is the 404 page). The signing secret comes back in the
 * action's answer, never in a loader's: it is on the page that made or rotated it, once.
 */
export const WEBHOOKS_PATH = "/organisation/developers/webhooks";
export const endpointPath = (id: number) => `${WEBHOOKS_PATH}/${id}`;

export async function loadEndpoints(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  return withDateTexts({ endpoints: (await orRefusal(args.request, api.get("/webhook-endpoints"))).data });
}

/** The form's values as the API takes them (the schema's own output: "Every event" already turned into the list). */
async function endpointSubmission(request: Request) {
  const form = await readForm(request);
  return { form, submission: parseWithZod(form, { schema: webhookEndpointRequest }) };
}

/** Add endpoint: on success the page shows the signing secret, once (a reload does not bring it back). */
export async function addEndpointAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const { submission } = await endpointSubmission(args.request);
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  try {
    const made = await api.post("/webhook-endpoints", { body: submission.value });
    return data({ result: submission.reply({ resetForm: true }), created: { id: made.id, url: made.url, secret: made.secret } }, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && [401, 403].includes(err.status)) redirectForApiError(args.request, err);
    const reply = replyWithApiError(submission, err);
    return data({ result: reply.data, created: null }, { status: reply.init?.status ?? 400 });
  }
}

export async function loadEndpoint(args: LoaderFunctionArgs) {
  const id = idParam(args.params, "id");
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const status = ["pending", "succeeded", "failed"].includes(url.searchParams.get("status") ?? "") ? url.searchParams.get("status")! : "";
  const page = pageQuery(url, "page");
  const [endpoint, deliveries] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/webhook-endpoints/:id", { params: { id } }),
      api.get("/webhook-endpoints/:id/deliveries", { params: { id }, query: { page, status } }),
    ]),
  );
  return withDateTexts({ endpoint, deliveries, status });
}

/** The delivery's state after a try the API made before answering: a toast that says how it went. */
async function toastAfterTry(api: GymApi, endpointId: number, deliveryId: number, back: string, what: string) {
  const d = await api.get("/webhook-endpoints/:id/deliveries/:deliveryId", { params: { id: endpointId, deliveryId } });
  const last = d.attempt_log[0];
  const worked = last?.response_status != null && last.response_status >= 200 && last.response_status < 300;
  return redirectWithToast(
    back,
    worked
      ? { summary: `${what} delivered`, detail: `The endpoint answered ${last.response_status} in ${last.duration_ms} ms.` }
      : {
          severity: "warn",
          summary: `${what} not delivered`,
          detail: last ? last.error ?? `The endpoint answered ${last.response_status}.` : "It is being sent: look again in a moment.",
          life: 10_000,
        },
    api.headers,
  );
}

type EndpointIntent = "update" | "rotate" | "disable" | "enable" | "delete" | "test";

/**
 * The endpoint page's buttons, by `intent`. Edit answers the form's errors on the page; rotate answers the new secret
 * on the page (once); the rest go back with a toast.
 */
export async function endpointAction(args: ActionFunctionArgs) {
  const id = idParam(args.params, "id");
  const api = gymApi(args);
  const back = endpointPath(id);
  const form = await readForm(args.request.clone());
  const intent = String(form.get("intent") ?? "") as EndpointIntent;
  try {
    switch (intent) {
      case "update": {
        const { submission } = await endpointSubmission(args.request);
        if (submission.status !== "success") return data({ intent, result: submission.reply(), secret: null, message: null }, { status: 400 });
        try {
          await api.put("/webhook-endpoints/:id", { params: { id }, body: submission.value });
        } catch (err) {
          if (err instanceof ApiRequestError && [401, 403, 404].includes(err.status)) throw err;
          const reply = replyWithApiError(submission, err);
          return data({ intent, result: reply.data, secret: null, message: null }, { status: reply.init?.status ?? 400 });
        }
        return redirectWithToast(back, { summary: "Endpoint saved" }, api.headers);
      }
      case "rotate": {
        const rotated = await api.post("/webhook-endpoints/:id/rotate-secret", { params: { id } });
        return data({ intent, result: null, secret: rotated.secret, message: null }, { headers: api.headers });
      }
      case "disable":
        await api.post("/webhook-endpoints/:id/disable", { params: { id } });
        return redirectWithToast(back, { summary: "Endpoint disabled", detail: "No events are sent to it until you enable it." }, api.headers);
      case "enable":
        await api.post("/webhook-endpoints/:id/enable", { params: { id } });
        return redirectWithToast(back, { summary: "Endpoint enabled", detail: "New events are sent to it again." }, api.headers);
      case "delete":
        if (form.get("confirm") !== "on") return data({ intent, result: null, secret: null, message: "Tick the box to confirm the removal." }, { status: 400 });
        await api.delete("/webhook-endpoints/:id", { params: { id } });
        return redirectWithToast(WEBHOOKS_PATH, { summary: "Endpoint removed", detail: "No more events are sent to it." }, api.headers);
      case "test": {
        const sent = await api.post("/webhook-endpoints/:id/test", { params: { id } });
        return toastAfterTry(api, id, sent.id, back, "Test event");
      }
      default:
        return data({ intent, result: null, secret: null, message: "That button is not one of this page's. Reload the page and try again." }, { status: 400 });
    }
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) {
      return redirectWithToast(
        back,
        { severity: "error", summary: "Not done", detail: Object.values(err.errors ?? {})[0]?.[0] ?? err.message, life: 10_000 },
        api.headers,
      );
    }
    redirectForApiError(args.request, err);
  }
}

export async function loadDelivery(args: LoaderFunctionArgs) {
  const id = idParam(args.params, "id");
  const deliveryId = idParam(args.params, "deliveryId");
  const api = gymApi(args);
  return withDateTexts({ delivery: await orRefusal(args.request, api.get("/webhook-endpoints/:id/deliveries/:deliveryId", { params: { id, deliveryId } })) });
}

/** Resend: one more try now, with the same webhook-id; the page comes back with how it went. */
export async function resendAction(args: ActionFunctionArgs) {
  const id = idParam(args.params, "id");
  const deliveryId = idParam(args.params, "deliveryId");
  const api = gymApi(args);
  const back = `${endpointPath(id)}/deliveries/${deliveryId}`;
  try {
    await api.post("/webhook-endpoints/:id/deliveries/:deliveryId/resend", { params: { id, deliveryId } });
    return toastAfterTry(api, id, deliveryId, back, "Resent event");
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) {
      return redirectWithToast(
        back,
        { severity: "error", summary: "Not resent", detail: Object.values(err.errors ?? {})[0]?.[0] ?? err.message, life: 10_000 },
        api.headers,
      );
    }
    redirectForApiError(args.request, err);
  }
}
