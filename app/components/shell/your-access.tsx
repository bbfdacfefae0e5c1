import { roleLabel } from "../../../domain/staff";
import type { Me } from "../../lib/session.server";
import { Icon } from "./icons";
import { isOrganisationAdmin } from "./nav";

/**
 * The user's role in words, for the sidebar's "Your access" summary: "Organisation admin", "Gym admin at 2 gyms",
 * "Gym admin at Ponsonby", or the current gym's role ("Personal Trainer"); "Staff" when it has no name.
 */
export function accessInWords(me: Pick<Me, "is_organisation_admin" | "is_gym_admin" | "gyms" | "current_gym">): string {
  if (me.is_organisation_admin) return "Organisation admin";
  const adminAt = me.gyms.filter((g) => g.role === "admin");
  if (me.is_gym_admin && adminAt.length > 1) return `Gym admin at ${adminAt.length} gyms`;
  if (me.is_gym_admin && adminAt.length === 1) return `Gym admin at ${adminAt[0].name}`;
  const label = roleLabel(me.current_gym?.role);
  return label === "--" ? "Staff" : label;
}

const yesNo = (v: boolean) => (v ? "Yes" : "No");

function Fact({ label, value }: { label: string; value: boolean }) {
  return (
    <div className="flex justify-between gap-2">
      <dt>{label}</dt>
      <dd className="font-semibold">{yesNo(value)}</dd>
    </div>
  );
}

/**
 * SPEC §2's info box below the sidebar's list, at its foot above the user (its facts and Yes/No values, word for word), as a disclosure closed by
 * default: the summary names the role, the facts are one click away. A native <details>, so it opens without JavaScript.
 */
export function YourAccess({ me }: { me: Me }) {
  const adminGyms = me.gyms.filter((g) => g.role === "admin").length;
  return (
    <details className="group/access mx-3 mt-auto rounded-md border border-slate-200 bg-slate-50 text-xs text-slate-700">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-md px-3 py-2 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <span>
          <span className="block font-medium text-slate-600">Your access</span>
          <span className="block text-sm font-semibold text-slate-900" data-testid="access-role">
            {accessInWords(me)}
          </span>
        </span>
        <Icon name="chevron" className="h-4 w-4 shrink-0 transition-transform group-open/access:rotate-180" />
      </summary>
      <dl className="space-y-1 border-t border-slate-200 px-3 py-2" aria-label="Your access">
        <Fact label="Organisation Admin" value={isOrganisationAdmin(me)} />
        {me.is_gym_admin ? (
          <>
            <Fact label="Gym Admin" value />
            <Fact label="Gym Admin of more than 1 gym" value={adminGyms > 1} />
          </>
        ) : null}
        <Fact label="Org is multi-gym" value={Boolean(me.current_organisation?.multi_gym)} />
      </dl>
    </details>
  );
}
