import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { doorInWords, membershipInWords } from "../../../domain/welcome-words";
import { formatCents } from "../../../domain/money";
import { Confetti } from "../../features/signup/confetti";
import { primaryLink, StepFrame } from "../../features/signup/step-frame";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Welcome · Gym Membership" }];

/**
 * The end of the journey (issue 13): what the member joined, what they paid and pay next, how they get in, and the
 * app. The guard sends a member here first once their membership stands (SPEC §2).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  try {
    const [membership, app] = await Promise.all([api.get("/me/active-subscription"), api.get("/me/app-link")]);
    if (!membership) throw new Response("No membership yet.", { status: 404 });
    return { name: me.name.split(" ")[0], membership, appLink: app.url };
  } catch (err) {
    if (err instanceof Response) throw err;
    redirectForApiError(args.request, err);
  }
}

export default function WelcomeToGym() {
  const { name, membership: m, appLink } = useLoaderData<typeof loader>();
  const first = m.first_payment;
  return (
    <StepFrame step="Welcome" title={`Welcome to ${m.gym.name}, ${name}!`}>
      <Confetti />
      <div className="space-y-5 text-slate-700">
        <section aria-labelledby="membership-heading" className="rounded-md bg-slate-50 p-4">
          <h2 id="membership-heading" className="font-semibold text-slate-900">
            Your membership
          </h2>
          <p className="mt-1" data-testid="welcome-membership">
            {membershipInWords(m)}.
          </p>
          {m.term_ends ? (
            <p className="mt-1 text-sm">
              Your term runs until {formatDay(m.term_ends)}
              {m.cooling_off_ends ? `; you can cancel free of charge until ${formatDay(m.cooling_off_ends)}` : ""}.
            </p>
          ) : null}
          {m.pif_ends ? <p className="mt-1 text-sm">Paid in full until {formatDay(m.pif_ends)}.</p> : null}
        </section>
        {first ? (
          <section aria-labelledby="payments-heading">
            <h2 id="payments-heading" className="font-semibold text-slate-900">
              Payments
            </h2>
            <p className="mt-1" data-testid="welcome-first-payment">
              {first.outcome === "successful"
                ? `Paid ${formatCents(first.total)} today`
                : first.status === "upcoming"
                ? `${formatCents(first.total)} will be taken on ${formatDay(first.charge_date ?? m.start_date ?? "")}`
                : `${formatCents(first.total)} is on its way`}
              {first.joining_fee ? `, including the ${formatCents(first.joining_fee)} joining fee` : ""}
              {first.surcharge ? ` and ${formatCents(first.surcharge)} card surcharge` : ""}.
            </p>
            {m.next_charge ? (
              <p className="mt-1" data-testid="welcome-next-charge">
                Next: {formatCents(m.next_charge.amount ?? 0)} on {formatDay(m.next_charge.date)}.
              </p>
            ) : null}
          </section>
        ) : null}
        <section aria-labelledby="access-heading">
          <h2 id="access-heading" className="font-semibold text-slate-900">
            Getting in
          </h2>
          <p className="mt-1">{doorInWords(m.access, m.state, m.start_date)}</p>
        </section>
        <a href={appLink} className={primaryLink}>
          Get the app
        </a>
        <p className="text-center">
          <Link to="/membership" className="font-medium text-brand-700 underline">
            See your membership and payments
          </Link>
        </p>
        <Form method="post" action="/logout" className="text-center">
          <button type="submit" className="text-sm font-medium text-slate-700 underline">
            Sign out
          </button>
        </Form>
      </div>
    </StepFrame>
  );
}
