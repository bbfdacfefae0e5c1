import { Form, useActionData, useNavigation } from "@remix-run/react";
import { formatCalendarDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { SubmitButton } from "../../components/field";
import { ConnectedMethods, WaysToPay } from "../signup/payment-methods";
import type { SignupState } from "../signup/methods";
import { MemberFrame } from "./member-frame";

export interface MyPaymentData {
  gym: SignupState["gym"];
  methods: SignupState["methods"];
  payment_types: SignupState["payment_types"];
  default_payment_type_id: number | null;
  paying: string | null;
  owed: { total: number; periods: { payment_id: number; why: string }[] };
  owing: { total: number; periods: { payment_id: number; period_start: string | null; period_end: string | null; amount: number }[] } | null;
  version: number | null;
  key: string;
  notice: string | null;
}

const periodText = (p: { period_start: string | null; period_end: string | null }) =>
  p.period_start && p.period_end
    ? `${formatCalendarDay(p.period_start)} to ${formatCalendarDay(p.period_end)}`
    : p.period_start
    ? formatCalendarDay(p.period_start)
    : "your membership";

/** "How you pay" (issue 31): what pays now, the others connected, a new one through the gym's providers, and paying what is owing. */
export function MyPaymentPage({ data: d }: { data: MyPaymentData }) {
  const answer = useActionData<{ problem?: string }>();
  const paying = useNavigation().formData?.get("intent") === "pay";
  const why = new Map(d.owed.periods.map((p) => [p.payment_id, p.why]));
  return (
    <MemberFrame back title="How you pay" gym={d.gym.name}>
      {d.notice ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {d.notice}
        </p>
      ) : null}

      {d.owed.total > 0 ? (
        <section aria-labelledby="owing-heading" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <h2 id="owing-heading" className="font-semibold">
            {formatCents(d.owing?.total ?? d.owed.total)} is owing
          </h2>
          {d.owing ? (
            <>
              <ul className="list-disc space-y-1 pl-5">
                {d.owing.periods.map((p) => (
                  <li key={p.payment_id}>
                    {formatCents(p.amount)} for {periodText(p)}: {why.get(p.payment_id) ?? "the payment did not go through."}
                  </li>
                ))}
              </ul>
              {answer?.problem ? (
                <p role="alert" className="rounded-md border border-red-300 bg-white p-3 text-red-800">
                  {answer.problem}
                </p>
              ) : null}
              <Form method="post" className="space-y-2">
                <input type="hidden" name="intent" value="pay" />
                <input type="hidden" name="key" value={d.key} />
                <input type="hidden" name="version" value={d.version ?? ""} />
                <SubmitButton pending={paying}>{paying ? "Paying…" : `Pay ${formatCents(d.owing.total)} now with ${d.paying}`}</SubmitButton>
                <p className="text-xs text-red-900">Want to pay another way? Change how you pay below first, then come back to pay.</p>
              </Form>
            </>
          ) : (
            <p>Connect a way to pay below, then pay what is owing here.</p>
          )}
        </section>
      ) : null}

      <section aria-labelledby="connected-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="connected-heading" className="font-semibold text-slate-900">
          Your ways to pay
        </h2>
        {d.payment_types.length ? <ConnectedMethods signup={d} /> : <p className="text-sm text-slate-700">No way to pay is connected.</p>}
      </section>

      <section aria-labelledby="methods-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="methods-heading" className="font-semibold text-slate-900">
          Add a new way to pay
        </h2>
        <p className="text-sm text-slate-600">
          You enter it on the provider&apos;s own secure page; it pays your membership from then on. Nothing is charged now.
        </p>
        <WaysToPay signup={d} none={`${d.gym.name} does not take payments online. To change how you pay, ask at the desk.`} />
      </section>
    </MemberFrame>
  );
}
