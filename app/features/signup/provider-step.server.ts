import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ApiRequestError, type GymApi } from "../../lib/api.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import type { SignupState } from "./methods";
import { paymentJourney } from "./payment-journey";

type MethodKind = SignupState["methods"][number]["kind"];

/**
 * A provider step's loader (card, direct debit, bank): the member on their step, and the method, when their gym
 * offers it; otherwise back to choosing, saying the gym does not take it online.
 */
export async function offeredMethod(args: LoaderFunctionArgs, kind: MethodKind, notOffered: { summary: string; takes: string }) {
  const { me, api } = await requireSignupStep(args);
  const journey = paymentJourney(me);
  let signup: SignupState;
  try {
    signup = await api.get("/me/signup");
  } catch (err) {
    redirectForApiError(args.request, err);
  }
  const method = signup.methods.find((m) => m.kind === kind);
  if (!method)
    throw await redirectWithToast(journey.choose, {
      severity: "warn",
      summary: notOffered.summary,
      detail: `${signup.gym.name} does not take ${notOffered.takes} online.`,
    });
  return { me, api, signup, method, journey };
}

/**
 * A provider step's action: open the provider's page (`open` answers its address) and send the member there. A
 * refusal goes back to choosing (`choose`: the journey's) with the API's words; a provider that does not answer,
 * back to this step to try again.
 */
export async function toProviderPage(
  request: Request,
  api: GymApi,
  open: () => Promise<string>,
  words: { refused: string; down: string; step: string; choose: string },
) {
  try {
    return redirect(await open(), { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) {
      return redirectWithToast(words.choose, { severity: "error", summary: words.refused, detail: err.message });
    }
    if (err instanceof ApiRequestError) return redirectWithToast(words.step, { severity: "error", summary: words.down, detail: "Try again in a moment." });
    redirectForApiError(request, err);
  }
}
