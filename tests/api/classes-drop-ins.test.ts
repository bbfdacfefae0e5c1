import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCalendarDays, localDay, localInstant } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import {
  class_bookings,
  class_types,
  gyms,
  mail_outbox,
  organisation_users,
  payment_adjustments,
  payment_types,
  payments,
  sandbox_ledger,
  subscriptions,
} from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { chargeDropIns, refundSettledAfterCancel } from "../../server/classes/drop-ins";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";
import { scheduleClasses } from "./class-fixtures";

/**
 * Issue 34, drop-ins (decision 0066): a class the membership does not cover, paid once at the class type's price.
 * The payment is written with the place and charged after the commit with its own key; the place is kept only on
 * the provider's yes; a declined card gives it back (to the waitlist) and tells the member; a waitlisted drop-in pays
 * when a place comes; cancelled in time or with the class, it is refunded to the card; late, it is not; staff may take
 * it at the desk instead; a member owing on their membership may not drop in.
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const PASSWORD = "drop-in passphrase";
const today = localDay(new Date());
const clock = localInstant(today, "10:00");
const DAY = 86_400_000;
let orgId: number;
let gymId: number;
let yoga: number;
let tess: number;
let adminEmail: string;
let n = 0;

const CARD = { last_four: "4242", type: "visa", exp_month: "12", exp_year: "2030", payment_method: "pm_card_visa" };
const DECLINING = { last_four: "9995", type: "visa", exp_month: "12", exp_year: "2030", payment_method: "pm_card_chargeDeclinedInsufficientFunds" };

/** A member of Gym-only (which does not include Yoga) with the card given (none: no way to pay), signed in. */
async function member(card: Record<string, string> | null, extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const offering = await makeOffering(env.db, orgId, { name: `Gym only ${++n}` });
  const price = await makePrice(env.db, offering, { amount: 999, billing_frequency: "weekly" });
  const email = `drop${n}@dropins.example`;
  const user = await makeUser(env.db, { name: `Dee Dropper${n}`, email, password_hash: await hashPassword(PASSWORD), current_organisation_id: orgId });
  const s = await makeSubscription(env.db, price, user.id, gymId, {
    current_period_start: new Date(clock.getTime() - 3 * DAY),
    current_period_end: new Date(clock.getTime() + 4 * DAY),
    ...extra,
  });
  const [pt] = card
    ? await env.db.insert(payment_types).values({ organisation_id: orgId, user_id: user.id, type: "stripe_card", details: card }).returning()
    : [null];
  await addMember(env.db, user.id, orgId, gymId, { latest_subscription_id: s.id, default_payment_type_id: pt?.id ?? null });
  return { id: user.id, email, subscriptionId: s.id, b: await signedIn(api, env.db, email, PASSWORD) };
}

/** A Yoga class `days` ahead at `time` with `capacity` places and `waitlist` waiting places. */
async function yogaClass(capacity: number, waitlist = 0, days = 1, time = "07:00") {
  const [id] = await scheduleClasses(env.db, orgId, today, {
    gym: gymId,
    type: yoga,
    trainer: tess,
    capacity,
    waitlist,
    starts_on: addCalendarDays(today, days),
    start_time: time,
    rrule: null,
  });
  return id;
}

const bookingOf = async (id: number) => (await env.db.select().from(class_bookings).where(eq(class_bookings.id, id)))[0];
const paymentOf = async (id: number) => (await env.db.select().from(payments).where(eq(payments.id, id)))[0];
const chargesFor = async (key: string) =>
  env.db
    .select()
    .from(sandbox_ledger)
    .where(and(eq(sandbox_ledger.provider, "stripe"), eq(sandbox_ledger.idempotency_key, key)));
