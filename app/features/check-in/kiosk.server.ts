import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireStaff } from "../../lib/session.server";

/** What the kiosk says after a code, read from its address (?in=Ava, ?desk=Paul, ?unknown=1): a reload records nothing. */
export type KioskAnswer = { kind: "in" | "desk"; name: string } | { kind: "unknown" } | null;

/**
 * /kiosk (issue 32): the tablet at the entrance. Staff turn their session into the kiosk here (POST /api/kiosk);
 * from then on the device shows this page alone, where members type their code, and shows nothing about anyone but
 * the first name of the member who just checked in. Signing out ends it.
 */
export async function loadKiosk(args: LoaderFunctionArgs) {
  const { me, api } = await requireStaff(args);
  const q = new URL(args.request.url).searchParams;
  const answer: KioskAnswer = q.get("in")
    ? { kind: "in", name: q.get("in")!.slice(0, 60) }
    : q.get("desk")
    ? { kind: "desk", name: q.get("desk")!.slice(0, 60) }
    : q.get("unknown")
    ? { kind: "unknown" }
    : null;
  try {
    const { gym } = me.kiosk ? await api.get("/kiosk") : { gym: me.current_gym };
    return { kiosk: me.kiosk, gym: gym?.name ?? null, answer, key: randomBytes(12).toString("base64url") };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export async function kioskAction(args: ActionFunctionArgs) {
  const { api } = await requireStaff(args);
  const form = await readForm(args.request);
  try {
    if (form.get("intent") === "start") {
      await api.post("/kiosk");
      return redirect("/kiosk", { headers: api.headers });
    }
    const done = await api.post("/check-ins/kiosk", { body: { code: String(form.get("code") ?? ""), key: String(form.get("key") ?? "") } });
    return redirect(`/kiosk?${new URLSearchParams({ [done.allowed ? "in" : "desk"]: done.first_name })}`, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return redirect("/kiosk?unknown=1", { headers: api.headers });
    redirectForApiError(args.request, err);
  }
}
