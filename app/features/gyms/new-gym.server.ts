import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { IMAGE_BODY_LIMIT } from "../../../domain/images";
import { newGymRequest } from "../../../domain/schemas/gyms";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { orRefusal } from "../members/member-route.server";

/** /gyms/new (issue 32): organisation admins open a new location. */
export async function loadNewGym(args: LoaderFunctionArgs) {
  const me = await orRefusal(args.request, gymApi(args).get("/me"));
  if (!me.permissions.includes("gyms.create")) throw new Response("Only organisation admins can open a gym.", { status: 403 });
  return { organisation: me.current_organisation?.name ?? "" };
}

/**
 * The form is checked with the API's own schema, the gym opened, then its logo (if one was chosen) stored by the
 * logo route as the edit page does. A logo the API refuses does not undo the gym: the gym's page opens with the
 * reason, where the logo can be chosen again.
 */
export async function openGymAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  if (Number(args.request.headers.get("content-length") ?? 0) > IMAGE_BODY_LIMIT) throw data({ message: "The logo is larger than 10 MB." }, { status: 413 });
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: newGymRequest });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["file"] }), { status: 400 });
  let gym: { id: number; name: string };
  try {
    gym = await api.post("/gyms", { body: Object.fromEntries([...form].filter(([, v]) => typeof v === "string")) });
  } catch (err) {
    if (err instanceof ApiRequestError && [401, 404].includes(err.status)) redirectForApiError(args.request, err);
    return replyWithApiError(submission, err, { hideFields: ["file"] });
  }
  const logo = form.get("file");
  if (logo instanceof Blob && logo.size > 0) {
    const upload = new FormData();
    upload.set("collection", "logo");
    upload.set("file", logo, (logo as File).name || "logo");
    try {
      await api.raw("post", "/gyms/:id/logo", { params: { id: gym.id }, body: upload });
    } catch (err) {
      if (!(err instanceof ApiRequestError) || err.status >= 500) throw err;
      const why = err.errors?.file?.[0] ?? err.message;
      return redirectWithToast(
        `/gyms/${gym.id}/edit`,
        { severity: "warn", summary: `${gym.name} is open; its logo was not saved`, detail: why, life: 10_000 },
        api.headers,
      );
    }
  }
  return redirectWithToast(`/gyms/${gym.id}`, { summary: "Gym opened", detail: `${gym.name}: share its join link below.` }, api.headers);
}
