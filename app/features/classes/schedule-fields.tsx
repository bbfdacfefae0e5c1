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
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <Select
          id={`${prefix}-trainer_id`}
          name="trainer_id"
          label="Trainer"
          value={str(values.trainer_id)}
          errors={errors}
          options={trainers.map((t) => ({ value: t.id, label: t.name }))}
        />
        <Input id={`${prefix}-start_time`} name="start_time" label="Start time" type="time" value={str(values.start_time)} errors={errors} />
        <Input
          id={`${prefix}-duration_minutes`}
          name="duration_minutes"
          label="Length (minutes)"
          type="number"
          min={5}
          value={str(values.duration_minutes)}
          errors={errors}
          hint="Empty: the class type's."
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Input id={`${prefix}-room`} name="room" label="Room or area" value={str(values.room)} errors={errors} />
        <Input
          id={`${prefix}-capacity`}
          name="capacity"
          label="Places"
          type="number"
          min={1}
          value={str(values.capacity)}
          errors={errors}
          hint="Empty: the class type's."
        />
        <Input
          id={`${prefix}-waitlist_size`}
          name="waitlist_size"
          label="Waitlist places"
          type="number"
          min={0}
          value={str(values.waitlist_size)}
          errors={errors}
          hint="Empty: the class type's."
        />
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
