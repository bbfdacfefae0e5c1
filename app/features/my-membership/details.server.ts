import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { memberSelfUpdateSchema } from "../../../domain/schemas/members";
import type { ApiContext } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { requireJoinedMember } from "./my-membership.server";

/** The form's HTML constraints as data: the sign-up host's pages ship no zod (issue 30); the action checks. */
const constraint = getZodConstraint(memberSelfUpdateSchema);

export async function loadMyDetails(args: ApiContext) {
  const { api } = await requireJoinedMember(args);
  try {
    return { details: await api.get("/me/details"), constraint };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Saves the member's details (PUT /api/me/details); refused, the form comes back with what they typed and why. */
export async function saveMyDetailsAction(args: ApiContext) {
  const { api } = await requireJoinedMember(args);
  const submission = parseWithZod(await readForm(args.request), { schema: memberSelfUpdateSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await api.put("/me/details", { body: submission.value });
  } catch (err) {
    return replyWithApiError(submission, err);
  }
  return redirectWithToast("/membership", { severity: "success", summary: "Your details are saved." }, api.headers);
}
