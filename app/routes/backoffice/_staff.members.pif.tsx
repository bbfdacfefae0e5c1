import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { PIF_PAYMENT_METHODS } from "../../../domain/payment";
import { onboardPifRequest } from "../../../domain/schemas/subscriptions";
import { Field, FieldErrors, FormErrors } from "../../components/field";
import { SelectField } from "../../components/form-controls";
import { ConfirmStep, EffectRow, PreviewButton } from "../../features/membership/action-page";
import { previewOrConfirm } from "../../features/membership/membership-route.server";
import { gymApi } from "../../lib/api.server";
import { orRefusal } from "../../features/members/member-route.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "New paid-in-full member · Gym Membership" }];

const METHOD_LABELS = { eftpos: "EFTPOS at the desk", cash: "Cash", bank_transfer: "Bank transfer (marked received when it arrives)" } as const;

/**
 * /members/pif: a new member who paid in full at the desk (POST /api/organisations/{id}/members/onboard-pif). They
 * are e-mailed an invitation to set a password; it can be sent again from their page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const [me, offerings] = await orRefusal(args.request, Promise.all([api.get("/me"), api.get("/offerings")]));
  if (!me.permissions.includes("subscriptions.write") || !me.permissions.includes("money.write"))
    throw new Response("Only admins can sell a membership.", { status: 403 });
  const options = offerings.data
    .filter((o) => !o.archived_at)
    .flatMap((o) => o.prices.filter((p) => p.billing_frequency === "one_off" && !p.archived_at).map((p) => ({ value: String(p.id), label: `${o.name}: ${formatCents(p.amount)}${p.term ? ` (${p.term})` : ""}` })));
  return withDateTexts({ organisationId: me.current_organisation!.id, options, key: crypto.randomUUID().replace(/-/g, ""), today: localDay(new Date()) });
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const me = await orRefusal(args.request, api.get("/me"));
  const organisation = me.current_organisation!.id;
  return previewOrConfirm(args, onboardPifRequest, api, {
    to: (applied) => `/members/${(applied as { user_id: number }).user_id}`,
    preview: (a, values) =>
      a
        .post("/organisations/:id/members/onboard-pif", { params: { id: organisation }, body: { ...values, preview: true } })
        .then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/organisations/:id/members/onboard-pif", { params: { id: organisation }, body: values }),
    done: (values) => ({ summary: "Member added", detail: `${values.name} was e-mailed an invitation to set a password.` }),
  });
}

export default function NewPifMember() {
  const { options, key, today } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "onboard-pif",
    lastResult: answer?.result,
    constraint: getZodConstraint(onboardPifRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: onboardPifRequest }),
    defaultValue: { start: today, method: "eftpos", gym_id: staff?.me.current_gym ? String(staff.me.current_gym.id) : undefined },
  });
  const preview = answer?.preview;
  const method = (fields.method.value as string | undefined) ?? "eftpos";
  const sentKey = (answer?.result?.initialValue as { key?: string } | undefined)?.key ?? key;
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">New paid-in-full member</span>
      </nav>
      <h1 className="text-2xl font-semibold">New paid-in-full member</h1>
      <p className="text-sm text-slate-700">
        For someone who paid for their whole membership at the desk. They are e-mailed an invitation to set a password and sign in.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="key" value={sentKey} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field field={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
          <Field field={fields.email} label="E-mail" type="email" inputProps={{ autoComplete: "off" }} />
          <Field field={fields.mobile_number} label="Mobile (optional)" type="tel" />
          <SelectField
            field={fields.gym_id}
            label="Home gym"
            placeholder="Choose a gym"
            options={(staff?.me.gyms ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          />
        </div>
        {options.length ? (
          <SelectField field={fields.price_id} label="Paid-in-full price" placeholder="Choose a price" options={options} />
        ) : (
          <p className="text-sm text-slate-700">No paid-in-full price is on sale.</p>
        )}
        <Field field={fields.start} label="Starts" inputProps={{ type: "date" } as object} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Paid by</legend>
          <div className="mt-2 space-y-2 text-sm">
            {PIF_PAYMENT_METHODS.map((m) => (
              <label key={m} className="flex items-center gap-2">
                <input type="radio" name="method" value={m} defaultChecked={method === m} className="h-4 w-4 border-slate-300 text-brand-600" />
                {METHOD_LABELS[m]}
              </label>
            ))}
          </div>
          <FieldErrors id={fields.method.errorId} errors={fields.method.errors} />
        </fieldset>
        <PreviewButton pending={pending} />
        {preview && answer?.previewed ? (
          <ConfirmStep previewed={answer.previewed} confirm={`Add the member: ${formatCents(preview.amount)} paid`} pending={pending}>
            <EffectRow label="Member" after={`${preview.member.name} <${preview.member.email}>, at ${preview.gym}`} />
            <EffectRow
              label="Membership"
              after={`${preview.price.offering}, from ${formatDay(preview.start)}${preview.ends ? ` until ${formatDay(preview.ends)}` : " with no end"}`}
            />
            <EffectRow
              label="Paid"
              after={`${formatCents(preview.amount)}${preview.joiningFee ? ` (with the ${formatCents(preview.joiningFee)} joining fee)` : ""}`}
            />
            <EffectRow label="Then" after="They are e-mailed an invitation to set a password (the link works for seven days)" />
          </ConfirmStep>
        ) : null}
      </Form>
    </div>
  );
}
