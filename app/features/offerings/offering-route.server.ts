import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { offeringForm } from "../../../domain/schemas/offerings";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export function offeringsRoute(args: LoaderFunctionArgs | ActionFunctionArgs) {
  return gymApi(args);
}

/**
 * The create and edit forms' action: the same schema as the page checked with, then the API, which holds the rules
 * the form cannot know (gyms, frequencies switched off, prices members pay). An intent (add or remove a row) comes
 * back as the form with the row added or removed and every value kept.
 */
export async function saveOffering(args: ActionFunctionArgs, id: number | null) {
  const api = offeringsRoute(args);
  const submission = parseWithZod(await readForm(args.request), { schema: offeringForm });
  if (submission.status !== "success") return data(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  try {
    const saved = id ? await api.put("/offerings/:id", { params: { id }, body: submission.value }) : await api.post("/offerings", { body: submission.value });
    return redirectWithToast(`/offerings/${saved.id}`, { summary: id ? "Offering saved" : "Offering created", detail: saved.name }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && [401, 404].includes(err.status)) redirectForApiError(args.request, err);
    return replyWithApiError(submission, err);
  }
}
