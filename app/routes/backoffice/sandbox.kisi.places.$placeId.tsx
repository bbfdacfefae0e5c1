import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readForm } from "../../lib/forms.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { controlClass } from "../../components/control-class";
import { SandboxFrame } from "../../features/signup/sandbox-frame";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.place.name ?? "Place"} · Kisi (sandbox)` }, { name: "robots", content: "noindex" }];

/**
 * The sandbox door system's test panel (issue 15): someone at one of a place's doors. The sandbox opens it for a
 * person whose access is on, keeps it shut for anyone else, and sends us the event as Kisi would, so the visit (or
 * the refused visit) shows on the member's page and /visits. Only the organisation's own staff reach it; a live
 * deployment has no such page.
 */
export async function loader(args: LoaderFunctionArgs) {
  try {
    return { place: await gymApi(args).get("/sandbox/kisi/places/:placeId", { params: { placeId: idParam(args.params, "placeId") } }) };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

type Result = { ok: true; door: string; opened: boolean; recorded: boolean; reason: string; email: string } | { ok: false; message: string; email: string };

export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  const email = String(form.get("email") ?? "");
  try {
    const r = await gymApi(args).post("/sandbox/kisi/locks/:lockId/unlock", { params: { lockId: Number(form.get("lock")) || 0 }, body: { email } });
    return data<Result>({ ok: true, ...r, email });
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return data<Result>({ ok: false, message: err.errors?.email?.[0] ?? err.message, email }, { status: err.status });
  }
}

export default function DoorPanel() {
  const { place } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <SandboxFrame provider="Kisi" brand="text-slate-900" badge="Sandbox: no real doors">
      <h1 className="text-xl font-semibold text-slate-900">{place.name}: someone at the door</h1>
      <p className="mt-2 text-sm text-slate-700">The door opens for a person whose access is on. Either way Kisi tells the gym, as it would from a real door.</p>
      {result ? (
        <p role="status" className={`mt-4 rounded-md p-3 text-sm ${result.ok && result.opened ? "bg-green-50 text-green-900" : "bg-amber-50 text-amber-900"}`}>
          {result.ok
            ? `${result.door} ${result.opened ? "opened" : "stayed shut"} for ${result.email}. ${result.recorded ? `The gym recorded a ${result.reason}.` : `No visit recorded: ${result.reason}.`}`
            : result.message}
        </p>
      ) : null}
      <Form method="post" className="mt-4 space-y-3">
        <div className="space-y-1">
          <label htmlFor="door-email" className="block text-sm font-medium text-slate-800">
            Who is at the door (their e-mail)
          </label>
          <input id="door-email" name="email" type="email" required defaultValue={result?.email ?? ""} className={controlClass(Boolean(result && !result.ok))} />
        </div>
        <div className="space-y-1">
          <label htmlFor="door-lock" className="block text-sm font-medium text-slate-800">
            Door
          </label>
          <select id="door-lock" name="lock" className={controlClass(false)}>
            {place.locks.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy} className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 disabled:opacity-60">
          Try the door
        </button>
      </Form>
    </SandboxFrame>
  );
}
