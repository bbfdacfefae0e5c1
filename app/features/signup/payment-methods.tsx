import { Form, Link } from "@remix-run/react";
import { describeMethod, type SignupState } from "./methods";
import { secondaryButton } from "./step-frame";

/**
 * The member's connected ways to pay, the one that pays marked and each other one a plain form to pay with it
 * instead (POST to the page: choosing a method while joining, or /membership/payment once joined).
 */
export function ConnectedMethods({ signup }: { signup: Pick<SignupState, "payment_types" | "default_payment_type_id"> }) {
  return (
    <ul className="space-y-2">
      {signup.payment_types.map((m) => (
        <li key={m.id} className="flex items-center justify-between gap-3 rounded-md border border-slate-200 bg-white px-3 py-2">
          <span className="text-slate-900">{describeMethod(m)}</span>
          {m.id === signup.default_payment_type_id ? (
            <span className="text-sm font-medium text-green-700">Pays your membership</span>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="switch" />
              <input type="hidden" name="payment_type" value={m.id} />
              <button type="submit" className="text-sm font-medium text-brand-700 underline">
                Pay with this instead<span className="sr-only">: {describeMethod(m)}</span>
              </button>
            </Form>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The ways this gym takes, each opening its provider's page, with a card's surcharge said before it is chosen. */
export function WaysToPay({ signup, none }: { signup: Pick<SignupState, "methods" | "gym">; none: string }) {
  if (!signup.methods.length) return <p className="text-sm text-slate-700">{none}</p>;
  return (
    <ul className="space-y-2">
      {signup.methods.map((m) => (
        <li key={m.kind}>
          <Link to={m.path} className={secondaryButton}>
            {m.label}
          </Link>
          {m.surcharge ? (
            <p className="mt-1 text-xs text-slate-600">
              Card payments carry a {m.surcharge} surcharge.{m.surcharge_text ? ` ${m.surcharge_text}` : ""}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Why the person is back from a provider's page without a method: they left it. */
export const LEFT_PROVIDER_PAGE: Record<string, string> = {
  card: "You left the card page before your card was saved. Nothing was charged.",
  direct_debit: "You left the direct debit page before the mandate was set up. Nothing was charged.",
  bank: "You left your bank's page before connecting it. Nothing was charged.",
};
