/**
 * The sign-up journey's steps and where a signed-in member belongs on it (SPEC §2 navigation guards, §4
 * registration states). One rule, used by every sign-up page's loader (app/lib/session.server.ts).
 */
export type SignupStep = "welcome-to-gym" | "take-photo" | "choose-payment-method" | "confirm-subscription";

export interface SignupProgress {
  membership_confirmed: boolean;
  profile_picture: string | null;
  payment_types: readonly unknown[] | null;
}

/**
 * The steps before a membership can be confirmed, in order: the pages' guards send a member to the first one not
 * done, and POST /api/subscriptions refuses while any is not done (field and message are its 422), so an API
 * client cannot skip what the pages require.
 */
export const STEPS_BEFORE_CONFIRM = [
  { step: "take-photo", done: (me: SignupProgress) => Boolean(me.profile_picture), field: "profile_picture", message: "Take your photo first" },
  { step: "choose-payment-method", done: (me: SignupProgress) => Boolean(me.payment_types?.length), field: "payment_type", message: "Connect a way to pay first" },
] as const satisfies readonly { step: SignupStep; done: (me: SignupProgress) => boolean; field: string; message: string }[];

/** The steps before confirming that this member has not done yet (empty: they may confirm). */
export const unfinishedSteps = (me: SignupProgress) => STEPS_BEFORE_CONFIRM.filter((s) => !s.done(me));

/** The next unfinished step: welcome first once the membership stands, then photo, then payment method, then confirm. */
export function nextSignupStep(me: SignupProgress): SignupStep {
  if (me.membership_confirmed) return "welcome-to-gym";
  return unfinishedSteps(me)[0]?.step ?? "confirm-subscription";
}

/**
 * Each sign-up page's place on the journey. The provider steps (card, direct debit, bank) belong to choosing a
 * payment method.
 */
const STAGE: Record<string, number> = {
  "/take-photo": 1,
  "/choose-payment-method": 2,
  "/card-details": 2,
  "/card-connected": 2,
  "/direct-debit": 2,
  "/connect-akahu": 2,
  "/bank-account-connected": 2,
  "/confirm-subscription": 3,
  "/welcome-to-gym": 4,
};
const STEP_STAGE: Record<SignupStep, number> = { "take-photo": 1, "choose-payment-method": 2, "confirm-subscription": 3, "welcome-to-gym": 4 };

/**
 * Where a member asking for `pathname` is sent, or null to stay. Nobody skips ahead of their next unfinished step;
 * a step already done may be visited again (retake the photo, connect another method after a decline); once the
 * membership stands every step leads to the welcome page but the payment pages (a new card, a new bank), and before
 * it stands the welcome page leads back.
 */
export function signupRedirect(pathname: string, me: SignupProgress): `/${SignupStep}` | null {
  const next = nextSignupStep(me);
  const stage = STAGE[pathname];
  if (stage === undefined) return `/${next}`;
  // A joined member may use the payment pages again: changing how they pay starts at /membership/payment (issue 31).
  if (next === "welcome-to-gym") return stage === 4 || stage === 2 ? null : "/welcome-to-gym";
  if (stage === 4 || stage > STEP_STAGE[next]) return `/${next}`;
  return null;
}
