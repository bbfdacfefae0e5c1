import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { IMAGE_BODY_LIMIT as PHOTO_BODY_LIMIT } from "../../../domain/images";
import { SubmitButton } from "../../components/field";
import { sendPhoto } from "../../features/photos/send-photo";
import { UploadProgress } from "../../features/photos/upload-progress";
import { CameraCapture } from "../../features/signup/camera";
import { primaryLink, StepFrame } from "../../features/signup/step-frame";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Your photo · Gym Membership" }];

/** The first step after the e-mailed code (issue 13): a photo the gym's staff know the member by. */
export async function loader(args: LoaderFunctionArgs) {
  const { me } = await requireSignupStep(args);
  return { photo: me.profile_picture ? `/api/me/profile-picture?v=${encodeURIComponent(me.profile_picture)}` : null };
}

export async function action(args: ActionFunctionArgs) {
  const { api } = await requireSignupStep(args);
  const refuse = (message: string, status = 422) => data({ error: message }, { status });
  if (Number(args.request.headers.get("content-length") ?? 0) > PHOTO_BODY_LIMIT) return refuse("The photo is larger than 10 MB.", 413);
  const file = (await readForm(args.request)).get("file");
  if (!(file instanceof Blob) || file.size === 0) return refuse("Take or choose a photo first.");
  const form = new FormData();
  form.set("file", file, (file as File).name || "photo");
  try {
    await api.raw("post", "/profile-picture", { body: form });
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 422 || err.status === 413)) return refuse(`${err.errors?.file?.[0] ?? err.message}.`.replace(/\.\.$/, "."), err.status);
    redirectForApiError(args.request, err);
  }
  return redirectWithToast("/take-photo", { summary: "Photo saved", life: 5000 }, api.headers);
}

/** With JavaScript the photo is scaled in the browser and sent to the action above with its progress shown (issue 32). */
export const clientAction = sendPhoto;

export default function TakePhoto() {
  const { photo } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>(); // the client action answers the same `{ error }`
  const busy = useNavigation().state === "submitting";
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // A photo saved: the page shows it as the gym will, and the form starts empty again.
  useEffect(() => setPreview(null), [photo]);
  const inputId = "photo-file";
  return (
    <StepFrame
      step="Photo"
      title={photo ? "Your photo" : "Add your photo"}
      intro="The gym's staff use it to know you at the front desk. A clear photo of your face, looking at the camera."
    >
      {photo && !preview ? (
        <div className="space-y-4">
          <img src={photo} alt="Your photo as the gym will see it" width={256} height={256} className="mx-auto h-48 w-48 rounded-full object-cover shadow" />
          <Link to="/choose-payment-method" className={primaryLink}>
            Looks good: continue
          </Link>
          <h2 className="pt-2 text-sm font-semibold text-slate-800">Take another</h2>
        </div>
      ) : null}
      {preview ? <img src={preview} alt="The photo you are about to send" className="mx-auto mb-4 h-48 w-48 rounded-full object-cover shadow" /> : null}
      <Form key={photo ?? "none"} method="post" encType="multipart/form-data" className="space-y-4" aria-label="Send your photo">
        <div className="space-y-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            Take or choose a photo
          </label>
          {/* On a phone, capture="user" opens the front camera; it works without JavaScript. */}
          <input
            id={inputId}
            name="file"
            type="file"
            accept="image/*"
            capture="user"
            required
            aria-describedby={refused?.error ? "photo-error" : "photo-hint"}
            aria-invalid={refused?.error ? true : undefined}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setPreview(file ? URL.createObjectURL(file) : null);
            }}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
          />
          <p id="photo-hint" className="text-xs text-slate-600">
            JPEG, PNG or WebP, up to 10 MB.
          </p>
          {refused?.error ? (
            <p id="photo-error" role="alert" className="text-sm text-red-700">
              {refused.error}
            </p>
          ) : null}
        </div>
        <CameraCapture inputId={inputId} onPreview={setPreview} />
        <UploadProgress />
        <SubmitButton pending={busy}>{busy ? "Sending…" : photo ? "Use this photo instead" : "Use this photo"}</SubmitButton>
      </Form>
    </StepFrame>
  );
}
