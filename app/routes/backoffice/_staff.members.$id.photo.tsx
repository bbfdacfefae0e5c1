import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { IMAGE_BODY_LIMIT as PHOTO_BODY_LIMIT } from "../../../domain/images";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { memberRoute } from "../../features/members/member-route.server";
import { readForm } from "../../lib/forms.server";
import { sendPhoto } from "../../features/photos/send-photo";

/** POST /members/{id}/photo: the detail page's upload form; the API judges and resizes the file. */
export async function action(args: ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  const back = `/members/${id}`;
  const fail = (detail: string) => redirectWithToast(back, { severity: "error", summary: "Photo not changed", detail, life: 10_000 });
  // Refused before reading a body the API would refuse anyway (server.js answers 413 first; this is for other callers).
  if (Number(args.request.headers.get("content-length") ?? 0) > PHOTO_BODY_LIMIT) return fail("The photo is larger than 10 MB.");
  const file = (await readForm(args.request)).get("file");
  if (!(file instanceof Blob) || file.size === 0) return fail("Choose a photo to upload.");
  const form = new FormData();
  form.set("file", file, (file as File).name || "photo");
  try {
    await api.raw("post", "/members/:id/profile-picture", { params: { id }, body: form });
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 422 || err.status === 413)) return fail(`${err.errors?.file?.[0] ?? err.message}.`.replace(/\.\.$/, "."));
    redirectForApiError(args.request, err);
  }
  return redirectWithToast(back, { summary: "Photo updated" }, api.headers);
}

/**
 * With JavaScript the photo is scaled in the browser and sent to the action above with its progress shown (issue 32).
 * This module is fetched when a photo is sent, so the member page does not carry the scaling.
 */
export const clientAction = sendPhoto;

export const loader = () => redirect("/members");
