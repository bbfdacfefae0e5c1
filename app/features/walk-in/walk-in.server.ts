import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { localDay } from "../../../domain/dates";
import { formatCents } from "../../../domain/money";
import { perFrequency } from "../../../domain/offering";
import { walkInRequest } from "../../../domain/schemas/walk-in";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { fingerprint } from "../membership/membership-route.server";
import { orRefusal } from "../members/member-route.server";

/**
 * /members/new (issue 32): a walk-in joins on a recurring price. Preview shows the sign-up's own quote; "Send the link"
 * makes the member and answers the page with the link to finish joining (e-mailed too, and shown once here to text
 * them), not a redirect: the link is a sign-in, so it is never put in an address or a cookie.
 */
export async function loadWalkIn(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const [me, offerings] = await orRefusal(args.request, Promise.all([api.get("/me"), api.get("/offerings")]));
  if (!me.permissions.includes("subscriptions.write")) throw new Response("Only admins can sell a membership.", { status: 403 });
  const options = offerings.data
    .filter((o) => !o.archived_at)
    .flatMap((o) =>
      o.prices
        .filter((p) => p.billing_frequency !== "one_off" && !p.archived_at && !p.private)
        .map((p) => ({
          value: String(p.id),
          label: `${o.name}: ${formatCents(p.amount)} ${perFrequency(p.billing_frequency)}${p.term ? ` (${p.term})` : ""}`,
        })),
    );
  return { organisationId: me.current_organisation!.id, options, key: randomBytes(16).toString("base64url"), today: localDay(new Date()) };
}

export async function walkInAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const me = await orRefusal(args.request, api.get("/me"));
  const organisation = me.current_organisation!.id;
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: walkInRequest });
  const empty = { preview: null, previewed: null, created: null };
  if (submission.status !== "success") return data({ result: submission.reply(), ...empty }, { status: 400 });
  const print = fingerprint(submission.value);
  try {
    if (form.get("intent") === "confirm" && form.get("previewed") === print) {
      const done = await api.post("/organisations/:id/members/walk-in", { params: { id: organisation }, body: { ...submission.value, preview: false } });
      if (!("join_url" in done)) throw new Error("The API answered a join with a preview");
      return data({
        result: submission.reply(),
        preview: null,
        previewed: null,
        created: { user_id: done.user_id, join_url: done.join_url, name: submission.value.name, email: submission.value.email },
      });
    }
    const answer = await api.post("/organisations/:id/members/walk-in", { params: { id: organisation }, body: { ...submission.value, preview: true } });
    return data({ result: submission.reply(), preview: "preview" in answer ? answer.preview : null, previewed: print, created: null });
  } catch (err) {
    if (err instanceof ApiRequestError && [401, 403, 404].includes(err.status)) redirectForApiError(args.request, err);
    const reply = replyWithApiError(submission, err);
    return data({ result: reply.data, ...empty }, reply.init ?? undefined);
  }
}