const mailsTo = async (to: string) => env.db.select().from(mail_outbox).where(eq(mail_outbox.to, to));

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock, providers: sandboxProviders(env.db) });
  const org = await makeOrganisation(env.db, { name: "Drop-in Gyms" });
  orgId = org.id;
  const gym = await makeGym(env.db, org.id, "Ponsonby");
  gymId = gym.id;
  // Cards carry 2% + 30c here: a drop-in on a card pays the gym's card surcharge, as a membership's charge does.
  await env.db.update(gyms).set({ card_surcharge_basis_points: 200, card_surcharge_fixed: 30 }).where(eq(gyms.id, gym.id));
  const [type] = await env.db
    .insert(class_types)
    .values({ organisation_id: org.id, name: "Yoga", duration_minutes: 45, default_capacity: 10, colour: "#3366aa", drop_in_amount: 1500 })
    .returning();
  yoga = type.id;
  const hash = await hashPassword(PASSWORD);
  tess = (await makeUser(env.db, { name: "Tess Trainer", email: "tess@dropins.example", password_hash: hash, current_organisation_id: org.id })).id;
  await addStaff(env.db, tess, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  adminEmail = "ada@dropins.example";
  const admin = await makeUser(env.db, { name: "Ada Admin", email: adminEmail, password_hash: hash, current_organisation_id: org.id });
  await addStaff(env.db, admin.id, org.id, "admin");
});
afterAll(() => env.close());

const staff = async () => {
  const b = await signedIn(env.api, env.db, adminEmail, PASSWORD);
  const other = browser(api);
  for (const [k, v] of b.jar) other.jar.set(k, v);
  return other;
};

