import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { staffUpdateRequest } from "../../../domain/schemas/staff";
import { zodErrors } from "../../../domain/schemas/fields";
import { SettingsSection, SwitchSetting, TextSetting } from "../../components/settings-sections";
import { orRefusal } from "../../features/members/member-route.server";
import { ColourDot, ColourField, RoleFields, StatusBadge } from "../../features/staff/staff-fields";
import { gymRows, mayManage, staffRoute } from "../../features/staff/staff-route.server";
import { idParam } from "../../lib/params.server";
import { formOn, formText, SectionInvalid, settingsAction, type Section } from "../../lib/settings-action.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.staff.name ?? "Staff member"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, options, me } = await staffRoute(args);
  const id = idParam(args.params, "id");
  const staff = await orRefusal(args.request, api.get("/staff/:id", { params: { id } }));
  return withDateTexts({ staff, options, manage: mayManage(options, staff), self: me.id === staff.id });
}

const SECTIONS: Record<string, Section<number>> = {
  details: {
    save: (api, id, f) => {
      const rows = gymRows(f);
      const parsed = staffUpdateRequest.safeParse({ name: formText(f, "name"), role: formText(f, "role"), calendar_colour: formText(f, "calendar_colour"), gyms: rows });
      if (!parsed.success) throw new SectionInvalid(zodErrors(parsed.error));
      return api.put("/staff/:id", { params: { id }, body: parsed.data });
    },
    summary: "Staff member saved",
    fields: ["name", "role", "calendar_colour", "gyms[*"],
  },
  doors: { save: (api, id, f) => api.post("/staff/:id/kisi-access", { params: { id }, body: { access_enabled: formOn(f, "access_enabled") } }), summary: "Door access saved", fields: ["access_enabled"] },
  resend: { save: (api, id) => api.post("/staff/:id/resend-invitation", { params: { id } }), summary: "Invitation sent again", fields: [] },
  deactivate: { save: (api, id) => api.post("/staff/:id/deactivate", { params: { id } }), summary: "Deactivated: they are signed out and cannot sign in", fields: [] },
  reactivate: { save: (api, id) => api.post("/staff/:id/reactivate", { params: { id } }), summary: "Reactivated: they can sign in again", fields: [] },
  remove: {
    save: (api, id, f) => {
      if (!formOn(f, "confirm")) throw new SectionInvalid({ confirm: ["Tick the box to confirm the removal"] });
      return api.delete("/staff/:id", { params: { id } });
    },
    summary: "Removed from your staff",
    fields: [],
    back: "/staff?status=removed",
  },
};

export async function action(args: ActionFunctionArgs) {
  const { api } = await staffRoute(args);
  const id = idParam(args.params, "id");
  return settingsAction(args.request, api, id, SECTIONS, `/staff/${id}`);
}

/** /staff/{id}: who they are and where they work, their colour in the calendar, door access, and switching off or removing them. */
export default function StaffMemberPage() {
  const dates = useDates();
  const { staff: s, options, manage, self } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const removed = s.status === "removed";
  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <p className="text-sm">
          <Link to="/staff" className="text-brand-700 hover:underline">
            Staff
          </Link>
        </p>
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold">
          <ColourDot colour={s.calendar_colour} size="h-4 w-4" />
          {s.name}
          <StatusBadge status={s.status} />
        </h1>
        <p className="text-sm text-slate-700">
          {s.email}
          {s.pending_invite && s.invited_at ? ` · invited ${dates.dateTime(new Date(s.invited_at))}` : null}
          {s.deactivated_at ? ` · deactivated ${dates.dateTime(new Date(s.deactivated_at))}` : null}
          {s.deleted_at ? ` · removed ${dates.dateTime(new Date(s.deleted_at))}` : null}
        </p>
      </div>

      <section aria-labelledby="where-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="where-heading" className="font-semibold">
          Where they work
        </h2>
        <p className="mt-1 text-sm text-slate-700">{s.role_label}</p>
        <ul className="mt-2 space-y-1 text-sm">
          {s.gyms.map((g) => (
            <li key={g.id}>{g.label}</li>
          ))}
        </ul>
        <p className="mt-2 text-sm text-slate-600">Visits: {s.visits_count.toLocaleString("en-NZ")}</p>
      </section>

      {!manage ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {s.is_organisation_admin ? "Organisation admins are managed by organisation admins." : "They also work at gyms you don't run: an organisation admin manages them."}
        </p>
      ) : removed ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">Removed from your staff. To bring them back, invite them again from the staff list.</p>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <SettingsSection id="details" title="Details and roles" intent="details" result={result}>
            <TextSetting result={result} intent="details" name="name" label="Name" value={s.name === s.email ? "" : s.name} />
            <RoleFields result={result} intent="details" options={options} role={s.role} gyms={s.gyms} />
            <ColourField result={result} intent="details" value={s.calendar_colour} />
          </SettingsSection>

          <div className="space-y-4">
            <SettingsSection id="doors" title="Door access" intent="doors" result={result} hint="Whether they can open the gym's doors with the door system's app, card or fob.">
              <SwitchSetting result={result} intent="doors" name="access_enabled" label="Door access on" on={s.access_enabled} />
            </SettingsSection>

            {s.pending_invite ? (
              <SettingsSection id="resend" title="Invitation" intent="resend" result={result} submit="Send the invitation again" hint="They have not set a password yet. A new link works for seven days; older ones keep working until they run out.">
                {null}
              </SettingsSection>
            ) : null}

            {self ? null : s.status === "deactivated" ? (
              <SettingsSection id="reactivate" title="Sign-in" intent="reactivate" result={result} submit="Reactivate" hint="Deactivated: they cannot sign in. Reactivated, they sign in as before.">
                {null}
              </SettingsSection>
            ) : (
              <SettingsSection id="deactivate" title="Sign-in" intent="deactivate" result={result} submit="Deactivate" hint="They are signed out at once, everywhere, and cannot sign in until reactivated. Nothing of theirs is lost.">
                {null}
              </SettingsSection>
            )}

            {self ? null : (
              <SettingsSection id="remove" title="Remove from staff" intent="remove" result={result} submit="Remove" hint="They lose access to this organisation and its doors. Their appointments and history stay.">
                <SwitchSetting result={result} intent="remove" name="confirm" label={`Yes, remove ${s.name}`} on={false} />
              </SettingsSection>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
