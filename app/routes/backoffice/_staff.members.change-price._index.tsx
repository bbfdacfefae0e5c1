import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../../domain/billing";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { bulkPriceChangeConfirm } from "../../../domain/schemas/bulk-price-change";
import { MEMBER_STATUS_FILTERS } from "../../../domain/member-list";
import { STATE_LABELS } from "../../../domain/subscription";
import { Field, FieldErrors, FormErrors } from "../../components/field";
import { CheckboxField, SelectField } from "../../components/form-controls";
import { orRefusal } from "../../features/members/member-route.server";
import { ConfirmStep, EffectRow, EmailPreview, PreviewButton } from "../../features/membership/action-page";
import { previewOrConfirm } from "../../features/membership/membership-route.server";
import { gymApi } from "../../lib/api.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Change prices in bulk · Gym Membership" }];

const STATUS_LABELS: Record<(typeof MEMBER_STATUS_FILTERS)[number], string> = { ...STATE_LABELS, none: "No membership" };
/** The form's fields a link (from a report's "run it again") may fill in. */
const PREFILL = ["to_price_id", "from", "date", "gym", "status", "tag", "q"] as const;

/**
 * /members/change-price: move every member on some prices to another, from a day or each one's period end. The
 * members are chosen with the /members filters; the preview shows how many, the first ten and the e-mail; confirming
 * starts a background job and goes to its progress page (/members/change-price/{id}).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const [me, offerings, recent] = await orRefusal(args.request, Promise.all([api.get("/me"), api.get("/offerings"), api.get("/members/change-price")]));
  if (!me.permissions.includes("subscriptions.write")) throw new Response("Only admins can change a membership.", { status: 403 });
  const label = (o: { name: string }, p: { amount: number; billing_frequency: string; term: string | null; archived_at: string | null }) =>
    `${o.name}: ${formatCents(p.amount)} ${FREQUENCY_LABELS[p.billing_frequency as BillingFrequency].toLowerCase()}${p.term ? ` (${p.term})` : ""}${
      p.archived_at ? " · archived" : ""
    }`;
  // Recurring prices: paid in full is sold on its own. Members on a term price may move off it, but a term is a new
  // membership, not something to move onto.
  const recurring = offerings.data.flatMap((o) =>
    o.prices
      .filter((p) => p.billing_frequency !== "one_off")
      .map((p) => ({ id: p.id, label: label(o, p), archived: Boolean(p.archived_at || o.archived_at), term: Boolean(p.term) })),
  );
  const url = new URL(args.request.url).searchParams;
  const prefill = Object.fromEntries(PREFILL.flatMap((k) => (url.get(k) ? [[k, url.get(k)!]] : [])));
  return withDateTexts({
    from: recurring,
    to: recurring.filter((p) => !p.archived && !p.term),
    recent,
    prefill: { ...prefill, from_price_ids: url.getAll("from_price_ids") },
    key: crypto.randomUUID().replace(/-/g, ""),
  });
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  return previewOrConfirm(args, bulkPriceChangeConfirm, api, {
    to: (applied) => `/members/change-price/${(applied as { id: number }).id}`,
    preview: (a, values) => a.post("/members/change-price/preview", { body: values }),
    apply: (a, values) => a.post("/members/change-price", { body: values }),
    done: () => ({ summary: "Price change started", detail: "The members are being moved: this page shows how far it has got." }),
  });
}

export default function BulkPriceChange() {
  const dates = useDates();
  const { from, to, recent, prefill, key } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "bulk-price-change",
    lastResult: answer?.result,
    constraint: getZodConstraint(bulkPriceChangeConfirm),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bulkPriceChangeConfirm }),
    defaultValue: { from: "period_end", notify: "on", ...prefill } as Record<string, unknown> as Record<string, string>,
  });
  const preview = answer?.preview;
  const sent = answer?.result?.initialValue as Record<string, unknown> | undefined;
  const sentKey = (sent?.key as string | undefined) ?? key;
  const checked = new Set([(sent ? sent.from_price_ids : prefill.from_price_ids) ?? []].flat().map(String));
  const period = (fields.from.value as string | undefined) ?? "period_end";
  const isAdmin = Boolean(staff?.me.is_organisation_admin);
  const prices = to.map((p) => ({ value: String(p.id), label: p.label }));
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">Change prices in bulk</span>
      </nav>
      <h1 className="text-2xl font-semibold">Change prices in bulk</h1>
      <p className="text-sm text-slate-700">
        Move the members on some prices to another. Each is moved as from their own page: the same checks, a line in their history, and the e-mail if you
        choose. Members it cannot move are listed with the reason.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-6 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="key" value={sentKey} />
        <fieldset aria-describedby={fields.from_price_ids.errors?.length ? fields.from_price_ids.errorId : undefined}>
          <legend className="text-sm font-semibold text-slate-900">Move the members on</legend>
          <div className="mt-2 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            {from.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="from_price_ids"
                  value={p.id}
                  defaultChecked={checked.has(String(p.id))}
                  className="h-4 w-4 rounded border-slate-300 text-brand-600"
                />
                {p.label}
              </label>
            ))}
          </div>
          <FieldErrors id={fields.from_price_ids.errorId} errors={fields.from_price_ids.errors} />
        </fieldset>
        <SelectField field={fields.to_price_id} label="To the price" placeholder="Choose a price" options={prices} />
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">From</legend>
          <div className="mt-2 space-y-2 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name="from" value="period_end" defaultChecked={period === "period_end"} className="h-4 w-4 border-slate-300 text-brand-600" />
              The end of each member&apos;s paid period
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="from" value="date" defaultChecked={period === "date"} className="h-4 w-4 border-slate-300 text-brand-600" />A day I
              choose
            </label>
          </div>
          <FieldErrors id={fields.from.errorId} errors={fields.from.errors} />
        </fieldset>
        <Field field={fields.date} label="The day (when you chose one)" inputProps={{ type: "date" } as object} />
        <fieldset className="rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-900">Which members (as on the members list)</legend>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <SelectField
              field={fields.gym}
              label="Gym"
              placeholder={staff?.me.current_gym ? `Current gym (${staff.me.current_gym.name})` : "Current gym"}
              options={[
                ...(isAdmin ? [{ value: "all", label: "Every gym" }] : []),
                ...(staff?.me.gyms ?? []).map((g) => ({ value: String(g.id), label: g.name })),
              ]}
            />
            <SelectField
              field={fields.status}
              label="Status"
              placeholder="Any status"
              options={MEMBER_STATUS_FILTERS.filter((s) => s !== "none").map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            />
            <Field field={fields.tag} label="Tag (optional)" />
            <Field field={fields.q} label="Name, e-mail or mobile (optional)" />
          </div>
        </fieldset>
        <div className="space-y-2">
          <CheckboxField field={fields.notify} label="E-mail each member about their change" />
          <CheckboxField field={fields.replace_scheduled} label="Replace changes already scheduled (otherwise those members are skipped)" />
        </div>
        <PreviewButton pending={pending}>Preview the members and the e-mail</PreviewButton>
        {preview && answer?.previewed ? (
          <ConfirmStep
            previewed={answer.previewed}
            confirm={`Change ${preview.count.toLocaleString("en-NZ")} member${preview.count === 1 ? "" : "s"}`}
            pending={pending}
          >
            <EffectRow label="Members" after={`${preview.count.toLocaleString("en-NZ")} on the chosen prices match the filters`} />
            {preview.sample.length ? (
              <div className="py-2 text-sm">
                <dt className="text-slate-600">The first {preview.sample.length}</dt>
                <dd className="mt-1 overflow-x-auto">
                  <table className="min-w-full text-left">
                    <thead className="text-xs text-slate-600">
                      <tr>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Member
                        </th>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Now
                        </th>
                        <th scope="col" className="py-1 font-medium">
                          Change
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {preview.sample.map((s) => (
                        <tr key={s.member.id}>
                          <td className="py-1 pr-3">{s.member.name}</td>
                          <td className="py-1 pr-3">{formatCents(s.from_amount)}</td>
                          <td className="py-1">
                            {s.skip ? (
                              <span className="text-amber-800">Skipped: {s.skip}</span>
                            ) : (
                              `${formatCents(s.to_amount!)} from ${formatDay(s.takes_effect!)}`
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </dd>
              </div>
            ) : null}
            {preview.email ? <EmailPreview title="The e-mail, as the first member gets it" email={preview.email} sent={Boolean(fields.notify.value)} /> : null}
          </ConfirmStep>
        ) : null}
      </Form>
      {recent.length ? (
        <section aria-labelledby="recent-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="recent-heading" className="font-semibold">
            Recent bulk changes
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {recent.map((r) => (
              <li key={r.id} className="flex flex-wrap justify-between gap-2 py-2">
                <Link to={`/members/change-price/${r.id}`} className="text-brand-700 underline">
                  {r.total.toLocaleString("en-NZ")} member{r.total === 1 ? "" : "s"} · {dates.date(r.created_at)}
                </Link>
                <span className="text-slate-600">
                  {r.status === "done" ? "Done" : r.status === "running" ? "Running" : "Waiting to start"}
                  {r.requested_by ? ` · by ${r.requested_by}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
