import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { localDay } from "../../../domain/dates";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { memberCancelRequest, memberPauseRequest, undoCancelRequest } from "../../../domain/schemas/subscriptions";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { previewOrConfirm } from "../membership/membership-route.server";
import { requireJoinedMember } from "./my-membership.server";

/**
 * A member pausing or cancelling their own membership (issue 31, decision 0058): preview, then confirm, as staff do
 * (previewOrConfirm: the confirmation applies only what was previewed), through /api/me/membership/*. The pages
 * check nothing in the browser: the server's answer is the form's.
 */
export async function loadMemberAction(args: LoaderFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  try {
    const [membership, actions] = await Promise.all([api.get("/me/membership"), api.get("/me/membership/actions")]);
    return withDateTexts({ membership, actions, today: localDay(new Date()) });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export async function pauseAction(args: ActionFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  return previewOrConfirm(args, memberPauseRequest, api, {
    to: "/membership",
    preview: (a, values) => a.post("/me/membership/pause", { body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/me/membership/pause", { body: values }),
    done: (values) => ({
      summary: "Your membership is paused",
      detail: `From ${formatDay(values.start)}; you are back on ${formatDay(values.end)}. We have e-mailed you the details.`,
    }),
  });
}

export async function cancelAction(args: ActionFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  // The same page undoes a cancellation the member made (or withdraws one waiting for its notice).
  if ((await readForm(args.request.clone())).get("form") === "undo") {
    return previewOrConfirm(args, undoCancelRequest, api, {
      to: "/membership",
      preview: (a, values) => a.post("/me/membership/undo-cancel", { body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
      apply: (a, values) => a.post("/me/membership/undo-cancel", { body: values }),
      done: () => ({ summary: "Your membership carries on", detail: "Your cancellation is undone." }),
    });
  }
  return previewOrConfirm(args, memberCancelRequest, api, {
    to: "/membership",
    preview: (a, values) => a.post("/me/membership/cancel", { body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/me/membership/cancel", { body: values }),
    done: (_values, applied) => ({
      summary: "Your membership is cancelled",
      detail: "effect" in applied ? `Your access lasts until ${formatDay(applied.effect.accessEnds)}. We have e-mailed you the details.` : undefined,
    }),
  });
}
