import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import type { z } from "zod";
import { ApiRequestError, type GymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { memberRoute, orRefusal } from "../members/member-route.server";

/**
 * What every membership action page (/members/{id}/pause, /cancel, …; issue 12) shares: the member and their latest
 * membership as the API describes it for its actions, and the two-step post: the form is previewed first (the API
 * answers the effect and writes nothing), then confirmed. A confirmation whose values differ from the ones
 * previewed is previewed again instead, so what is applied is always what was shown.
 */
export async function membershipPage(args: LoaderFunctionArgs | ActionFunctionArgs, action: string) {
  const { id, api } = memberRoute(args);
  const member = await orRefusal(args.request, api.get("/members/:id", { params: { id } }));
  const subscriptionId = member.latest_subscription?.id;
  const view = subscriptionId ? await orRefusal(args.request, api.get("/subscriptions/:id", { params: { id: subscriptionId } })) : null;
  const allowed = view?.actions[action as keyof NonNullable<typeof view>["actions"]];
  if (action !== "door" && action !== "pif" && (!view || !allowed)) {
    if (!view) throw new Response("This member has no membership.", { status: 404 });
    throw new Response(whyNot(action, view), { status: 403 });
  }
  return { id, api, member, view };
}

/** Why an action is not open: the user's role only when that is what refused; otherwise the membership's state (issue 32). */
function whyNot(action: string, view: { rights: { change: boolean; take_money: boolean }; owing?: { total: number } }) {
  if (action === "manual_payment") return view.rights.take_money ? "Nothing is owed on this membership." : "Only admins can take payments.";
  if (!view.rights.change) return "Only admins can change a membership.";
  return "This action does not apply to this membership as it is now.";
}

/** The fields that matter, in order: what a preview was of. */
export const fingerprint = (values: Record<string, unknown>) =>
  JSON.stringify(
    Object.entries(values)
      .filter(([k]) => k !== "preview" && k !== "intent" && k !== "previewed")
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

/**
 * One action's two steps. `P` is the API's answer to the preview and `A` to the apply, as the API contract types
 * them: the page reads `preview` from its action data with that type, so no page writes it by hand or casts.
 */
export interface Step<T, P, A> {
  /** The API's preview of these values (the effect), or its refusal. */
  preview: (api: GymApi, values: T) => Promise<P>;
  /** Applies them. */
  apply: (api: GymApi, values: T) => Promise<A>;
  /** The toast after it was applied. */
  done: (values: T, applied: A) => { summary: string; detail?: string };
  /** Where to go afterwards (the member's page), maybe from what the API answered. */
  to: string | ((applied: A) => string);
}

export async function previewOrConfirm<S extends z.ZodTypeAny, P, A>(args: ActionFunctionArgs, schema: S, api: GymApi, step: Step<z.infer<S>, P, A>) {
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), preview: null as P | null, previewed: null as string | null }, { status: 400 });
  const values = submission.value as Record<string, unknown>;
  const print = fingerprint(values);
  const confirmed = form.get("intent") === "confirm" && form.get("previewed") === print;
  try {
    if (confirmed) {
      const applied = await step.apply(api, submission.value);
      const { summary, detail } = step.done(submission.value, applied);
      return redirectWithToast(typeof step.to === "string" ? step.to : step.to(applied), { severity: "success", summary, detail }, api.headers);
    }
    const preview = await step.preview(api, submission.value);
    return data({ result: submission.reply(), preview: preview as P | null, previewed: print as string | null });
  } catch (err) {
    // Signed out, gone, or not allowed: the page the guards would show; anything else is the form's to say.
    if (err instanceof ApiRequestError && [401, 403, 404].includes(err.status)) redirectForApiError(args.request, err);
    const reply = replyWithApiError(submission, err);
    return data({ result: reply.data, preview: null as P | null, previewed: null as string | null }, reply.init ?? undefined);
  }
}
