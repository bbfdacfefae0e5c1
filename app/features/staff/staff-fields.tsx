import { useState } from "react";
import { CALENDAR_COLOURS, PER_GYM, STAFF_STATUS_LABELS, type CalendarColour, type StaffStatus } from "../../../domain/staff";
import type { SectionResult } from "../../components/settings-sections";
import { controlClass } from "../../components/control-class";
import type { StaffOptions } from "./staff-route.server";

const COLOUR_NAMES: Record<CalendarColour, string> = { green: "Green", blue: "Blue", purple: "Purple", pink: "Pink", red: "Red", orange: "Orange", yellow: "Yellow", teal: "Teal", grey: "Grey" };

/** Each colour as a class (the CSP allows no inline styles); the shades match CALENDAR_COLOURS in domain/staff.ts. */
const COLOUR_CLASSES: Record<CalendarColour, string> = {
  green: "bg-green-600",
  blue: "bg-blue-600",
  purple: "bg-violet-600",
  pink: "bg-pink-600",
  red: "bg-red-600",
  orange: "bg-orange-600",
  yellow: "bg-yellow-600",
  teal: "bg-teal-600",
  grey: "bg-gray-600",
};

/** A staff member's calendar colour as a dot. */
export function ColourDot({ colour, size = "h-3 w-3" }: { colour: string; size?: string }) {
  return <span aria-hidden="true" className={`inline-block shrink-0 rounded-full ${size} ${COLOUR_CLASSES[colour as CalendarColour] ?? COLOUR_CLASSES.green}`} />;
}

const errorsOf = (result: SectionResult, intent: string, name: string) => (result?.intent === intent ? result.errors[name] : undefined);
const sent = (result: SectionResult, intent: string, name: string) => (result?.intent === intent ? result.values[name] : undefined);

function Errors({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="text-sm text-red-700">
      {errors[0]}
    </p>
  ) : null;
}

/**
 * Who a staff member is here: an organisation admin, or a role at each gym (SPEC §6: role -1, a list gym by gym).
 * With "Organisation admin" chosen the gym rows hide themselves (CSS :has, no script): they do not apply.
 */
export function RoleFields({
  result,
  intent,
  options,
  role,
  gyms,
}: {
  result: SectionResult;
  intent: string;
  options: StaffOptions;
  role: "admin" | "personal_trainer" | -1;
  gyms: { id: number; role: string }[];
}) {
  const roleShown = sent(result, intent, "role") ?? (role === "admin" ? "admin" : String(PER_GYM));
  const roleErrors = errorsOf(result, intent, "role");
  const gymErrors = errorsOf(result, intent, "gyms");
  return (
    <div className="staff-roles space-y-3">
      <div className="space-y-1">
        <label htmlFor={`${intent}-role`} className="block text-sm font-medium text-slate-800">
          Role
        </label>
        <select
          id={`${intent}-role`}
          name="role"
          defaultValue={roleShown}
          key={roleShown}
          aria-invalid={roleErrors ? true : undefined}
          aria-describedby={roleErrors ? `${intent}-role-error` : undefined}
          className={controlClass(Boolean(roleErrors))}
        >
          {options.may_make_organisation_admins || role === "admin" ? <option value="admin">Organisation admin: every gym and the organisation's settings</option> : null}
          <option value={String(PER_GYM)}>A role at each gym</option>
        </select>
        <Errors id={`${intent}-role-error`} errors={roleErrors} />
      </div>
      <fieldset className="staff-gym-roles space-y-2" aria-describedby={gymErrors ? `${intent}-gyms-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Role at each gym</legend>
        {options.gyms.map((g, i) => {
          const shown = sent(result, intent, `gyms[${i}].role`) ?? gyms.find((h) => h.id === g.id)?.role ?? String(PER_GYM);
          return (
            <div key={g.id} className="flex items-center gap-3">
              <input type="hidden" name={`gyms[${i}].id`} value={g.id} />
              <label htmlFor={`${intent}-gym-${g.id}`} className="w-40 shrink-0 text-sm text-slate-800">
                {g.name}
              </label>
              <select
                id={`${intent}-gym-${g.id}`}
                name={`gyms[${i}].role`}
                defaultValue={shown}
                key={shown}
                aria-invalid={gymErrors ? true : undefined}
                className={controlClass(Boolean(gymErrors))}
              >
                <option value={String(PER_GYM)}>No role</option>
                <option value="admin">Admin</option>
                <option value="personal_trainer">Personal Trainer</option>
              </select>
            </div>
          );
        })}
        <Errors id={`${intent}-gyms-error`} errors={gymErrors} />
      </fieldset>
    </div>
  );
}

/** The calendar colour, with a swatch of each (SPEC §9: green unless chosen). */
export function ColourField({ result, intent, value }: { result: SectionResult; intent: string; value: string }) {
  const shown = sent(result, intent, "calendar_colour") ?? value;
  const errors = errorsOf(result, intent, "calendar_colour");
  // The dot follows the choice with JavaScript; without it, it shows the colour saved.
  const [picked, setPicked] = useState(shown);
  return (
    <div className="space-y-1">
      <label htmlFor={`${intent}-calendar_colour`} className="block text-sm font-medium text-slate-800">
        Calendar colour
      </label>
      <div className="flex items-center gap-2">
        <ColourDot colour={picked} size="h-5 w-5" />
        <select
          onChange={(e) => setPicked(e.target.value)}
          id={`${intent}-calendar_colour`}
          name="calendar_colour"
          defaultValue={shown}
          key={shown}
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? `${intent}-calendar_colour-error` : undefined}
          className={controlClass(Boolean(errors))}
        >
          {(Object.keys(CALENDAR_COLOURS) as CalendarColour[]).map((c) => (
            <option key={c} value={c}>
              {COLOUR_NAMES[c]}
            </option>
          ))}
        </select>
      </div>
      <Errors id={`${intent}-calendar_colour-error`} errors={errors} />
    </div>
  );
}

export function StatusBadge({ status }: { status: StaffStatus }) {
  const styles = {
    invited: "bg-amber-50 text-amber-900 ring-amber-200",
    active: "bg-green-50 text-green-800 ring-green-200",
    deactivated: "bg-slate-100 text-slate-700 ring-slate-300",
    removed: "bg-red-50 text-red-800 ring-red-200",
  }[status];
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${styles}`}>{STAFF_STATUS_LABELS[status]}</span>;
}
