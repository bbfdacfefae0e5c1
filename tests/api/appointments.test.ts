import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarFixture, type CalendarFixture } from "./calendar-fixture";
import { lastMail } from "./harness";

/**
 * The calendar's appointments (issue 16, first slice): a trainer books their own time and is never booked twice at
 * once (the refusal names the clash); admins book anyone at their gyms; trainers do not see each other's; members are
 * told by e-mail; organisations without calendar and messaging have no calendar.
 */
let fx: CalendarFixture;
let env: CalendarFixture["env"];
let admin: CalendarFixture["admin"];
let tess: CalendarFixture["tess"];
let theo: CalendarFixture["theo"];
let quiet: CalendarFixture["quiet"];
let ids: CalendarFixture["ids"];

// Thursday 26 November 2026, New Zealand daylight time (+13:00).
const at = (hhmm: string) => `2026-11-26T${hhmm}:00+13:00`;

beforeAll(async () => {
  fx = await calendarFixture("cal.");
  ({ env, admin, tess, theo, quiet, ids } = fx);
});
afterAll(() => env?.close?.());

describe("appointments", () => {
  let first: number;

  it("lets a trainer book their own time with a member, and tells the member", async () => {
    const res = await tess.call("POST", "/api/appointments", { trainer_id: ids.tess, member_id: ids.mia, gym_id: ids.north, starts_at: at("09:00"), ends_at: at("10:00"), notes: "Deadlift form" });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ trainer: { name: "Tess Trainer", calendar_colour: "green" }, member: { name: "Mia Member" }, gym: "North", notes: "Deadlift form" });
    first = res.json.data.id;
    const mail = (await lastMail(env.db, fx.email("mia")))!;
    expect(mail.subject).toBe("Your session is booked");
    expect(mail.text).toContain("Your session with Tess Trainer at North is booked for Thursday 26 November at 9:00 AM.");
  });

  it("never books a trainer twice at once, and says which appointment it clashes with", async () => {
    const res = await tess.call("POST", "/api/appointments", { trainer_id: ids.tess, member_id: ids.mia, gym_id: ids.north, starts_at: at("09:30"), ends_at: at("10:30") });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ starts_at: ["Tess Trainer is already booked then: Thu 26 Nov, 9:00 AM to 10:00 AM with Mia Member"] });
    // Back to back is fine, and another trainer at the same time too, with another member: Mia is busy then.
    expect((await tess.call("POST", "/api/appointments", { trainer_id: ids.tess, member_id: ids.mia, gym_id: ids.north, starts_at: at("10:00"), ends_at: at("11:00") })).status).toBe(201);
    const busyMember = await admin.call("POST", "/api/appointments", { trainer_id: ids.theo, member_id: ids.mia, gym_id: ids.north, starts_at: at("09:00"), ends_at: at("10:00") });
    expect(busyMember.json.errors).toEqual({ starts_at: ["Mia Member already has a session then: Thu 26 Nov, 9:00 AM to 10:00 AM with Tess Trainer"] });
    expect((await admin.call("POST", "/api/appointments", { trainer_id: ids.theo, member_id: ids.noah, gym_id: ids.north, starts_at: at("09:00"), ends_at: at("10:00") })).status).toBe(201);
  });

  it("keeps trainers to their own appointments; admins see everyone's", async () => {
    expect((await tess.call("POST", "/api/appointments", { trainer_id: ids.theo, member_id: ids.mia, gym_id: ids.north, starts_at: at("14:00"), ends_at: at("15:00") })).status).toBe(403);
    const week = `from=${encodeURIComponent(at("00:00"))}&to=${encodeURIComponent("2026-11-27T00:00:00+13:00")}`;
    const theirs = (await theo.call("GET", `/api/appointments?${week}`)).json.data.data;
    expect(theirs.map((a: { trainer: { name: string } }) => a.trainer.name)).toEqual(["Theo Trainer"]);
    expect((await theo.call("GET", `/api/appointments/${first}`)).status).toBe(404);
    expect((await theo.call("PUT", `/api/appointments/${first}`, { starts_at: at("12:00"), ends_at: at("13:00") })).status).toBe(404);
    expect((await admin.call("GET", `/api/appointments?${week}`)).json.data.data).toHaveLength(3);
  });

  it("moves and resizes, refusing a clash, and tells the member", async () => {
    expect((await tess.call("PUT", `/api/appointments/${first}`, { starts_at: at("10:30"), ends_at: at("11:30") })).json.errors.starts_at[0]).toMatch(/^Tess Trainer is already booked then: Thu 26 Nov, 10:00 AM to 11:00 AM/);
    const moved = await tess.call("PUT", `/api/appointments/${first}`, { starts_at: at("12:00"), ends_at: at("13:30") });
    expect(moved.status).toBe(200);
    expect((await lastMail(env.db, fx.email("mia")))!.text).toContain("has moved from Thursday 26 November at 9:00 AM to Thursday 26 November at 12:00 PM");
  });

  it("cancels, once", async () => {
    expect((await tess.call("DELETE", `/api/appointments/${first}`)).status).toBe(200);
    expect((await lastMail(env.db, fx.email("mia")))!.subject).toBe("Your session is cancelled");
    const week = `from=${encodeURIComponent(at("00:00"))}&to=${encodeURIComponent("2026-11-27T00:00:00+13:00")}`;
    expect((await tess.call("GET", `/api/appointments?${week}`)).json.data.data.some((a: { id: number }) => a.id === first)).toBe(false);
    expect((await tess.call("PUT", `/api/appointments/${first}`, { starts_at: at("15:00"), ends_at: at("16:00") })).json.errors).toEqual({ _: ["This appointment was cancelled: book a new one"] });
  });

  it("checks what is asked", async () => {
    const book = (body: Record<string, unknown>) => admin.call("POST", "/api/appointments", { trainer_id: ids.tess, member_id: ids.mia, gym_id: ids.north, starts_at: at("16:00"), ends_at: at("17:00"), ...body });
    expect((await admin.call("POST", "/api/appointments", {})).json.errors).toMatchObject({ trainer_id: ["Value is required"], member_id: ["Value is required"], starts_at: ["Value is required"], ends_at: ["Value is required"] });
    expect((await book({ ends_at: at("15:00") })).json.errors).toEqual({ ends_at: ["Choose an end after the start"] });
    expect((await book({ ends_at: "2026-11-27T06:00:00+13:00" })).json.errors).toEqual({ ends_at: ["An appointment can be at most 12 hours"] });
    expect((await book({ starts_at: "tomorrow" })).json.errors).toEqual({ starts_at: ["Enter a date and time"] });
    expect((await book({ member_id: ids.tess })).json.errors).toEqual({ member_id: ["Choose one of your members"] });
    expect((await book({ gym_id: ids.south })).json.errors).toEqual({ trainer_id: ["Choose a trainer who works at this gym"] });
  });

  it("does not exist for an organisation without calendar and messaging", async () => {
    expect((await quiet.call("GET", `/api/appointments?from=${encodeURIComponent(at("00:00"))}&to=${encodeURIComponent(at("23:00"))}`)).status).toBe(404);
    expect((await quiet.call("POST", "/api/appointments", {})).status).toBe(404);
  });
});
