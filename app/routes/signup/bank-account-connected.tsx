import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SubmitButton } from "../../components/field";
import { StepFrame } from "../../features/signup/step-frame";
import { ApiRequestError } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { paymentJourney } from "../../features/signup/payment-journey";

export const meta: MetaFunction = () => [{ title: "Choose your account · Gym Membership" }];

const isRefusal = (err: unknown): err is ApiRequestError =>
  err instanceof ApiRequestError && err.status < 500 && err.status !== 401 && err.error !== "not_two_factor_authenticated";

/**
 * Where Akahu sends the person back: with ?code=&state= the consent becomes their connection (the state checked) and
 * the page reloads without them (a code is good once); with ?error= they declined. Then the accounts they shared,
 * to choose the one that pays.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const journey = paymentJourney(me);
  const q = new URL(args.request.url).searchParams;
  try {
    if (q.get("error")) {
      throw await redirectWithToast(`${journey.choose}?cancelled=bank`, {
        severity: "warn",
        summary: "Your bank was not connected",
        detail: "You did not allow access at your bank.",
      });
    }
    if (q.get("code")) {
      try {
        await api.post("/akahu/exchange", { body: { code: q.get("code") ?? "", state: q.get("state") ?? "" } });
      } catch (err) {
        if (isRefusal(err))
          throw await redirectWithToast(
            journey.choose,
            { severity: "error", summary: "Your bank was not connected", detail: err.message, life: 10_000 },
            api.headers,
          );
        throw err;
      }
      throw redirect("/bank-account-connected", { headers: api.headers });
    }
    const { accounts } = await api.post("/akahu/sync-accounts", { body: {} });
    return { accounts, journey };
  } catch (err) {
    if (err instanceof Response) throw err;
    if (isRefusal(err)) throw await redirectWithToast("/connect-akahu", { severity: "warn", summary: "Connect your bank first", detail: err.message });
    redirectForApiError(args.request, err);
  }
}

export async function action(args: ActionFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const accountId = String((await readForm(args.request)).get("account_id") ?? "");
  try {
    const { payment_type } = await api.post("/akahu/sync-accounts", { body: { account_id: accountId } });
    return redirectWithToast(
      paymentJourney(me).done,
      { summary: "Bank account connected", detail: `${payment_type?.name ?? ""} ${payment_type?.account_number ?? ""} will pay your membership.`.trim() },
      api.headers,
    );
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return data({ error: err.errors?.account_id?.[0] ?? err.message }, { status: 422 });
    redirectForApiError(args.request, err);
  }
}

export default function BankAccountConnected() {
  const { accounts, journey } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const payable = accounts.filter((a) => a.can_pay);
  return (
    <StepFrame step={journey.step} title="Choose the account that pays" intro="Your bank is connected. These are the accounts you shared.">
      <Form method="post" className="space-y-4" aria-label="Choose the account that pays">
        <fieldset className="space-y-2" aria-describedby={answer?.error ? "account-error" : undefined}>
          <legend className="sr-only">Account</legend>
          {accounts.map((a) => (
            <label
              key={a.id}
              className={`flex items-start gap-3 rounded-md border p-3 ${
                a.can_pay ? "cursor-pointer border-slate-200 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50" : "border-slate-100 text-slate-500"
              }`}
            >
              <input type="radio" name="account_id" value={a.id} disabled={!a.can_pay} defaultChecked={a.id === payable[0]?.id} className="mt-1" />
              <span>
                <span className="block font-medium text-slate-900">
                  {a.bank} {a.name}
                </span>
                <span className="block text-sm">{a.account_number}</span>
                {a.can_pay ? null : <span className="block text-xs">Payments cannot be made from this account</span>}
              </span>
            </label>
          ))}
        </fieldset>
        {answer?.error ? (
          <p id="account-error" role="alert" className="text-sm text-red-700">
            {answer.error}
          </p>
        ) : null}
        {payable.length ? (
          <SubmitButton pending={busy}>{busy ? "Saving…" : "Pay from this account"}</SubmitButton>
        ) : (
          <p className="text-sm text-slate-700">
            None of these accounts can make payments. Connect your bank again and share an everyday account, or choose another way to pay.
          </p>
        )}
      </Form>
    </StepFrame>
  );
}
