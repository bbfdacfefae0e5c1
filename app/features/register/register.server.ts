import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { registerSchema } from "../../../domain/schemas/auth";
import { ApiRequestError, gymApi, type GymApi } from "../../lib/api.server";
import type { PublicGym, PublicGymWithPrice } from "./types";

import { readForm, replyWithApiError } from "../../lib/forms.server";
import { fetchMe, guardSignupPage, nextSignupStep } from "../../lib/session.server";

/**
 * What the sign-up host's first page shows: the register form for the gym its link names (/?gym=uuid), or,
 * without one, the public list of gyms to choose from. A link naming no gym we know shows the list too, as a 404.
 */
export type GymChoice =
  | { gym: PublicGymWithPrice; link: string | null; gyms: null; unknownGym: false }
  | { gym: null; link: null; gyms: PublicGym[]; unknownGym: boolean };

/**
 * The form's HTML constraints (required, maxLength, pattern...), worked out from the schema here and sent as plain
 * data: the page then needs neither zod nor conform's zod bridge in the browser (issue 30's sign-up budget).
 */
const registerConstraint = getZodConstraint(registerSchema);

/** Signed-in people do not see the register form: they go to their next step (SPEC §2). */
export async function registerLoader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  if (s.state !== "anonymous") throw redirect(guardSignupPage(args.request, s) ?? nextSignupStep(args.request, s.state === "ok" ? s.me : undefined));
  const choice = await gymChoice(args.request, api);
  return data({ ...choice, constraint: registerConstraint }, { status: choice.unknownGym ? 404 : 200 });
}

async function gymChoice(request: Request, api: GymApi): Promise<GymChoice> {
  const search = new URL(request.url).searchParams;
  const uuid = search.get("gym")?.trim();
  if (uuid) {
    // An integrator's link may name a price (&price=id); a private price's link names its token (&link=uuid).
    const price = search.get("price")?.trim() || undefined;
    const link = search.get("link")?.trim() || undefined;
    try {
      return { gym: await api.get("/public/gyms/:uuid", { params: { uuid }, query: { price, link } }), link: link ?? null, gyms: null, unknownGym: false };
    } catch (err) {
      if (!(err instanceof ApiRequestError && err.status === 404)) throw err;
    }
  }
  return { gym: null, link: null, gyms: await api.get("/public/gyms"), unknownGym: Boolean(uuid) };
}

/** Creates the member of the chosen gym (POST /api/register), signs them in and asks for the e-mailed code. */
export async function registerAction(args: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(args.request), { schema: registerSchema });
  const hide = { hideFields: ["password", "website"] };
  if (submission.status !== "success") return data(submission.reply(hide), { status: 400 });
  const api = gymApi(args);
  try {
    await api.post("/register", { body: submission.value });
  } catch (err) {
    return replyWithApiError(submission, err, hide);
  }
  return redirect("/verification-code", { headers: api.headers });
}
