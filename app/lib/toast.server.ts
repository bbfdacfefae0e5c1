import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { config } from "../../server/core/config";
import { secureCookies } from "../../server/core/middleware";
import { toastLife, type ToastData, type ToastLife, type ToastSeverity } from "../components/toasts";

/**
 * Flash toasts through remix-toast, on a cookie signed with TOAST_SECRET (remix-toast's own default
 * cookie is neither secret nor signed). remix-toast's `type` carries our severity; `duration` the life.
 */
const TOAST_COOKIE = "gym_toast";
let utils: ReturnType<typeof createToastUtilsWithCustomSession> | undefined;

function toastUtils() {
  if (!utils) {
    const cfg = config();
    utils = createToastUtilsWithCustomSession(
      createCookieSessionStorage({
        cookie: {
          name: TOAST_COOKIE,
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: secureCookies(cfg),
          secrets: [cfg.TOAST_SECRET],
        },
      }),
    );
  }
  return utils;
}

export interface ToastInput {
  severity?: ToastSeverity;
  summary: string;
  detail?: string;
  /** Milliseconds before it closes by itself; 5000 unless given. */
  life?: ToastLife;
}

type RemixToast = Parameters<ReturnType<typeof createToastUtilsWithCustomSession>["redirectWithToast"]>[1];
const toRemix = (t: ToastInput): RemixToast =>
  ({ message: t.summary, description: t.detail, duration: t.life ?? 5000, type: t.severity ?? "success" }) as unknown as RemixToast;

/** Redirect with a toast, keeping any Set-Cookie headers the API sent (a new session, say). */
export async function redirectWithToast(url: string, toast: ToastInput, headers?: Headers) {
  return toastUtils().redirectWithToast(url, toRemix(toast), { headers });
}

export async function readToast(request: Request): Promise<{ toast: ToastData | null; headers: Headers }> {
  // remix-toast signs and sets its cookie on every read; without one there is nothing to read or clear.
  const cookies = request.headers.get("cookie") ?? "";
  if (!cookies.split(";").some((c) => c.trim().startsWith(`${TOAST_COOKIE}=`))) return { toast: null, headers: new Headers() };
  const { toast, headers } = await toastUtils().getToast(request);
  if (!toast) return { toast: null, headers };
  return {
    toast: {
      id: `${Date.now()}`,
      severity: toast.type as unknown as ToastSeverity,
      summary: toast.message,
      detail: toast.description,
      life: toastLife(toast.duration),
      closable: true,
    },
    headers,
  };
}
