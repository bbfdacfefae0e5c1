import { Form, useFetcher } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Icon } from "../../components/shell/icons";
import { UploadProgress } from "../photos/upload-progress";

/**
 * The member's photo control: a button-like label holding a visually hidden file input, instead of the
 * browser's "Choose File / No file chosen". A multipart form posted to /members/{id}/photo, where the API
 * judges the file.
 * - Without JavaScript (and before hydration): choose a file, "Photo chosen" shows (CSS :has, where the
 *   browser has it), then Upload sends it.
 * - With JavaScript: choosing a file sends it at once, scaled in the browser first, with its progress (the route's
 *   client action, issue 32); the label says "Uploading…" meanwhile. A fetcher, so a photo that could not be sent
 *   at all is said here and the page stays; the action's own answers are redirects back to the member with a toast.
 */
export function PhotoForm({ memberId, hasPhoto }: { memberId: number; hasPhoto: boolean }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ error?: string }>({ key: `member-photo-${memberId}` });
  const action = `/members/${memberId}/photo`;
  const busy = fetcher.state !== "idle";
  const button = "rounded-md border border-slate-300 bg-white px-2.5 py-1 font-medium text-slate-800 shadow-sm hover:bg-slate-50";
  const problem = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="group/photo mt-2 flex flex-wrap items-center gap-2 text-sm">
      <label
        className={`${button} inline-flex cursor-pointer items-center gap-1.5 focus-within:outline focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-500 ${busy ? "opacity-60" : ""}`}
      >
        <Icon name="camera" className="h-4 w-4 text-slate-600" />
        {busy ? "Uploading…" : hasPhoto ? "Change photo" : "Add a photo"}
        <input
          name="file"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          required
          disabled={busy}
          className="sr-only"
          onChange={(e) => {
            const form = e.currentTarget.form;
            if (!hydrated || !form || !e.currentTarget.files?.length) return;
            fetcher.submit(form); // reads the form at once…
            form.reset(); // …so the same file can be chosen again after a refusal
          }}
        />
      </label>
      {busy ? <UploadProgress className="w-48" /> : null}
      {problem ? (
        <p role="alert" className="w-full text-red-700">
          {problem}
        </p>
      ) : null}
      {hydrated ? null : (
        <>
          <span className="hidden text-slate-600 group-has-[input:valid]/photo:inline">Photo chosen.</span>
          <button type="submit" className={button}>
            Upload
          </button>
        </>
      )}
    </Form>
  );
}
