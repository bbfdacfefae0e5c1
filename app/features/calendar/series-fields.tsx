import { controlClass } from "../../components/control-class";
import { describedBy, FieldError } from "./field-error";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export interface SeriesValues {
  days: string[];
  start_time: string;
  end_time: string;
  /** starts_on for a new series, from for a change. */
  first: string;
  ends: "never" | "on" | "after";
  until: string;
  count: string;
  notes: string;
}

/**
 * The pattern of a recurring schedule, as a new series and a change from a date ask for it: days of the week (1–7 from
 * Monday), times, the first day, how it ends (never, on a date, after a number of sessions) and notes. Plain inputs, so
 * it works without JavaScript; `errors` are the API's, by its field names.
 */
export function SeriesFields({ id, firstName, firstLabel, values, errors }: { id: string; firstName: "starts_on" | "from"; firstLabel: string; values: SeriesValues; errors?: Record<string, string[]> }) {
  const e = errors ?? {};
  const dayErrors = e.days ?? Object.entries(e).find(([k]) => k.startsWith("days["))?.[1];
  const input = (name: string) => controlClass(Boolean(e[name]));
  return (
    <>
      <fieldset className="space-y-1" {...describedBy(dayErrors ? { days: dayErrors } : undefined, "days")}>
        <legend className="text-sm font-medium text-slate-800">Days</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {DAYS.map((name, i) => (
            <label key={name} className="inline-flex min-h-6 items-center gap-1 text-sm">
              <input type="checkbox" name="days" value={i + 1} defaultChecked={values.days.includes(String(i + 1))} className="h-4 w-4 rounded border-slate-300" />
              {name}
            </label>
          ))}
        </div>
        <FieldError errors={dayErrors ? { days: dayErrors } : undefined} name="days" />
      </fieldset>
      <div className="grid grid-cols-3 gap-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-first`} className="block text-sm font-medium text-slate-800">
            {firstLabel}
          </label>
          <input id={`${id}-first`} name={firstName} type="date" required defaultValue={values.first} className={input(firstName)} {...describedBy(e, firstName)} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-start`} className="block text-sm font-medium text-slate-800">
            Starts
          </label>
          <input id={`${id}-start`} name="start_time" type="time" required step={300} defaultValue={values.start_time} className={input("start_time")} {...describedBy(e, "start_time")} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-end`} className="block text-sm font-medium text-slate-800">
            Ends
          </label>
          <input id={`${id}-end`} name="end_time" type="time" required step={300} defaultValue={values.end_time} className={input("end_time")} {...describedBy(e, "end_time")} />
        </div>
      </div>
      <FieldError errors={e} name={firstName} />
      <FieldError errors={e} name="start_time" />
      <FieldError errors={e} name="end_time" />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Ends</legend>
        <label className="flex min-h-6 items-center gap-2 text-sm">
          <input type="radio" name="ends" value="never" defaultChecked={values.ends === "never"} /> No end date
        </label>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex min-h-6 items-center gap-2">
            <input type="radio" name="ends" value="on" defaultChecked={values.ends === "on"} /> On
          </label>
          <label htmlFor={`${id}-until`} className="sr-only">
            Last day
          </label>
          <input id={`${id}-until`} name="until" type="date" defaultValue={values.until} className={`${input("until")} max-w-44`} {...describedBy(e, "until")} />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex min-h-6 items-center gap-2">
            <input type="radio" name="ends" value="after" defaultChecked={values.ends === "after"} /> After
          </label>
          <label htmlFor={`${id}-count`} className="sr-only">
            Number of sessions
          </label>
          <input id={`${id}-count`} name="count" type="number" min={1} max={200} inputMode="numeric" defaultValue={values.count} className={`${input("count")} max-w-24`} {...describedBy(e, "count")} />
          <span>sessions</span>
        </div>
        <FieldError errors={e} name="until" />
        <FieldError errors={e} name="count" />
      </fieldset>
      <div className="space-y-1">
        <label htmlFor={`${id}-notes`} className="block text-sm font-medium text-slate-800">
          Notes
        </label>
        <input id={`${id}-notes`} name="notes" defaultValue={values.notes} className={input("notes")} {...describedBy(e, "notes")} />
        <FieldError errors={e} name="notes" />
      </div>
    </>
  );
}

/** The form's values as the API takes them: the end the radio chose, and only that. */
export function seriesBody(form: FormData) {
  const v = (k: string) => String(form.get(k) ?? "");
  const ends = v("ends");
  return {
    days: form.getAll("days").map(String),
    start_time: v("start_time"),
    end_time: v("end_time"),
    until: ends === "on" ? v("until") || "" : undefined,
    count: ends === "after" ? v("count") || "" : undefined,
    notes: v("notes") || undefined,
  };
}

/** What the form showed, to show it again with the errors. */
export function seriesValues(form: FormData, firstName: "starts_on" | "from"): SeriesValues {
  const v = (k: string) => String(form.get(k) ?? "");
  const ends = v("ends");
  return { days: form.getAll("days").map(String), start_time: v("start_time"), end_time: v("end_time"), first: v(firstName), ends: ends === "on" || ends === "after" ? ends : "never", until: v("until"), count: v("count"), notes: v("notes") };
}
