/**
 * Where the payment pages (card, direct debit, bank) lead, for who is on them (issue 31): a person joining goes from
 * choosing a method on to confirming their membership; a joined member changing how they pay starts from, and comes
 * back to, /membership/payment. One place, so every provider page's links and redirects agree.
 */
export function paymentJourney(me: { membership_confirmed: boolean }) {
  return me.membership_confirmed
    ? { joined: true, choose: "/membership/payment", done: "/membership/payment", step: undefined }
    : { joined: false, choose: "/choose-payment-method", done: "/confirm-subscription", step: "Payment" as const };
}
export type PaymentJourney = ReturnType<typeof paymentJourney>;
