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

/** The next unfinished step: welcome first once the membership stands, then photo, then payment method, then confirm. */
export function nextSignupStep(me: SignupProgress): SignupStep {
  if (me.membership_confirmed) return "welcome-to-gym";
  if (!me.profile_picture) return "take-photo";
  if (!me.payment_types?.length) return "choose-payment-method";
  return "confirm-subscription";
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

export const isSignupStepPath = (pathname: string) => pathname in STAGE;

/**
 * Where a member asking for `pathname` is sent, or null to stay. Nobody skips ahead of their next unfinished step;
 * a step already done may be visited again (retake the photo, connect another method after a decline); once the
 * membership stands every step leads to the welcome page, and before it stands the welcome page leads back.
 */
export function signupRedirect(pathname: string, me: SignupProgress): `/${SignupStep}` | null {
  const next = nextSignupStep(me);
  const stage = STAGE[pathname];
  if (stage === undefined) return `/${next}`;
  if (next === "welcome-to-gym") return stage === 4 ? null : "/welcome-to-gym";
  if (stage === 4 || stage > STEP_STAGE[next]) return `/${next}`;
  return null;
}
