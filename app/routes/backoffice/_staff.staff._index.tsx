import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ALREADY_STAFF, IS_A_MEMBER, staffInviteRequest } from "../../../domain/schemas/staff";
import { zodErrors } from "../../../domain/schemas/fields";
import { SettingsSection, SwitchSetting, TextSetting, type SectionResult } from "../../components/settings-sections";
import { orRefusal } from "../../features/members/member-route.server";
import { ColourDot, ColourField, RoleFields, StatusBadge } from "../../features/staff/staff-fields";
import { gymRows, staffRoute } from "../../features/staff/staff-route.server";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { formOn, formText } from "../../lib/settings-action.server";
import { redirectWithToast } from "../../lib/toast.server";
import { formatDateTime } from "../../../domain/dates";
import { gymRoleLabel } from "../../../domain/staff";

export const meta: MetaFunction = () => [{ title: "Staff · Gym Membership" }];

const STATUSES = [
  { value: "current", label: "Current" },
  { value: "invited", label: "Invited" },
  { value: "deactivated", label: "Deactivated" },
  { value: "removed", label: "Removed" },
] as const;
type Status = (typeof STATUSES)[number]["value"];

/** /staff: the organisation's staff (a gym admin's: those of their gyms), and the invitation form beside them. */
export async function loader(args: LoaderFunctionArgs) {
  const { api, organisationId, options } = await staffRoute(args);
  const url = new URL(args.request.url);
  const status = (STATUSES.find((s) => s.value === url.searchParams.get("status"))?.value ?? "current") as Status;
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const [list, invitations] = await Promise.all([
    orRefusal(args.request, api.get("/organisations/:id/staff", { params: { id: organisationId }, query: { status, search: search || undefined } })),
    status === "invited" ? orRefusal(args.request, api.get("/organisations/:id/invitations", { params: { id: organisationId }, query: { kind: "staff" } })) : null,
  ]);
  return {
    staff: list.data,
    // Accounts another organisation holds, asked to join (decision 0048): shown as typed here until they accept.
    invitations: (invitations?.data ?? []).map((i) => ({
      ...i,
      roles: i.role === "admin" ? "Organisation admin" : i.gyms.map((g) => gymRoleLabel(options.gyms.find((o) => o.id === g.id)?.name ?? "A gym", g.role)).join(", "),
      expires: formatDateTime(new Date(i.expires_at)),
    })),
    options,
    status,
    search,
  };
}

const INVITE_FIELDS = ["email", "name", "role", "calendar_colour"];

/**
 * Invite: checked with the API's own schema, then the address is looked up (POST …/staff-exists) so someone already
 * on the staff is told so on the field, then POST …/staff; the new staff member's page follows with a toast.
 */
