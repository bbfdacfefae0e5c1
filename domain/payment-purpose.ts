/**
 * What a payment was for, in words, where it covers no membership period (the payments list, a member's payments):
 * its `type` as people read it. A type not named here is shown as it is.
 */
const PURPOSES: Record<string, string> = {
  drop_in: "Class drop-in",
  break_fee: "Break fee",
  pif: "Paid in full",
  subscription: "Membership",
};

export const paymentPurpose = (type: string | null | undefined, fallback: string) => (type ? (PURPOSES[type] ?? type) : fallback);
