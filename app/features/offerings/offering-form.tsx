import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type Submission, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FREQUENCY_LABELS, TERM_UNITS, type BillingFrequency } from "../../../domain/billing";
import { DAY_NAMES, OFFERING_TYPE_LABELS, type OfferingType } from "../../../domain/offering";
import { offeringForm, offeringFormFields } from "../../../domain/schemas/offerings";
import { Field, FieldErrors, FormErrors, SubmitButton } from "../../components/field";
import { CheckboxField, TextAreaField } from "../../components/form-controls";
import { controlClass } from "../../components/control-class";
import type { FormOptions, OfferingDetail } from "./types";

const dollars = (cents: number) => (cents / 100).toFixed(2);
const TERM_UNIT_LABELS: Record<(typeof TERM_UNITS)[number], string> = { day: "Days", week: "Weeks", month: "Months", year: "Years" };

type PriceFields = { id: string; amount: string; billing_frequency: string; joining_fee: string; term_amount: string; term_unit: string; private: string };
type HourFields = { day: string; open_at: string; close_at: string };
/** The form as the browser holds it: every value a string. */
type OfferingFields = {
  name: string;
  description: string;
  type: string;
  all_gyms_access: string;
  gyms: string[];
  mandated: string;
  hours_mandated: string;
  prices_mandated: string;
  hours: HourFields[];
  prices: Partial<PriceFields>[];
};

/** What the form starts with: an existing offering's values (its live prices), or a new one's. */
function startingValues(offering: OfferingDetail | null, options: FormOptions): Partial<OfferingFields> {
  if (!offering)
    return {
      type: options.types.length === 1 ? options.types[0] : undefined,
      all_gyms_access: options.may_sell_everywhere ? "on" : undefined,
      gyms: options.gyms.length === 1 ? [String(options.gyms[0].id)] : [],
      hours: [],
      prices: [{ amount: "", billing_frequency: "" }],
    };
  return {
    name: offering.name,
    description: offering.description ?? undefined,
    type: offering.type,
    all_gyms_access: offering.all_gyms_access ? "on" : undefined,
    gyms: offering.all_gyms_access ? [] : offering.gyms.map((g) => String(g.id)),
    mandated: offering.mandated ? "on" : undefined,
    hours_mandated: offering.hours_mandated ? "on" : undefined,
    prices_mandated: offering.prices_mandated ? "on" : undefined,
    hours: offering.hours.map((h) => ({ day: String(h.day), open_at: h.open_at, close_at: h.close_at })),
    prices: offering.prices
      .filter((p) => !p.archived_at)
      .map((p) => ({
        id: String(p.id),
        amount: dollars(p.amount),
        billing_frequency: p.billing_frequency,
        joining_fee: p.joining_fee ? dollars(p.joining_fee) : undefined,
        term_amount: p.term_amount ? String(p.term_amount) : undefined,
        term_unit: p.term_unit ?? undefined,
        private: p.private ? "on" : undefined,
      })),
  };
}

/**
 * The offering form (/offerings/create and /offerings/{id}/edit). Hours and prices are lists that grow: "Add a day",
 * "Add a price" and "Remove" are submit buttons carrying conform's intent, so without JavaScript the server answers
 * the form with the row added or removed and every value kept; with it, conform does the same in place. The first
 * field in error takes the focus and is scrolled to (autoFocus from the server, an effect after a fetch).
 */
