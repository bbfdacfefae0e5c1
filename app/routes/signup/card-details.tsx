import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import { SubmitButton } from "../../components/field";
import { StepFrame } from "../../features/signup/step-frame";
import { readForm } from "../../lib/forms.server";
import { requireSignupStep } from "../../lib/session.server";
import { offeredMethod, toProviderPage } from "../../features/signup/provider-step.server";
import { paymentJourney } from "../../features/signup/payment-journey";

export const meta: MetaFunction = () => [{ title: "Add your card · Gym Membership" }];

/**
 * Card (issue 13): the card is entered on the card provider's own secure page (Stripe Checkout; PCI SAQ A: the
 * number never touches our server), then the person comes back to /card-connected. The form's nonce makes a double
 * tap open one page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { signup, method, journey } = await offeredMethod(args, "stripe_card", { summary: "Cards are not taken here", takes: "card payments" });
  return { gym: signup.gym.name, surcharge: method.surcharge, surchargeText: method.surcharge_text, nonce: randomBytes(12).toString("base64url"), journey };
}

export async function action(args: ActionFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const nonce = String((await readForm(args.request)).get("nonce") ?? "");
  return toProviderPage(args.request, api, async () => (await api.post("/stripe/setup-session", { body: { nonce } })).url, {
    refused: "The card page could not be opened",
    down: "The card provider did not answer",
    step: "/card-details",
    choose: paymentJourney(me).choose,
  });
}

export default function CardDetails() {
  const { gym, surcharge, surchargeText, nonce, journey } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <StepFrame step={journey.step} title="Pay by card" intro={`You'll enter your card on our card provider's secure page. ${gym} never sees your card number.`}>
      <div className="space-y-4 text-sm text-slate-700">
        {surcharge ? (
          <p className="rounded-md bg-slate-50 p-3">
            Card payments carry a <strong>{surcharge}</strong> surcharge on each payment.{surchargeText ? ` ${surchargeText}` : ""}
          </p>
        ) : null}
        <p>
          {journey.joined
            ? "Nothing is charged now: your card is saved, and pays your membership from its next payment on."
            : "Nothing is charged now: your card is saved, and you confirm your membership and its first payment on the next page."}
        </p>
        <Form method="post">
          <input type="hidden" name="nonce" value={nonce} />
          <SubmitButton pending={busy}>{busy ? "Opening…" : "Enter card details"}</SubmitButton>
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
