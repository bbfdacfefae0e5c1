import { redirect, type ClientActionFunctionArgs } from "@remix-run/react";
import { postWithProgress } from "../../lib/post-with-progress";
import { resizePhoto } from "./resize-photo";
import { setUploadStep } from "./upload-progress";

/**
 * The action's data with its status, as a JSON response: Remix's single-fetch strategy passes a client action's Response
 * on as it is (data() would be wrapped in another and its status lost), and the router then skips reloading the page's
 * data after a 4xx or 5xx, as after the plain form's refusal (offline, that reload would fail into the error page).
 */
function withStatus(body: unknown, status: number) {
  if (body === undefined) return null;
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * The photo pages' client action (issue 32): with JavaScript the photo is scaled in the browser (resize-photo.ts), then
 * posted to the route's own action, the one the plain form posts to without JavaScript, with its progress shown
 * (upload-progress.tsx). The action's answer is handed back to Remix as its own fetch would: a redirect, the action's
 * data, or its error. When the photo could not be sent at all, `{ error }` says so, as the action's refusals do.
 */
export async function sendPhoto({ request }: ClientActionFunctionArgs) {
  const form = await request.formData();
  try {
    const file = form.get("file");
    if (file instanceof File && file.size > 0) {
      setUploadStep({ step: "preparing" });
      form.set("file", await resizePhoto(file));
    }
    const answer = await postWithProgress(
      new URL(request.url),
      form,
      (sent, total) => setUploadStep(sent < total ? { step: "sending", percent: Math.floor((sent * 100) / total) } : { step: "saving" }),
      request.signal,
    );
    switch (answer.kind) {
      case "redirect": {
        // As @remix-run/react passes a single-fetch redirect to the router.
        const headers = new Headers();
        if (answer.revalidate) headers.set("X-Remix-Revalidate", "yes");
        if (answer.reload) headers.set("X-Remix-Reload-Document", "yes");
        if (answer.replace) headers.set("X-Remix-Replace", "yes");
        return redirect(answer.to, { status: answer.status, headers });
      }
      case "data":
        return withStatus(answer.data, answer.status);
      case "error":
        throw answer.error;
      case "unanswered":
        return withStatus(
          { error: answer.status === 413 ? "The photo is larger than 10 MB." : "The photo could not be sent. Check the connection and try again." },
          answer.status || 503,
        );
    }
  } finally {
    setUploadStep(null);
  }
}
