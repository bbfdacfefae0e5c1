import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { apiKeyCreateSchema } from "../../../domain/schemas/api-keys";
import { describeLevels } from "../../../domain/api-key-scopes";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { orRefusal } from "../members/member-route.server";

/** /organisation/developers (issue 33): the organisation's API keys, for organisation admins. */
export async function loadApiKeys(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const me = await orRefusal(args.request, api.get("/me"));
  if (!me.permissions.includes("integrations.write")) throw new Response("Only organisation admins can manage API keys.", { status: 403 });
  const keys = await orRefusal(args.request, api.get("/api-keys"));
  return withDateTexts({ keys: keys.data.map((k) => ({ ...k, access: describeLevels(k.levels) })) });
}

/**
 * Two forms post here: `intent=create` makes a key and answers it on this page (the only time its secret is shown:
 * never in a redirect, a toast or a URL), `intent=revoke` revokes one.
 */
export async function apiKeysAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  if (form.get("intent") === "revoke") {
    try {
      const key = await api.delete("/api-keys/:id", { params: { id: Number(form.get("id")) } });
      return redirectWithToast("/organisation/developers", { summary: "API key revoked", detail: `${key.name} no longer works.` }, api.headers);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) return data({ created: null, revokeError: err.message, lastResult: undefined }, { status: err.status });
      redirectForApiError(args.request, err);
      throw err;
    }
  }
  const submission = parseWithZod(form, { schema: apiKeyCreateSchema });
  if (submission.status !== "success") return data({ created: null, revokeError: null, lastResult: submission.reply() }, { status: 400 });
  try {
    const created = await api.post("/api-keys", { body: Object.fromEntries([...form].filter(([k]) => k !== "intent")) });
    return data({ created: { name: created.name, secret: created.secret }, revokeError: null, lastResult: submission.reply({ resetForm: true }) }, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) redirectForApiError(args.request, err);
    const reply = replyWithApiError(submission, err);
    return data({ created: null, revokeError: null, lastResult: reply.data }, { status: reply.init?.status ?? 400 });
  }
}
