import { Form } from "@remix-run/react";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../../domain/billing";
import { formatCents } from "../../../domain/money";
import { perFrequency } from "../../../domain/offering";
import { FieldError } from "../calendar/field-error";
import { COLOUR_CHOICES } from "./colours";
import { FormMessage, Input, Select, type Errors } from "./inputs";

/**
 * A class type's form (issue 34), new or changed: name, description, length, usual places and waitlist, colour, a
 * drop-in price in dollars (empty: members whose membership includes it only) and which offerings or single prices
 * include it. Posts without JavaScript.
 */
export type Choices = { id: number; name: string; prices: { id: number; amount: number; billing_frequency: string }[] }[];
export type ClassTypeValues = Record<string, string | string[]>;

export const typeValues = (t: {
  name: string;
  description: string | null;
  duration_minutes: number;
  default_capacity: number;
  default_waitlist: number;
  colour: string;
  drop_in_amount: number | null;
  offering_ids: number[];
  price_ids: number[];
}): ClassTypeValues => ({
  name: t.name,
  description: t.description ?? "",
  duration_minutes: String(t.duration_minutes),
  default_capacity: String(t.default_capacity),
  default_waitlist: String(t.default_waitlist),
  colour: t.colour,
  drop_in: t.drop_in_amount ? (t.drop_in_amount / 100).toFixed(2) : "",
  offering_ids: t.offering_ids.map(String),
  price_ids: t.price_ids.map(String),
});
export const NEW_TYPE: ClassTypeValues = {
  name: "",
  description: "",
  duration_minutes: "45",
  default_capacity: "12",
  default_waitlist: "0",
  colour: "#2563eb",
  drop_in: "",
  offering_ids: [],
  price_ids: [],
};

const FIELDS = [
  "name",
  "description",
  "duration_minutes",
  "default_capacity",
  "default_waitlist",
  "colour",
  "drop_in",
  "drop_in_amount",
  "offering_ids",
  "price_ids",
];
const str = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] ?? "" : v ?? "");
const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []);

export function ClassTypeForm({
  values,
  choices,
  result,
  submit,
}: {
  values: ClassTypeValues;
  choices: Choices;
  result?: { message: string; errors: Record<string, string[]> } | null;
  submit: string;
}) {
  const errors: Errors = result ? { ...result.errors, drop_in: result.errors.drop_in ?? result.errors.drop_in_amount ?? [] } : undefined;
  if (errors && !errors.drop_in?.length) delete errors.drop_in;
  const offerings = list(values.offering_ids);
  const prices = list(values.price_ids);
  return (
    <Form method="post" className="space-y-4" noValidate>
      <FormMessage result={result} fields={FIELDS} />
      <Input name="name" label="Name" value={str(values.name)} errors={errors} />
      <div className="space-y-1">
        <label htmlFor="description" className="block text-sm font-medium text-slate-800">
          Description <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <textarea
          id="description"
          name="description"
          rows={3}
          defaultValue={str(values.description)}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
        <FieldError errors={errors} name="description" />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Input name="duration_minutes" label="Length (minutes)" type="number" min={5} value={str(values.duration_minutes)} errors={errors} />
        <Input name="default_capacity" label="Places" type="number" min={1} value={str(values.default_capacity)} errors={errors} />
        <Input name="default_waitlist" label="Waitlist places" type="number" min={0} value={str(values.default_waitlist)} errors={errors} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Select name="colour" label="Colour" value={str(values.colour) || "#2563eb"} errors={errors} options={COLOUR_CHOICES} />
        <Input
          name="drop_in"
          label="Drop-in price ($)"
          value={str(values.drop_in)}
          errors={errors}
          hint="Empty: only members whose membership includes it may book."
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Included in these memberships</legend>
        {choices.length ? (
          <ul className="space-y-2">
            {choices.map((o) => (
              <li key={o.id} className="rounded-md border border-slate-200 p-2">
                <label htmlFor={`offering-${o.id}`} className="inline-flex items-center gap-2 text-sm font-medium">
                  <input id={`offering-${o.id}`} type="checkbox" name="offering_ids" value={o.id} defaultChecked={offerings.includes(String(o.id))} />
                  {o.name} <span className="font-normal text-slate-600">(every price)</span>
                </label>
                {o.prices.length > 1 ? (
                  <div className="mt-1 flex flex-wrap gap-3 pl-6">
                    {o.prices.map((p) => (
                      <label key={p.id} htmlFor={`price-${p.id}`} className="inline-flex items-center gap-1 text-sm text-slate-700">
                        <input id={`price-${p.id}`} type="checkbox" name="price_ids" value={p.id} defaultChecked={prices.includes(String(p.id))} />
                        only {formatCents(p.amount)}{" "}
                        {p.billing_frequency in FREQUENCY_LABELS ? perFrequency(p.billing_frequency as BillingFrequency) : p.billing_frequency}
                      </label>
                    ))}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No offerings yet: members book it as a drop-in only.</p>
        )}
        <FieldError errors={errors} name="offering_ids" />
        <FieldError errors={errors} name="price_ids" />
      </fieldset>
      <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
        {submit}
      </button>
    </Form>
  );
}
