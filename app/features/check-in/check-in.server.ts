import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { isInPlace } from "../../lib/in-place";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { formatTime } from "../../../domain/dates";

/**
 * /check-in (issue 32): the front desk. A plain GET form finds members (?q=), each found one has a "Check in" form,
 * and the check-in's result is its own address (?checked=visit), so a reload shows it again and records nothing.
 * The page's key makes a double click one visit.
 */
export async function loadCheckIn(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const checked = Number(url.searchParams.get("checked")) || null;
  try {
    const [found, result] = await Promise.all([
      q.trim() ? api.get("/check-in/members", { query: { q } }).then((r) => r.data) : Promise.resolve([]),
      checked
        ? api.get("/check-ins/:id", { params: { id: checked } }).catch((err: unknown) => {
            if (err instanceof ApiRequestError && err.status === 404) return null;
            throw err;
          })
        : Promise.resolve(null),
    ]);
    return { q, found, result: result && withClassTimes(result), key: newKey() };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

const newKey = () => randomBytes(12).toString("base64url");

/** The classes a check-in marked attended (issue 34), with their Auckland start time written here (decision 0053). */
function withClassTimes<R extends { visit: unknown; member: unknown; classes: { starts_at: string }[] }>(r: R) {
  return { visit: r.visit as R["visit"], member: r.member as R["member"], classes: r.classes.map((k) => ({ ...k, time: formatTime(k.starts_at) })) as (R["classes"][number] & { time: string })[] };
}

/**
 * Without JavaScript the check-in redirects to its result's address. With it (isInPlace) the result, and a fresh key
 * for the next person, are the action's answer: the page shows them at once and nothing else is loaded again.
 */
export async function checkInAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const inPlace = isInPlace(form);
  try {
    const done = await api.post("/check-ins", { body: { user_id: String(form.get("user_id") ?? ""), key: String(form.get("key") ?? "") } });
    if (inPlace) return data({ result: withClassTimes(done), key: newKey(), error: null }, { headers: api.headers });
    return redirect(`/check-in?checked=${done.visit.id}`, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401 && err.status !== 403) {
      const why = Object.values(err.errors ?? {}).flat()[0] ?? err.message;
      if (inPlace) return data({ result: null, key: newKey(), error: why }, { status: err.status, headers: api.headers });
      return redirectWithToast("/check-in", { severity: "error", summary: "Not checked in", detail: why }, api.headers);
    }
    redirectForApiError(args.request, err);
  }
}