describe("a member dropping in to a class their membership does not include", () => {
  it("shows the price and books it, charging the card once, with the surcharge, before the answer", async () => {
    const cls = await yogaClass(5);
    const dee = await member(CARD);
    const listed = (await dee.b.call("GET", "/api/me/classes")).json.data;
    expect(listed.card_last_four).toBe("4242");
    expect(listed.classes.find((c: { id: number }) => c.id === cls)).toMatchObject({ action: "book", drop_in: 1500, reason: null });

    const res = await dee.b.call("POST", "/api/me/class-bookings", { class_id: cls });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ status: "booked", drop_in_amount: 1500 });
    const booking = await bookingOf(res.json.data.id);
    const paid = await paymentOf(booking.payment_id!);
    // 2% of $15 + 30c: $0.60. Paid by the provider's answer, not by our say-so.
    expect(paid).toMatchObject({
      status: "sent",
      amount: 1500,
      surcharge: 60,
      type: "drop_in",
      subscription_id: null,
      user_id: dee.id,
      idempotency_key: `drop-in:${booking.id}`,
    });
    expect(paid.stripe_id).toBeTruthy();
    expect(await chargesFor(`drop-in:${booking.id}`)).toHaveLength(1);
    // Charged again (a crash before the answer was written down): the provider is asked with the same key, charges once.
    await env.db.update(payments).set({ status: "pending", stripe_id: null }).where(eq(payments.id, paid.id));
    await chargeDropIns({ db: env.db, mailer: outboxMailer(env.db), config: env.config, providers: sandboxProviders(env.db) }, [paid.id], clock);
    expect(await chargesFor(`drop-in:${booking.id}`)).toHaveLength(1);
    expect((await paymentOf(paid.id)).status).toBe("sent");
    const after = (await dee.b.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === cls);
    expect(after.my_booking).toMatchObject({ status: "booked", drop_in_amount: 1500, payment_status: "sent" });
    expect(after).toMatchObject({ action: "cancel", drop_in: 1500 });
  });

  it("gives the place back when the card is declined, tells the member, and leaves the membership alone", async () => {
    const cls = await yogaClass(1);
    const dee = await member(DECLINING);
    const res = await dee.b.call("POST", "/api/me/class-bookings", { class_id: cls });
    expect(res.status).toBe(201);
    const booking = await bookingOf(res.json.data.id);
    expect(booking.status).toBe("cancelled");
    expect(await paymentOf(booking.payment_id!)).toMatchObject({ status: "failed", error_status: "insufficient_funds" });
    expect((await mailsTo(dee.email)).map((m) => m.subject)).toContain("Your place in Yoga was not kept");
    // The only place is free again, and a failed drop-in is no membership debt: no grace period starts.
    const listed = (await dee.b.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === cls);
    expect(listed).toMatchObject({ places_left: 1, my_booking: null, action: "book" });
    const [s] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, dee.subscriptionId));
    expect(s.grace_period_ends_at).toBeNull();
  });

  it("refunds a drop-in cancelled in time to the card, and keeps a late one", async () => {
    const early = await yogaClass(5, 0, 2);
    const soon = await yogaClass(5, 0, 0, "11:00"); // an hour from the clock: inside the 2-hour cut-off
    const dee = await member(CARD);
    const a = (await dee.b.call("POST", "/api/me/class-bookings", { class_id: early })).json.data;
    const b = (await dee.b.call("POST", "/api/me/class-bookings", { class_id: soon })).json.data;
    const cancelled = await dee.b.call("DELETE", `/api/me/class-bookings/${a.id}`);
    expect(cancelled.json.data).toMatchObject({ late: false });
    const paidA = (await bookingOf(a.id)).payment_id!;
    const refunds = await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paidA));
    expect(refunds).toMatchObject([
      { kind: "refund", amount: 1560, status: "succeeded", method: "stripe", idempotency_key: `refund:${paidA}:drop-in-${a.id}` },
    ]);
    const late = await dee.b.call("DELETE", `/api/me/class-bookings/${b.id}`);
    expect(late.json.data).toMatchObject({ late: true });
    expect(
      await env.db
        .select()
        .from(payment_adjustments)
        .where(eq(payment_adjustments.payment_id, (await bookingOf(b.id)).payment_id!)),
    ).toEqual([]);
  });

  it("refunds a drop-in given up while its charge was under way, once the charge is paid, and only once", async () => {
    const cls = await yogaClass(5, 0, 3);
    const dee = await member(CARD);
    const made = (await dee.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const paymentId = (await bookingOf(made.id)).payment_id!;
    // As if the provider had not answered yet when the member cancelled: nothing taken, nothing to give back.
    await env.db.update(payments).set({ status: "pending" }).where(eq(payments.id, paymentId));
    expect((await dee.b.call("DELETE", `/api/me/class-bookings/${made.id}`)).json.data.late).toBe(false);
    expect(await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paymentId))).toEqual([]);
    // The billing run's next ask finds it paid: the class-attendance job gives it back.
    await env.db.update(payments).set({ status: "sent" }).where(eq(payments.id, paymentId));
    const deps = { db: env.db, mailer: outboxMailer(env.db), config: env.config, providers: sandboxProviders(env.db) };
    expect(await refundSettledAfterCancel(deps, clock)).toBe(1);
    expect(await refundSettledAfterCancel(deps, clock)).toBe(0);
    const refunds = await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paymentId));
    expect(refunds).toMatchObject([{ kind: "refund", amount: 1560, status: "succeeded" }]);
  });

  it("charges a waitlisted drop-in only when a place comes to them, and tells them it is theirs", async () => {
    const cls = await yogaClass(1, 2);
    const first = await member(CARD);
    const second = await member(CARD);
    const held = (await first.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const waiting = await second.b.call("POST", "/api/me/class-bookings", { class_id: cls, waitlist: true });
    expect(waiting.json.data).toMatchObject({ status: "waitlisted", drop_in_amount: 1500, payment_id: null });
    await first.b.call("DELETE", `/api/me/class-bookings/${held.id}`);
    const promoted = await bookingOf(waiting.json.data.id);
    expect(promoted.status).toBe("booked");
    expect(await paymentOf(promoted.payment_id!)).toMatchObject({ status: "sent", amount: 1500, user_id: second.id });
    const told = (await mailsTo(second.email)).find((m) => m.subject === "You have a place in Yoga");
    expect(told?.text).toMatch(/Your drop-in of \$15\.00 was charged to your card/);
  });

  it("hands a declined promotion's place on to the next in the waitlist", async () => {
    const cls = await yogaClass(1, 2);
    const first = await member(CARD);
    const declining = await member(DECLINING);
    const third = await member(CARD);
    const held = (await first.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const w1 = (await declining.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const w2 = (await third.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    expect([w1.status, w2.status]).toEqual(["waitlisted", "waitlisted"]);
    await first.b.call("DELETE", `/api/me/class-bookings/${held.id}`);
    expect((await bookingOf(w1.id)).status).toBe("cancelled");
    expect((await bookingOf(w2.id)).status).toBe("booked");
    expect((await paymentOf((await bookingOf(w2.id)).payment_id!)).status).toBe("sent");
  });

  it("releases a promotion whose member has removed their card since, telling them so in their own words", async () => {
    const cls = await yogaClass(1, 1);
    const first = await member(CARD);
    const later = await member(CARD);
    const held = (await first.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const waiting = (await later.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    await env.db.update(organisation_users).set({ default_payment_type_id: null }).where(eq(organisation_users.user_id, later.id));
    await first.b.call("DELETE", `/api/me/class-bookings/${held.id}`);
    expect((await bookingOf(waiting.id)).status).toBe("cancelled");
    const told = (await mailsTo(later.email)).find((m) => m.subject === "Your place in Yoga was not kept");
    expect(told?.text).toMatch(/could not be charged to your card \(you have no card saved\)/);
  });

  it("ties a payment to one booking only (a decline or a refund acts on exactly the booking it paid for)", async () => {
    const cls = await yogaClass(5);
    const dee = await member(CARD);
    const other = await member(CARD);
    const made = (await dee.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const second = (await other.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const paymentId = (await bookingOf(made.id)).payment_id!;
    await expect(env.db.update(class_bookings).set({ payment_id: paymentId }).where(eq(class_bookings.id, second.id))).rejects.toThrow();
  });

  it("refunds paid drop-ins when staff cancel the class", async () => {
    const cls = await yogaClass(5);
    const dee = await member(CARD);
    const made = (await dee.b.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data;
    const ada = await staff();
    expect((await ada.call("DELETE", `/api/classes/${cls}?reason=Flooded`)).status).toBe(200);
    const paymentId = (await bookingOf(made.id)).payment_id!;
    const refunds = await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paymentId));
    expect(refunds).toMatchObject([{ kind: "refund", amount: 1560, status: "succeeded", note: "The class was cancelled" }]);
  });

  it("lets staff take a drop-in at the desk (no card needed), and refuses one for a member owing on their membership", async () => {
    const cls = await yogaClass(5);
    const cardless = await member(null);
    const refused = await cardless.b.call("POST", "/api/me/class-bookings", { class_id: cls });
    expect([refused.status, refused.json.message]).toEqual([422, "Drop-ins to Yoga ($15.00) are paid by card: add a card in your payment details first."]);
    const ada = await staff();
    const desk = await ada.call("POST", `/api/classes/${cls}/bookings`, { member_id: cardless.id, drop_in_paid: "cash" });
    expect(desk.status).toBe(201);
    const p = await paymentOf(desk.json.data.payment_id);
    expect(p).toMatchObject({ status: "sent", pif_payment: "cash", amount: 1500, surcharge: 0, idempotency_key: null });
    const owing = await member(CARD, { grace_period_ends_at: new Date(clock.getTime() + 5 * DAY) });
    const no = await owing.b.call("POST", "/api/me/class-bookings", { class_id: cls });
    expect([no.status, no.json.message]).toEqual([422, "A membership payment is owing: pay it before dropping in to Yoga ($15.00)."]);
    // Staff's card charge follows the member's rules too.
    const viaStaff = await ada.call("POST", `/api/classes/${cls}/bookings`, { member_id: owing.id });
    expect(viaStaff.status).toBe(422);
    expect(viaStaff.json.errors.member_id[0]).toMatch(/membership payment is owing/);
    expect(await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, owing.id))).toHaveLength(1);
  });
});
