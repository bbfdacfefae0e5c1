import { FieldError } from "../calendar/field-error";
import { DayBoxes, Input, Select, type Errors } from "./inputs";

/**
 * What a class on the timetable is, as a form's fields (issue 34): its trainer, start time, length, room and places;
 * a new schedule also its type, once or weekly, and its first (and last) day. Empty length and places take the
 * class type's.
 */
export type ScheduleValues = Record<string, string | string[]>;
const str = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] ?? "" : v ?? "");
const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []);

/** Left empty, these take the class type's. */
const TYPE_DEFAULT = "Empty: the class type's.";

export function SlotFields({
  values,
  errors,
  trainers,
  prefix,
}: {
  values: ScheduleValues;
  errors: Errors;
  trainers: { id: number; name: string }[];
  prefix: string;
}) {
  const field = (name: string) => ({ id: `${prefix}-${name}`, name, value: str(values[name]), errors });
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <Select {...field("trainer_id")} label="Trainer" options={trainers.map((t) => ({ value: t.id, label: t.name }))} />
        <Input {...field("start_time")} label="Start time" type="time" />
        <Input {...field("duration_minutes")} label="Length (minutes)" type="number" min={5} hint={TYPE_DEFAULT} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Input {...field("room")} label="Room or area" />
        <Input {...field("capacity")} label="Places" type="number" min={1} hint={TYPE_DEFAULT} />
        <Input {...field("waitlist_size")} label="Waitlist places" type="number" min={0} hint={TYPE_DEFAULT} />
      </div>
    </>
  );
}

export function RepeatFields({
  values,
  errors,
  prefix,
  firstName,
  firstLabel,
}: {
  values: ScheduleValues;
  errors: Errors;
  prefix: string;
  firstName: "starts_on" | "from";
  firstLabel: string;
}) {
  const repeat = str(values.repeat) || "weekly";
  return (
    <>
      {firstName === "starts_on" ? (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-slate-800">How often</legend>
          <div className="flex gap-4 text-sm">
            <label htmlFor={`${prefix}-repeat-weekly`} className="inline-flex items-center gap-1">
              <input id={`${prefix}-repeat-weekly`} type="radio" name="repeat" value="weekly" defaultChecked={repeat === "weekly"} /> Weekly on the days chosen
            </label>
            <label htmlFor={`${prefix}-repeat-once`} className="inline-flex items-center gap-1">
              <input id={`${prefix}-repeat-once`} type="radio" name="repeat" value="once" defaultChecked={repeat === "once"} /> Once, on the first day
            </label>
          </div>
          <FieldError errors={errors} name="repeat" />
        </fieldset>
      ) : null}
      <DayBoxes chosen={list(values.days)} errors={errors} idPrefix={`${prefix}-day`} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input id={`${prefix}-${firstName}`} name={firstName} label={firstLabel} type="date" value={str(values[firstName])} errors={errors} />
        <Input
          id={`${prefix}-until`}
          name="until"
          label="Last day (weekly; optional)"
          type="date"
          value={str(values.until)}
          errors={errors}
          hint="Empty: it runs until you end it."
        />
      </div>
    </>
  );
}
