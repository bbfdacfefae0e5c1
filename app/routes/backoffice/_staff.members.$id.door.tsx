import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { ActionPage, memberName } from "../../features/membership/action-page";
import { memberRoute, orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Door access · Gym Membership" }];

/**
 * /members/{id}/door: what the membership allows at the door, what the door system (Kisi) holds for the member,
 * their credentials; and recreating their door login, with access as the membership says.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { id, api } = memberRoute(args);
  const [member, access] = await orRefusal(args.request, Promise.all([api.get("/members/:id", { params: { id } }), api.get("/members/:id/access-control", { params: { id } })]));
  return withDateTexts({ member, access });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  try {
    const after = await api.post("/users/:id/recreate-kisi-login", { params: { id } });
    return redirectWithToast(`/members/${id}/door`, { severity: "success", summary: "Door login recreated", detail: `Access ${after.allowed ? "on" : "off"}: ${after.reason}` }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 503) return redirectWithToast(`/members/${id}/door`, { severity: "error", summary: "The door system did not answer", detail: err.message }, api.headers);
    redirectForApiError(args.request, err);
  }
}

const KINDS = { card: "Card", fob: "Fob", pin: "PIN", mobile: "Phone key" } as const;

export default function DoorPage() {
  const { member, access } = useLoaderData<typeof loader>();
  const pending = useNavigation().state === "submitting";
  const door = access.door;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Door access" view={null}>
      <section aria-labelledby="door-decision" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="door-decision" className="font-semibold">
          What the membership allows
        </h2>
        <p className={access.allowed ? "text-green-800" : "text-red-800"}>
          {access.allowed ? "Let in" : "Kept out"}: {access.reason}
        </p>
      </section>
      <section aria-labelledby="door-system" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="door-system" className="font-semibold">
          The door system ({door.provider === "kisi" ? "Kisi" : door.provider}
          {door.mode === "sandbox" ? ", sandbox" : ""})
        </h2>
        {door.error ? (
          <p className="text-red-800">It did not answer: {door.error}</p>
        ) : door.known ? (
          <p>Access {door.access_enabled ? "on" : "off"} there.</p>
        ) : (
          <p>It does not know this member.</p>
        )}
        {!door.error ? <p className={access.agrees ? "text-green-800" : "text-amber-900"}>{access.agrees ? "It agrees with the membership." : "It does not agree with the membership: recreate the door login to put it right."}</p> : null}
        <h3 className="pt-2 font-medium">Credentials</h3>
        {access.credentials.length ? (
          <ul className="list-disc pl-5">
            {access.credentials.map((c) => (
              <li key={c.id}>
                {KINDS[c.kind]}
                {c.identifier_hint ? ` ending ${c.identifier_hint}` : ""}: {c.status}
              </li>
            ))}
          </ul>
        ) : (
          <p>None issued.</p>
        )}
      </section>
      {member.can.edit ? (
        <Form method="post" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <p>
            Recreating the door login adds the member to the door system again with access {access.allowed ? "on" : "off"}, as the membership says, and marks their credentials{" "}
            {access.allowed ? "active" : "suspended"}.
          </p>
          <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60">
            Recreate the door login
          </button>
        </Form>
      ) : null}
    </ActionPage>
  );
}
