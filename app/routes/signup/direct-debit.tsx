import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import { SubmitButton } from "../../components/field";
import { StepFrame } from "../../features/signup/step-frame";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { offeredMethod } from "../../features/signup/provider-step.server";
import { paymentJourney } from "../../features/signup/payment-journey";

export const meta: MetaFunction = () => [{ title: "Direct debit · Gym Membership" }];

/**
 * Direct debit (issue 13): the member gives the account (checked here for format and checksum before anything is
 * sent), confirms the authority on the provider's page (GoCardless), and comes back here with its billing request
 * (?billing_request=…), which makes the mandate their payment method.
 */
export async function loader(args: LoaderFunctionArgs) {
  const back = new URL(args.request.url).searchParams.get("billing_request");
  if (back) return mandateReturned(args, back);
  const { me, signup, journey } = await offeredMethod(args, "gocardless_bank_account", { summary: "Direct debit is not offered here", takes: "direct debits" });
  return { gym: signup.gym.name, holder: me.name, nonce: randomBytes(12).toString("base64url"), journey };
}

/** Back from the provider's page: the mandate becomes the member's payment method, and on to confirming (or back to how a joined member pays). */
async function mandateReturned(args: LoaderFunctionArgs, billingRequest: string): Promise<never> {
  const { me, api } = await requireSignupStep(args);
  const journey = paymentJourney(me);
  let saved;
  try {
    saved = await api.post("/gocardless/sync-payment-method", { body: { billing_request: billingRequest } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401 && err.error !== "not_two_factor_authenticated") {
      throw await redirectWithToast(journey.choose, { severity: "error", summary: "Direct debit not set up", detail: err.message, life: 10_000 }, api.headers);
    }
    redirectForApiError(args.request, err);
  }
  throw await redirectWithToast(journey.done, { summary: "Direct debit set up", detail: `From ${saved.account_number}.` }, api.headers);
}

export async function action(args: ActionFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const form = await readForm(args.request);
  const values = {
    account_holder: String(form.get("account_holder") ?? ""),
    account_number: String(form.get("account_number") ?? ""),
    nonce: String(form.get("nonce") ?? ""),
  };
  try {
    const flow = await api.get("/gocardless/mandate-url", { query: values });
    return redirect(flow.url, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return data({ errors: err.errors ?? {}, values }, { status: 422 });
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) {
      return redirectWithToast(paymentJourney(me).choose, { severity: "error", summary: "Direct debit could not be started", detail: err.message });
    }
    if (err instanceof ApiRequestError)
      return data({ errors: { form: ["The direct debit provider did not answer. Try again in a moment."] }, values }, { status: 503 });
    redirectForApiError(args.request, err);
  }
}

export default function DirectDebit() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string[] | undefined> = answer?.errors ?? {};
  const input = (invalid: boolean) =>
    `block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-100 ${
      invalid ? "border-red-500" : "border-slate-300"
    }`;
  return (
    <StepFrame
      step={page.journey.step}
      title="Pay by direct debit"
      intro={`${page.gym}'s payments are taken from your bank account by direct debit through GoCardless.`}
    >
      <Form method="post" className="space-y-4" aria-label="Your bank account">
        {errors.form ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {errors.form[0]}
          </p>
        ) : null}
        <input type="hidden" name="nonce" value={page.nonce} />
        <div className="space-y-1">
          <label htmlFor="account_holder" className="block text-sm font-medium text-slate-800">
            Name on the account
          </label>
          <input
            id="account_holder"
            name="account_holder"
            autoComplete="name"
            required
            defaultValue={answer?.values.account_holder ?? page.holder}
            aria-invalid={errors.account_holder ? true : undefined}
            aria-describedby={errors.account_holder ? "account_holder-error" : undefined}
            className={input(Boolean(errors.account_holder))}
          />
          {errors.account_holder ? (
            <p id="account_holder-error" className="text-sm text-red-700">
              {errors.account_holder[0]}
            </p>
          ) : null}
        </div>
        <div className="space-y-1">
          <label htmlFor="account_number" className="block text-sm font-medium text-slate-800">
            Account number
          </label>
          <input
            id="account_number"
            name="account_number"
            inputMode="numeric"
            required
            placeholder="12-3140-0171323-50"
            defaultValue={answer?.values.account_number}
            aria-invalid={errors.account_number ? true : undefined}
            aria-describedby={["account_number-hint", errors.account_number ? "account_number-error" : ""].filter(Boolean).join(" ")}
            className={input(Boolean(errors.account_number))}
          />
          <p id="account_number-hint" className="text-xs text-slate-600">
            {/* Written here, not imported from domain/bank-account.ts: that module brings stdnum (40 KB) to the phone. */}
            Your 15 or 16 digit account number, such as 12-3140-0171323-50.
          </p>
          {errors.account_number ? (
            <p id="account_number-error" className="text-sm text-red-700">
              {errors.account_number[0]}
            </p>
          ) : null}
        </div>
        <p className="text-sm text-slate-700">
          Next you confirm the direct debit on GoCardless&apos;s page.{" "}
          {page.journey.joined
            ? "Nothing is taken now: it pays your membership from its next payment on."
            : "Nothing is taken until you confirm your membership."}
        </p>
        <SubmitButton pending={busy}>{busy ? "Checking…" : "Continue to set up the direct debit"}</SubmitButton>
        <p className="text-center text-sm">
          <Link to={page.journey.choose} className="font-medium text-brand-700 underline">
            Choose another way to pay
          </Link>
        </p>
      </Form>
    </StepFrame>
  );
}
