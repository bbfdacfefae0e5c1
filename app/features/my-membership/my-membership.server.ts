import { redirect } from "@remix-run/node";
import { type ApiContext, gymApi } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { qrSvg } from "../../lib/qr.server";
import { fetchMe, guardSignupPage, nextSignupStep, redirectForApiError, type Me } from "../../lib/session.server";

/**
 * A member's own pages on the sign-up host (issue 31): only once their membership stands. Not signed in: the
 * members' sign-in (which brings a joined member to /membership); part way through joining: their next step; staff:
 * the back-office.
 */
export async function requireJoinedMember(args: ApiContext) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  if (s.state === "anonymous") throw redirect("/sign-in", { headers: api.headers });
  const to = guardSignupPage(args.request, s);
  if (to) throw redirect(to, { headers: api.headers });
  const me = (s as { me: Me }).me;
  if (!me.membership_confirmed) throw redirect(nextSignupStep(args.request, me), { headers: api.headers });
  return { me, api };
}

export async function loadMyMembership(args: ApiContext) {
  const { me, api } = await requireJoinedMember(args);
  const page = Math.max(1, Number(new URL(args.request.url).searchParams.get("page")) || 1);
  try {
    const [membership, payments, actions] = await Promise.all([
      api.get("/me/membership"),
      api.get("/me/payments", { query: { page: String(page) } }),
      api.get("/me/membership/actions"),
    ]);
    const qr = await qrSvg(membership.member_code, `QR code of your member code, ${membership.member_code}`);
    return withDateTexts({ name: me.name, email: me.email, ...membership, payments, actions, qr });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export async function loadReceipt(args: ApiContext, id: string) {
  const { api } = await requireJoinedMember(args);
  try {
    return withDateTexts({ receipt: await api.get("/me/payments/:id/receipt", { params: { id: Number(id) } }) });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}
