import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { SubmitButton } from "../../components/field";
import { StepFrame } from "../../features/signup/step-frame";
import { requireSignupStep } from "../../lib/session.server";
import { offeredMethod, toProviderPage } from "../../features/signup/provider-step.server";
import { paymentJourney } from "../../features/signup/payment-journey";

export const meta: MetaFunction = () => [{ title: "Connect your bank · Gym Membership" }];

/**
 * Paying from a bank account (issue 13): the member connects their bank through Akahu (open banking) on Akahu's own
 * page, and comes back to /bank-account-connected to choose the account that pays.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { signup, journey } = await offeredMethod(args, "bank_account", { summary: "Bank payments are not offered here", takes: "bank payments" });
  return { gym: signup.gym.name, journey };
}

export async function action(args: ActionFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  return toProviderPage(args.request, api, async () => (await api.get("/akahu/auth-url")).url, {
    refused: "Your bank could not be connected",
    down: "The bank connection service did not answer",
    step: "/connect-akahu",
    choose: paymentJourney(me).choose,
  });
}

export default function ConnectAkahu() {
  const { gym, journey } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <StepFrame
      step={journey.step}
      title="Pay from your bank account"
      intro={`Connect your bank securely through Akahu, and ${gym}'s payments are made straight from the account you choose.`}
    >
      <div className="space-y-4 text-sm text-slate-700">
        <ul className="list-disc space-y-1 pl-5">
          <li>You sign in to your bank on Akahu&apos;s page, not ours: we never see your banking password.</li>
          <li>You choose which accounts to share, then which one pays.</li>
          <li>
            {journey.joined
              ? "Nothing is paid now: the account you choose pays your membership from its next payment on."
              : "Nothing is paid until you confirm your membership."}
          </li>
        </ul>
        <Form method="post">
          <SubmitButton pending={busy}>{busy ? "Opening…" : "Connect my bank"}</SubmitButton>
        </Form>
        <p className="text-center">
          <Link to={journey.choose} className="font-medium text-brand-700 underline">
            Choose another way to pay
          </Link>
        </p>
      </div>
    </StepFrame>
  );
}