export async function action(args: ActionFunctionArgs) {
  const { api, organisationId } = await staffRoute(args);
  const form = await readForm(args.request);
  if (formText(form, "intent") === "withdraw") return withdraw(args, api, form);
  const rows = gymRows(form);
  const values: Record<string, string> = {
    ...Object.fromEntries(INVITE_FIELDS.map((k) => [k, formText(form, k)])),
    ...Object.fromEntries(rows.map((r, i) => [`gyms[${i}].role`, r.role])),
    invite: formOn(form, "invite") ? "on" : "off",
  };
  const refused = (errors: Record<string, string[]>, message = Object.values(errors)[0]?.[0] ?? "Check the form.", status = 400) =>
    data<SectionResult>({ intent: "invite", errors, values, message }, { status });
  const parsed = staffInviteRequest.safeParse({
    email: formText(form, "email"),
    name: formText(form, "name"),
    role: formText(form, "role"),
    invite: formOn(form, "invite"),
    calendar_colour: formText(form, "calendar_colour"),
    gyms: rows,
  });
  if (!parsed.success) return refused(zodErrors(parsed.error));
  const params = { id: organisationId };
  try {
    const who = await api.post("/organisations/:id/staff-exists", { params, body: { email: parsed.data.email } });
    if (who.staff) return refused({ email: [ALREADY_STAFF] }, ALREADY_STAFF, 422);
    if (who.member) return refused({ email: [IS_A_MEMBER] }, IS_A_MEMBER, 422);
    const added = await api.post("/organisations/:id/staff", { params, body: parsed.data });
    if ("awaiting_acceptance" in added) {
      const detail = `We e-mailed ${added.email} an invitation to join your staff. They already have an account, so they join when they accept it.`;
      return redirectWithToast("/staff?status=invited", { summary: "Invitation sent", detail }, api.headers);
    }
    const toast = !added.invited
      ? { summary: "Staff member added", detail: `${added.name} can sign in once they set a password from the sign-in page.` }
      : added.existing_account
        ? { summary: "Added to your staff", detail: `${added.name} already had an account: we e-mailed them to sign in with it.` }
        : { summary: "Invitation sent", detail: `We e-mailed ${added.email} a link to set a password. It works for seven days.` };
    return redirectWithToast(`/staff/${added.id}`, toast, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return refused(err.errors ?? {}, err.message, err.status >= 500 ? 503 : err.status);
  }
}

/** Withdraws an open invitation: its link stops working. */
async function withdraw(args: ActionFunctionArgs, api: Awaited<ReturnType<typeof staffRoute>>["api"], form: FormData) {
  try {
    await api.delete("/invitations/:id", { params: { id: formText(form, "id") }, query: { kind: "staff" } });
    return redirectWithToast("/staff?status=invited", { summary: "Invitation withdrawn", detail: "Its link no longer works." }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return redirectWithToast("/staff?status=invited", { summary: "Not withdrawn", detail: err.message, severity: "error" }, api.headers);
  }
}

export default function Staff() {
  const { staff, invitations, options, status, search } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="max-w-6xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Staff</h1>
        <a href="#invite-heading" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          Invite a staff member
        </a>
      </div>
      <div className="space-y-4">
        <div className="space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <nav aria-label="Staff by status" className="flex flex-wrap gap-1">
              {STATUSES.map((s) => (
                <Link
                  key={s.value}
                  to={`/staff?${new URLSearchParams({ status: s.value, ...(search ? { search } : {}) })}`}
                  aria-current={s.value === status ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm font-medium ${s.value === status ? "bg-brand-700 text-white" : "bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"}`}
                >
                  {s.label}
                </Link>
              ))}
            </nav>
            <Form method="get" className="flex items-end gap-2" role="search">
              <input type="hidden" name="status" value={status} />
              <div>
                <label htmlFor="staff-search" className="block text-sm font-medium text-slate-800">
                  Search staff
                </label>
                <input id="staff-search" name="search" type="search" defaultValue={search} placeholder="Name or e-mail" className="block w-56 rounded-md border border-slate-300 px-3 py-1.5 text-sm" />
              </div>
              <button type="submit" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Search
              </button>
            </Form>
          </div>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-2 font-semibold">Name</th>
                  <th scope="col" className="px-4 py-2 font-semibold">E-mail</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Gyms</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Status</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Door access</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {staff.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="px-4 py-6 text-center text-slate-600">
                      {search ? `No staff match “${search}”.` : "Nobody here."}
                    </td>
                  </tr>
                ) : null}
                {staff.map((s) => (
                  <tr key={s.id}>
                    <td data-label="Name" data-title="" className="px-4 py-2">
                      <span className="inline-flex items-center gap-2">
                        <ColourDot colour={s.calendar_colour} />
                        <Link to={`/staff/${s.id}`} className="font-medium text-brand-700 hover:underline">
                          {s.name}
                        </Link>
                      </span>
                      {s.is_organisation_admin ? <span className="block text-xs text-slate-600">Organisation admin</span> : null}
                    </td>
                    <td data-label="E-mail" className="px-4 py-2">{s.email}</td>
                    <td data-label="Gyms" className="px-4 py-2">
                      {s.is_organisation_admin ? "Every gym" : s.gyms.map((g) => <div key={g.id}>{g.label}</div>)}
                    </td>
                    <td data-label="Status" className="px-4 py-2">
                      <StatusBadge status={s.status} />
                    </td>
                    <td data-label="Door access" className="px-4 py-2">{s.access_enabled ? "On" : "Off"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        {status === "invited" ? <WaitingInvitations invitations={invitations} /> : null}
        <div className="max-w-xl">
          <SettingsSection
            id="invite"
            title="Invite a staff member"
            intent="invite"
            result={result}
            submit="Invite"
            hint="They get an e-mail with a link to set their password. Someone who already has an account with us joins when they accept the e-mailed invitation."
          >
            <TextSetting result={result} intent="invite" name="email" label="E-mail" type="email" value="" />
            <TextSetting result={result} intent="invite" name="name" label="Name (they can give it themselves when invited)" value="" />
            <RoleFields result={result} intent="invite" options={options} role={-1} gyms={options.gyms.length === 1 ? [{ id: options.gyms[0].id, role: "personal_trainer" }] : []} />
            <ColourField result={result} intent="invite" value="green" />
            <SwitchSetting result={result} intent="invite" name="invite" label="E-mail them an invitation" on />
          </SettingsSection>
        </div>
      </div>
    </div>
  );
}

/** People with an account elsewhere, invited to the staff: shown as they were typed here, until they answer. */
function WaitingInvitations({ invitations }: { invitations: ReturnType<typeof useLoaderData<typeof loader>>["invitations"] }) {
  return (
    <section aria-labelledby="waiting-heading" className="space-y-2">
      <h2 id="waiting-heading" className="text-lg font-semibold">
        Waiting for an answer
      </h2>
      <p className="text-sm text-slate-600">They already have an account with us, so they join your staff when they accept the e-mailed invitation.</p>
      {invitations.length === 0 ? (
        <p className="text-sm text-slate-600">No invitations are waiting.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
          {invitations.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-2">
              <span>
                <span className="font-medium">{i.name || i.email}</span>
                {i.name ? <span className="text-slate-600"> · {i.email}</span> : null}
                <span className="block text-xs text-slate-600">
                  {i.roles} · the link works until {i.expires}
                </span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="withdraw" />
                <input type="hidden" name="id" value={i.id} />
                <button type="submit" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-red-700 ring-1 ring-inset ring-slate-300 hover:bg-red-50">
                  Withdraw
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
