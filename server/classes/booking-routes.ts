import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { attendanceRequest, classMessageRequest, memberClassBookingRequest, myClassesQuery, rosterBookingRequest } from "../../domain/schemas/class-bookings";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { invalid } from "../core/errors";
import { now, requireMember, requireStaff } from "../core/middleware";
import { assertCan } from "../core/permissions";
import { bookClass, bookingOf, cancelClassBooking, classGym, holdersOf, markAttendance, myClasses, rosterOf } from "./bookings";
import { tellClassAfterCommit } from "./tell";
import { chargeDropInsAfterCommit, handOnAfterCommit, pursueRefundsAfterCommit } from "./drop-ins";
import { feedPath, feedToken, renewFeedToken } from "../calendar/feed";
import { backofficeUrl } from "../core/config";
import { classBookingEntity } from "./booking-entity";

/**
 * Bookings (issue 34): a member's own timetable and bookings on the sign-up host, and a class's roster for staff
 * (classes.read to see it, classes.book at the class's gym to change it). The rules: ./booking-rules.ts; the places:
 * ./places.ts.
 */
const NO_CLASS = "No such class.";
const NO_BOOKING = "No such booking.";
/** A booking as every booking route answers it: the entity the webhooks send (server/entities/class-booking.ts). */
const answer = async (c: { var: ApiEnv["Variables"] }, id: number) => (await classBookingEntity(c.var.tenant, id))!;
const feedUrl = (c: { var: ApiEnv["Variables"] }, token: string | null) => (token ? `${backofficeUrl(c.var.deps.config)}${feedPath(token)}` : null);

export const bookingRoutes = new Hono<ApiEnv>()
  /** GET /api/me/classes?week=0|1: this week's and next week's classes at the member's gym, with what they may do. */
  .get("/me/classes", requireMember, async (c) => {
    const { week } = readQuery(c, myClassesQuery);
    return c.json({ data: await myClasses(c.var.tenant, c.var.user!.row.id, now(c), week === undefined ? undefined : week === "1" ? 1 : 0) });
  })
  /** POST /api/me/class-bookings { class_id, waitlist? }: a place, or a waitlist place when the class is full. */
  .post("/me/class-bookings", requireMember, async (c) => {
    const req = await readBody(c, memberClassBookingRequest);
    const me = c.var.user!.row.id;
    const booking = await bookClass(c.var.tenant, req.class_id, me, { source: "member", createdBy: me }, now(c), { waitlist: req.waitlist });
    if (booking.payment_id) chargeDropInsAfterCommit(c, [booking.payment_id]);
    return c.json({ data: await answer(c, booking.id) }, 201);
  })
  /** DELETE /api/me/class-bookings/{id}: the member gives up their place (late inside the cut-off) or waitlist place. */
  .delete("/me/class-bookings/:id{[0-9]+}", requireMember, async (c) => {
    const me = c.var.user!.row.id;
    const done = await cancelClassBooking(c.var.tenant, pathId(c, NO_BOOKING), me, now(c), me);
    await handOnAfterCommit(c, done.promoted);
    pursueRefundsAfterCommit(c, [done.refund]);
    return c.json({ data: { booking: await answer(c, done.booking.id), late: done.late } });
  })

  /** GET /api/me/calendar-feed: { url } of the member's private feed of their classes (server/calendar/feed.ts), null when none. */
  .get("/me/calendar-feed", requireMember, async (c) => c.json({ data: { url: feedUrl(c, await feedToken(c.var.tenant, c.var.user!.row.id)) } }))
  /** POST /api/me/calendar-feed: a new link (the old one stops working). */
  .post("/me/calendar-feed", requireMember, async (c) => c.json({ data: { url: feedUrl(c, await renewFeedToken(c.var.tenant, c.var.user!.row.id)) } }, 201))
  /** DELETE /api/me/calendar-feed: no link at all. */
  .delete("/me/calendar-feed", requireMember, async (c) => {
    await renewFeedToken(c.var.tenant, c.var.user!.row.id, true);
    return c.json({ data: { url: null } });
  })

  /** GET /api/classes/{id}/roster: the class and everyone booked, waiting, attended, no-show or cancelled. */
  .get("/classes/:id{[0-9]+}/roster", requireStaff, async (c) => {
    const id = pathId(c, NO_CLASS);
    assertCan(c.var.user!, "classes.read", await classGym(c.var.tenant, id));
    return c.json({ data: await rosterOf(c.var.tenant, id, now(c)) });
  })
  /** POST /api/classes/{id}/bookings { member_id, waitlist? }: staff book a member in, under the member's own rules. */
  .post("/classes/:id{[0-9]+}/bookings", requireStaff, async (c) => {
    const id = pathId(c, NO_CLASS);
    assertCan(c.var.user!, "classes.book", await classGym(c.var.tenant, id));
    const req = await readBody(c, rosterBookingRequest);
    const user = c.var.user!;
    const by = { source: user.apiKey ? ("api" as const) : ("staff" as const), createdBy: user.row.id, desk: req.drop_in_paid === "card" ? undefined : req.drop_in_paid };
    const booking = await bookClass(c.var.tenant, id, req.member_id, by, now(c), { waitlist: req.waitlist }).catch((err) => {
      // The member's rules speak to the member ("your membership…"); on the roster the field is the member.
      const e = err as { status?: number; errors?: Record<string, string[]>; message: string };
      if (e.status === 422 && e.errors?.class_id) throw invalid({ member_id: e.errors.class_id }, e.message);
      throw err;
    });
    if (booking.payment_id && !by.desk) chargeDropInsAfterCommit(c, [booking.payment_id]);
    return c.json({ data: await answer(c, booking.id) }, 201);
  })
  /** DELETE /api/class-bookings/{id}: staff take a member off the class (late inside the cut-off, as the member's own). */
  .delete("/class-bookings/:id{[0-9]+}", requireStaff, async (c) => {
    const id = pathId(c, NO_BOOKING);
    assertCan(c.var.user!, "classes.book", (await bookingOf(c.var.tenant, id)).gym_id);
    const done = await cancelClassBooking(c.var.tenant, id, c.var.user!.row.id, now(c));
    await handOnAfterCommit(c, done.promoted);
    pursueRefundsAfterCommit(c, [done.refund]);
    return c.json({ data: { booking: await answer(c, done.booking.id), late: done.late } });
  })
  /** POST /api/class-bookings/{id}/attendance { attended }: came, or a no-show. */
  .post("/class-bookings/:id{[0-9]+}/attendance", requireStaff, async (c) => {
    const id = pathId(c, NO_BOOKING);
    assertCan(c.var.user!, "classes.book", (await bookingOf(c.var.tenant, id)).gym_id);
    const { attended } = await readBody(c, attendanceRequest);
    const marked = await markAttendance(c.var.tenant, id, attended, now(c));
    return c.json({ data: await answer(c, marked.id) });
  })
  /** POST /api/classes/{id}/messages { subject?, body }: e-mailed (and pushed where allowed) to everyone holding a place. */
  .post("/classes/:id{[0-9]+}/messages", requireStaff, async (c) => {
    const id = pathId(c, NO_CLASS);
    assertCan(c.var.user!, "classes.book", await classGym(c.var.tenant, id));
    const req = await readBody(c, classMessageRequest);
    const to = await holdersOf(c.var.tenant, id);
    if (!to.length) throw invalid({ body: ["No one is booked into this class yet"] });
    tellClassAfterCommit(c, id, to, { ...req, key: randomUUID() });
    return c.json({ data: { sent_to: to.length } }, 201);
  });