export function OfferingForm({ offering, options, lastResult, pending }: { offering: OfferingDetail | null; options: FormOptions; lastResult: SubmissionResult<string[]> | undefined; pending: boolean }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm<OfferingFields>({
    lastResult,
    constraint: getZodConstraint(offeringFormFields),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // The schema's output is the API's (cents, numbers); the form's fields are the strings typed.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: offeringForm }) as unknown as Submission<OfferingFields, string[]>,
    defaultValue: startingValues(offering, options),
  });
  useEffect(() => {
    if (!lastResult?.error) return;
    const first = formRef.current?.querySelector<HTMLElement>("[aria-invalid='true'], [data-error-anchor='true']");
    first?.scrollIntoView({ block: "center" });
    first?.focus();
  }, [lastResult]);
  const firstError = lastResult?.error ? Object.keys(lastResult.error).find((k) => lastResult.error?.[k]?.length) : undefined;
  const focus = (name: string) => (firstError === name ? { autoFocus: true } : {});

  const may = offering?.may ?? { change: true, hours: true, prices: true, mandate: options.may_mandate };
  const types: OfferingType[] = [...options.types];
  if (offering && !types.includes(offering.type)) types.push(offering.type);
  const hours = fields.hours.getFieldList();
  const prices = fields.prices.getFieldList();
  const existing = new Map((offering?.prices ?? []).map((p) => [String(p.id), p]));
  const type = fields.type.value as OfferingType | undefined;
  const allGyms = fields.all_gyms_access.value === "on";
  const chosenGyms = new Set([fields.gyms.value ?? []].flat().map(String));

  return (
    <Form method="post" {...getFormProps(form)} ref={formRef} className="space-y-6" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 font-semibold">Offering</legend>
        <Field field={fields.name} label="Name" inputProps={{ autoComplete: "off", ...focus("name") }} />
        <fieldset className="space-y-1" aria-describedby={fields.type.errors?.length ? fields.type.errorId : undefined}>
          <legend className="text-sm font-medium text-slate-800">Type</legend>
          <div className="flex flex-wrap gap-4 pt-1">
            {types.map((t, i) => (
              <label key={t} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={fields.type.name}
                  value={t}
                  defaultChecked={fields.type.initialValue === t}
                  aria-invalid={fields.type.errors?.length ? true : undefined}
                  {...(i === 0 ? focus("type") : {})}
                  className="h-4 w-4 border-slate-300 text-brand-600"
                />
                {OFFERING_TYPE_LABELS[t]}
              </label>
            ))}
            {types.length === 0 ? <p className="text-sm text-slate-600">No offering types are switched on. An organisation admin can switch them on in Settings.</p> : null}
          </div>
          <FieldErrors id={fields.type.errorId} errors={fields.type.errors} />
        </fieldset>
        <div className="sm:col-span-2">
          <TextAreaField field={fields.description} label="Description" rows={3} />
        </div>
      </fieldset>

      <fieldset className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold">Gyms</legend>
        {options.may_sell_everywhere ? <CheckboxField field={fields.all_gyms_access} label="Open to all gyms, including gyms added later" /> : null}
        <div className={`grid grid-cols-1 gap-2 sm:grid-cols-3 ${allGyms ? "opacity-60" : ""}`} aria-describedby={fields.gyms.errors?.length ? fields.gyms.errorId : undefined}>
          {options.gyms.map((g, i) => (
            <label key={g.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={fields.gyms.name}
                value={String(g.id)}
                defaultChecked={chosenGyms.has(String(g.id))}
                aria-invalid={fields.gyms.errors?.length ? true : undefined}
                {...(i === 0 ? focus("gyms") : {})}
                className="h-4 w-4 rounded border-slate-300 text-brand-600"
              />
              {g.name}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.gyms.errorId} errors={fields.gyms.errors} />
      </fieldset>

      {may.mandate ? (
        <fieldset className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
          <legend className="px-1 font-semibold">Set by the organisation</legend>
          <p className="text-sm text-slate-600">Gym admins cannot change what is set here.</p>
          <CheckboxField field={fields.mandated} label="The offering itself" />
          <CheckboxField field={fields.hours_mandated} label="Its opening hours (a Limited Hours offering then needs at least one day)" />
          <CheckboxField field={fields.prices_mandated} label="Its prices" />
        </fieldset>
      ) : null}

      <fieldset className={`space-y-3 rounded-lg border border-slate-200 bg-white p-4 ${type === "24_7" ? "hidden" : ""}`}>
        <legend className="px-1 font-semibold">Opening hours</legend>
        <p className="text-sm text-slate-600">For Limited Hours offerings: the days and times members may come in. A day can have more than one row.</p>
        {!may.hours ? <p className="text-sm text-amber-800">The organisation sets these hours: you cannot change them.</p> : null}
        {hours.map((h, i) => {
          const hf = h.getFieldset();
          return (
            <div key={h.key} className="grid grid-cols-1 items-end gap-3 rounded-md border border-slate-100 p-3 sm:grid-cols-4">
              <div className="space-y-1">
                <label htmlFor={hf.day.id} className="block text-sm font-medium text-slate-800">
                  Day
                </label>
                <select {...getSelectProps(hf.day)} key={hf.day.key} aria-invalid={hf.day.errors?.length ? true : undefined} aria-describedby={hf.day.errors?.length ? hf.day.errorId : undefined} className={controlClass(Boolean(hf.day.errors?.length))} {...focus(hf.day.name)}>
                  <option value="">Choose a day</option>
                  {DAY_NAMES.map((d, n) => (
                    <option key={d} value={String(n + 1)}>
                      {d}
                    </option>
                  ))}
                </select>
                <FieldErrors id={hf.day.errorId} errors={hf.day.errors} />
              </div>
              <Field field={hf.open_at} label="Opens" inputProps={{ type: "time", ...focus(hf.open_at.name) } as object} />
              <Field field={hf.close_at} label="Closes" inputProps={{ type: "time", ...focus(hf.close_at.name) } as object} />
              <div className="pb-5">
                <button {...form.remove.getButtonProps({ name: fields.hours.name, index: i })} className="text-sm font-medium text-red-700 hover:underline" disabled={!may.hours}>
                  Remove {DAY_NAMES[Number(hf.day.value) - 1] ?? "this day"}
                </button>
              </div>
            </div>
          );
        })}
        <FieldErrors id={fields.hours.errorId} errors={fields.hours.errors} />
        <button
          {...form.insert.getButtonProps({ name: fields.hours.name, defaultValue: { day: "", open_at: "06:00", close_at: "21:00" } })}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          data-error-anchor={fields.hours.errors?.length ? "true" : undefined}
          aria-describedby={fields.hours.errors?.length ? fields.hours.errorId : undefined}
          disabled={!may.hours}
          {...focus("hours")}
        >
          Add a day
        </button>
      </fieldset>

      <fieldset className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold">Prices</legend>
        {!may.prices ? <p className="text-sm text-amber-800">The organisation sets these prices: you cannot change them.</p> : null}
        {prices.map((p, i) => (
          <PriceRow key={p.key} field={p} index={i} existing={existing.get(String(p.getFieldset().id.initialValue ?? ""))} frequencies={options.frequencies} focus={focus} removeButton={form.remove.getButtonProps({ name: fields.prices.name, index: i })} />
        ))}
        <FieldErrors id={fields.prices.errorId} errors={fields.prices.errors} />
        <button
          {...form.insert.getButtonProps({ name: fields.prices.name, defaultValue: { amount: "", billing_frequency: "" } })}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          disabled={!may.prices}
        >
          Add a price
        </button>
      </fieldset>

      <div className="flex items-center gap-4">
        <div className="w-40">
          <SubmitButton pending={pending}>{offering ? "Save" : "Create offering"}</SubmitButton>
        </div>
        <Link to={offering ? `/offerings/${offering.id}` : "/offerings"} className="text-sm font-medium text-brand-700 hover:underline">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

/** One price of the form. A price members pay keeps its amount, frequency and term (the bulk price change moves them). */
function PriceRow({
  field,
  index,
  existing,
  frequencies,
  focus,
  removeButton,
}: {
  field: FieldMetadata<Partial<PriceFields>, OfferingFields, string[]>;
  index: number;
  existing: OfferingDetail["prices"][number] | undefined;
  frequencies: BillingFrequency[];
  focus: (name: string) => { autoFocus?: boolean };
  removeButton: React.ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  const f = field.getFieldset();
  const locked = Boolean(existing && existing.subscriptions_count > 0);
  const offered = [...frequencies];
  if (existing && !offered.includes(existing.billing_frequency)) offered.push(existing.billing_frequency);
  const lockedProps = locked ? { readOnly: true, "aria-readonly": true } : {};
  return (
    <div className="space-y-2 rounded-md border border-slate-100 p-3">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-800">{existing ? `Price ${index + 1}` : `New price ${index + 1}`}</h3>
        {existing ? (
          <span className="text-xs text-slate-600">{existing.subscriptions_count === 1 ? "1 member pays this" : `${existing.subscriptions_count} members pay this`}</span>
        ) : (
          <button {...removeButton} className="text-sm font-medium text-red-700 hover:underline">
            Remove this price
          </button>
        )}
      </div>
      {existing ? <input type="hidden" name={f.id.name} value={String(existing.id)} /> : null}
      {locked ? (
        <p className="text-sm text-amber-800">
          Members pay this price, so its amount, frequency and term stay as they are. To charge them a new amount, add a new price and use the{" "}
          <Link to="/members/change-price" className="font-medium underline">
            bulk price change
          </Link>
          .
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Field field={f.amount} label="Amount ($)" hint="Each charge, such as 19.99" inputProps={{ inputMode: "decimal", ...lockedProps, ...focus(f.amount.name) }} />
        <div className="space-y-1">
          <label htmlFor={f.billing_frequency.id} className="block text-sm font-medium text-slate-800">
            Billing frequency
          </label>
          {locked ? (
            <>
              <input type="hidden" name={f.billing_frequency.name} value={existing!.billing_frequency} />
              <p id={f.billing_frequency.id} className="py-2 text-sm">
                {FREQUENCY_LABELS[existing!.billing_frequency]}
              </p>
            </>
          ) : (
            <select
              {...getSelectProps(f.billing_frequency)}
              key={f.billing_frequency.key}
              aria-invalid={f.billing_frequency.errors?.length ? true : undefined}
              aria-describedby={f.billing_frequency.errors?.length ? f.billing_frequency.errorId : undefined}
              className={controlClass(Boolean(f.billing_frequency.errors?.length))}
              {...focus(f.billing_frequency.name)}
            >
              <option value="">Choose how often</option>
              {offered.map((fr) => (
                <option key={fr} value={fr}>
                  {FREQUENCY_LABELS[fr]}
                </option>
              ))}
            </select>
          )}
          <FieldErrors id={f.billing_frequency.errorId} errors={f.billing_frequency.errors} />
        </div>
        <Field field={f.joining_fee} label="Joining fee ($)" hint="Charged with the first payment; leave empty for none" inputProps={{ inputMode: "decimal", ...focus(f.joining_fee.name) }} />
        <Field field={f.term_amount} label="Term length" hint="A minimum term, such as 12 (months)" inputProps={{ inputMode: "numeric", ...lockedProps, ...focus(f.term_amount.name) }} />
        <div className="space-y-1">
          <label htmlFor={f.term_unit.id} className="block text-sm font-medium text-slate-800">
            Term unit
          </label>
          {locked ? (
            <>
              <input type="hidden" name={f.term_unit.name} value={existing!.term_unit ?? ""} />
              <p id={f.term_unit.id} className="py-2 text-sm">
                {existing!.term_unit ? TERM_UNIT_LABELS[existing!.term_unit] : "No term"}
              </p>
            </>
          ) : (
            <select
              {...getSelectProps(f.term_unit)}
              key={f.term_unit.key}
              aria-invalid={f.term_unit.errors?.length ? true : undefined}
              aria-describedby={f.term_unit.errors?.length ? f.term_unit.errorId : undefined}
              className={controlClass(Boolean(f.term_unit.errors?.length))}
              {...focus(f.term_unit.name)}
            >
              <option value="">No term</option>
              {TERM_UNITS.map((u) => (
                <option key={u} value={u}>
                  {TERM_UNIT_LABELS[u]}
                </option>
              ))}
            </select>
          )}
          <FieldErrors id={f.term_unit.errorId} errors={f.term_unit.errors} />
        </div>
        <div className="flex items-center gap-2 pt-6">
          <input {...getInputProps(f.private, { type: "checkbox" })} key={f.private.key} className="h-4 w-4 rounded border-slate-300 text-brand-600" />
          <label htmlFor={f.private.id} className="text-sm text-slate-800">
            Private: only through a link
          </label>
        </div>
      </div>
    </div>
  );
}
