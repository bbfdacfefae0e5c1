import { Hono, type Context } from "hono";
import { readMemberCode } from "../../domain/member-code";
import { checkInRequest, checkInSearchQuery, kioskCheckInRequest } from "../../domain/schemas/check-in";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ApiError, invalid, notFound } from "../core/errors";
import { now, requireKiosk, requireStaff } from "../core/middleware";
import { eq } from "drizzle-orm";
import { gyms } from "../core/db/schema";
import { assertCan, can, requireCan } from "../core/permissions";
import { searchMembers } from "../search/queries";
import { checkInCards, memberByCode, type CheckInCard } from "./cards";
import { checkIn, checkInResult } from "./record";
import { classesAttendedBy } from "../attendance/class-attendance";
import type { Tenant } from "../core/db/tenant";

const FOUND_MAX = 8;

/** The gym the staff member is at (the switcher's), where they may check people in. */
function deskGym(c: Context<ApiEnv>) {
  const gym = c.var.user!.gym;
  if (!gym) throw new ApiError(409, "Choose the gym you are at first.", "no_gym");
  assertCan(c.var.user!, "visits.write", gym.id);
  return gym;
}

/** The gym a kiosk stands in (its session's), or the desk's. */
async function kioskGym(c: Context<ApiEnv>) {
  const id = c.var.session!.kiosk_gym_id;
  if (!id) return deskGym(c);
  const t = c.var.tenant;
  const [gym] = await t.db
    .select({ id: gyms.id, name: gyms.name })
    .from(gyms)
    .where(t.where(gyms, eq(gyms.id, id)));
  if (!gym) throw notFound("No such gym.");
  assertCan(c.var.user!, "visits.write", gym.id);
  return gym;
}

/** What the desk may do next for this member: take what is owing, end a pause early, or open their page. */
const withRights = (c: Context<ApiEnv>, card: CheckInCard) => ({
  ...card,
  can: {
    take_payment: can(c.var.user!, "money.write", card.home_gym_id),
    change: can(c.var.user!, "subscriptions.write", card.home_gym_id),
    open: can(c.var.user!, "members.read", card.home_gym_id),
  },
});

/**
 * The front desk (issue 32): find a member, check them in at the gym the staff member is at, and the kiosk at the
 * entrance where members check themselves in with their code. Organisation-wide search: a member may visit any
 * of the organisation's gyms, so the desk finds them whatever their home gym (and shows only what the desk needs).
 */
export const checkInRoutes = new Hono<ApiEnv>()
  /** GET /api/check-in/members?q=: up to eight members, a code first and alone when the text is one. */
  .get("/check-in/members", requireStaff, requireCan("visits.write"), async (c) => {
    deskGym(c);
    const { q } = readQuery(c, checkInSearchQuery);
    const code = readMemberCode(q);
    const byCode = code ? await memberByCode(c.var.tenant, code) : null;
    const ids = byCode ? [byCode] : q ? (await searchMembers(c.var.tenant, q, "all")).slice(0, FOUND_MAX).map((h) => h.id) : [];
    const cards = await checkInCards(c.var.tenant, ids, now(c));
    return c.json({ data: { data: cards.map((card) => withRights(c, card)) } });
  })
  /** POST /api/check-ins { user_id, key }: a visit at the staff member's gym, let in or refused by the access rule. */
  .post("/check-ins", requireStaff, requireCan("visits.write"), async (c) => {
    const gym = deskGym(c);
    const { user_id, key } = await readBody(c, checkInRequest);
    const done = await checkIn(c.var.tenant, { userId: user_id, gymId: gym.id, key, source: "desk", staffId: c.var.user!.row.id }, now(c));
    return c.json(
      { data: { visit: visitOut(done.visit), member: withRights(c, done.card), classes: await classesOf(c.var.tenant, done.visit.id), repeated: done.repeated } },
      done.repeated ? 200 : 201,
    );
  })
  /**
   * POST /api/check-ins/kiosk { code, key }: a member at the entrance checks themselves in with their code. The answer
   * names only what the member needs (their first name, in or not and why): the kiosk shows nothing else.
   */
  .post("/check-ins/kiosk", requireKiosk, requireCan("visits.write"), async (c) => {
    const gym = await kioskGym(c);
    const { code, key } = await readBody(c, kioskCheckInRequest);
    const read = readMemberCode(code);
    const userId = read ? await memberByCode(c.var.tenant, read) : null;
    if (!userId) throw invalid({ code: ["That code is not one of ours: check it, or ask at the desk"] });
    const done = await checkIn(c.var.tenant, { userId, gymId: gym.id, key, source: "kiosk", staffId: null }, now(c));
    return c.json(
      {
        data: {
          first_name: done.card.name.split(" ")[0],
          allowed: done.card.allowed,
          reason: done.card.allowed ? null : "Please see the front desk.",
          repeated: done.repeated,
        },
      },
      done.repeated ? 200 : 201,
    );
  })
  /** GET /api/kiosk: the gym a kiosk stands in, for its page. */
  .get("/kiosk", requireKiosk, requireCan("visits.write"), async (c) => {
    const gym = await kioskGym(c);
    return c.json({ data: { gym: { id: gym.id, name: gym.name }, kiosk: Boolean(c.var.session!.kiosk_gym_id) } });
  })
  /** GET /api/check-ins/{id}: a desk or kiosk check-in, as the desk's result page shows it. */
  .get("/check-ins/:id{[0-9]+}", requireStaff, requireCan("visits.write"), async (c) => {
    const found = await checkInResult(c.var.tenant, pathId(c, "No such check-in."), now(c));
    if (!found) throw notFound("No such check-in.");
    assertCan(c.var.user!, "visits.write", found.visit.gym_id);
    return c.json({ data: { visit: visitOut(found.visit), member: withRights(c, found.card), classes: await classesOf(c.var.tenant, found.visit.id) } });
  });

/** The classes this check-in marked attended (issue 34), for the desk to say so. */
const classesOf = async (t: Tenant, visitId: number) =>
  (await classesAttendedBy(t, visitId)).map((k) => ({ ...k, starts_at: k.starts_at.toISOString(), ends_at: k.ends_at.toISOString() }));

const visitOut = (v: { id: number; gym_id: number; visited_at: Date; successful: boolean; reason: string | null; source: string }) => ({
  id: v.id,
  gym_id: v.gym_id,
  visited_at: v.visited_at.toISOString(),
  successful: v.successful,
  reason: v.reason,
  source: v.source,
});
