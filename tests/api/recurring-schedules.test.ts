import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { push_outbox, recurring_schedules, sandbox_links } from "../../server/core/db/schema";
import { calendarFixture, type CalendarFixture } from "./calendar-fixture";
import { browser, lastMail } from "./harness";

/**
 * Recurring schedules (issue 16): weekly sessions as an RRULE whose occurrences show on the calendar at the same
 * Auckland wall-clock time on both sides of daylight saving; one session moved or cancelled alone; a series changed
 * from a date leaving the past alone; ended; the member's schedule; clashes with appointments both ways; the trainer's
 * private calendar feed. The clock is Monday 14 September 2026, two weeks before daylight saving starts (27 Sep).
 */
const NOW = new Date("2026-09-14T09:00:00+12:00");
let fx: CalendarFixture;
let env: CalendarFixture["env"];
let admin: CalendarFixture["admin"];
let tess: CalendarFixture["tess"];
let theo: CalendarFixture["theo"];
let quiet: CalendarFixture["quiet"];
let ids: CalendarFixture["ids"];
type Entry = { id: number | null; series_id: number | null; occurrence_day: string | null; starts_at: string; ends_at: string; member: { name: string } };

const range = (from: string, to: string) => `from=${encodeURIComponent(`${from}T00:00:00+12:00`)}&to=${encodeURIComponent(`${to}T00:00:00+13:00`)}`;
const week = async (who: typeof tess, from: string, to: string): Promise<Entry[]> => (await who.call("GET", `/api/appointments?${range(from, to)}`)).json.data.data;

beforeAll(async () => {
  fx = await calendarFixture("rs.", { now: NOW });
  ({ env, admin, tess, theo, quiet, ids } = fx);
});
afterAll(() => env?.close?.());

describe("recurring schedules", () => {
  let series: number;
  const create = (who: typeof tess, body: Record<string, unknown>) =>
    who.call("POST", "/api/recurring-schedules", { trainer_id: ids.tess, member_id: ids.mia, gym_id: ids.north, days: [2, 4], start_time: "07:00", end_time: "08:00", starts_on: "2026-09-15", ...body });

  it("books weekly sessions and tells the member by e-mail and push", async () => {
    const res = await create(tess, { count: 8, notes: "Strength block" });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ rrule: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8", days: [2, 4], count: 8, starts_on: "2026-09-15", ends_on: "2026-10-08", start_time: "07:00", end_time: "08:00", summary: "Tuesdays and Thursdays, 7:00 AM to 8:00 AM", trainer: { name: "Tess Trainer" } });
    series = res.json.data.id;
    const mail = (await lastMail(env.db, fx.email("mia")))!;
    expect(mail.subject).toBe("Your regular sessions are booked");
    expect(mail.text).toContain("Tuesdays and Thursdays, 7:00 AM to 8:00 AM, from Tue 15 Sep 2026, 8 sessions");
    const [push] = await env.db.select().from(push_outbox).where(eq(push_outbox.external_id, `user-${ids.mia}`)).orderBy(desc(push_outbox.id));
    expect(push).toMatchObject({ heading: "Your regular sessions are booked" });
    // The push opens the member app at the series (a deep link: the sandbox's short link on our own address).
    const code = push.url!.match(/\/api\/links\/([\w-]+)$/)![1];
    const [link] = await env.db.select().from(sandbox_links).where(eq(sandbox_links.code, code));
    expect(link).toMatchObject({ feature: "calendar", channel: "push", data: { recurring_schedule_id: String(series) } });
    expect(link.url).toMatch(/\/welcome-to-gym$/);
  });

  it("shows its sessions on the calendar at 7:00 AM on both sides of daylight saving", async () => {
    const entries = await week(tess, "2026-09-21", "2026-10-05");
    const ours = entries.filter((e) => e.series_id === series);
    expect(ours.map((e) => [e.occurrence_day, e.starts_at, e.id])).toEqual([
      ["2026-09-22", "2026-09-21T19:00:00.000Z", null],
      ["2026-09-24", "2026-09-23T19:00:00.000Z", null],
      ["2026-09-29", "2026-09-28T18:00:00.000Z", null],
      ["2026-10-01", "2026-09-30T18:00:00.000Z", null],
    ]);
  });

  it("refuses what would double-book the trainer, both ways, naming the clash", async () => {
    const oneOff = await tess.call("POST", "/api/appointments", { trainer_id: ids.tess, member_id: ids.noah, gym_id: ids.north, starts_at: "2026-09-29T07:30:00+13:00", ends_at: "2026-09-29T08:30:00+13:00" });
    expect(oneOff.json.errors).toEqual({ starts_at: ["Tess Trainer is already booked then: Tue 29 Sep, 7:00 AM to 8:00 AM with Mia Member"] });
    const other = await create(tess, { member_id: ids.noah, days: [4], start_time: "07:30", end_time: "08:30", starts_on: "2026-09-16" });
    expect(other.json.errors).toEqual({ start_time: ["Tess Trainer is already booked then: Thu 17 Sep, 7:00 AM to 8:00 AM with Mia Member"] });
    // Another trainer then is fine, with another member: the member cannot be in two sessions at once either.
    expect((await create(admin, { trainer_id: ids.theo, member_id: ids.noah, days: [4], count: 2 })).status).toBe(201);
    const mia = await admin.call("POST", "/api/appointments", { trainer_id: ids.theo, member_id: ids.mia, gym_id: ids.north, starts_at: "2026-09-29T07:30:00+13:00", ends_at: "2026-09-29T08:30:00+13:00" });
    expect(mia.json.errors).toEqual({ starts_at: ["Mia Member already has a session then: Tue 29 Sep, 7:00 AM to 8:00 AM with Tess Trainer"] });
    const miaWeekly = await create(admin, { trainer_id: ids.theo, days: [2], start_time: "07:45", end_time: "08:15", starts_on: "2026-10-06" });
    expect(miaWeekly.json.errors).toEqual({ start_time: ["Mia Member already has a session then: Tue 6 Oct, 7:00 AM to 8:00 AM with Tess Trainer"] });
  });

  it("cancels one session, leaving the rest", async () => {
    const res = await tess.call("DELETE", `/api/recurring-schedules/${series}/occurrences/2026-09-17`);
    expect(res.status).toBe(200);
    expect((await lastMail(env.db, fx.email("mia")))!.text).toContain("on Thursday 17 September at 7:00 AM is cancelled");
    const days = (await week(tess, "2026-09-14", "2026-09-21")).filter((e) => e.series_id === series).map((e) => e.occurrence_day);
    expect(days).toEqual(["2026-09-15"]);
    expect((await tess.call("DELETE", `/api/recurring-schedules/${series}/occurrences/2026-09-17`)).status).toBe(200);
    expect((await tess.call("DELETE", `/api/recurring-schedules/${series}/occurrences/2026-09-16`)).status).toBe(404);
    expect((await tess.call("DELETE", `/api/recurring-schedules/${series}/occurrences/not-a-day`)).status).toBe(404);
  });

  it("moves one session, leaving the rest", async () => {
    const res = await tess.call("PUT", `/api/recurring-schedules/${series}/occurrences/2026-09-22`, { starts_at: "2026-09-23T12:00:00+12:00", ends_at: "2026-09-23T13:00:00+12:00" });
    expect(res.status).toBe(200);
    expect((await lastMail(env.db, fx.email("mia")))!.text).toContain("has moved from Tuesday 22 September at 7:00 AM to Wednesday 23 September at 12:00 PM");
    const ours = (await week(tess, "2026-09-21", "2026-09-28")).filter((e) => e.series_id === series);
    expect(ours.map((e) => [e.occurrence_day, e.starts_at, typeof e.id])).toEqual([
      ["2026-09-22", "2026-09-23T00:00:00.000Z", "number"],
      ["2026-09-24", "2026-09-23T19:00:00.000Z", "object"],
    ]);
  });

  it("moves a session by less than its length (a drag or a resize), overlapping where it was", async () => {
    const res = await tess.call("PUT", `/api/recurring-schedules/${series}/occurrences/2026-09-29`, { starts_at: "2026-09-29T07:15:00+13:00", ends_at: "2026-09-29T08:30:00+13:00" });
    expect(res.status).toBe(200);
    const moved = (await week(tess, "2026-09-28", "2026-10-05")).filter((e) => e.series_id === series && e.occurrence_day === "2026-09-29");
    expect(moved.map((e) => [e.starts_at, e.ends_at, typeof e.id])).toEqual([["2026-09-28T18:15:00.000Z", "2026-09-28T19:30:00.000Z", "number"]]);
  });

  it("changes the series from a date, leaving the past alone", async () => {
    const res = await tess.call("PUT", `/api/recurring-schedules/${series}`, { from: "2026-10-01", days: [1], start_time: "18:00", end_time: "19:00", notes: "Evening block" });
    expect(res.status).toBe(200);
    const next = res.json.data;
    expect(next).toMatchObject({ previous_id: series, starts_on: "2026-10-05", days: [1], summary: "Mondays, 6:00 PM to 7:00 PM", ends_on: null });
    const [old] = await env.db.select().from(recurring_schedules).where(eq(recurring_schedules.id, series));
    // Five sessions were before 1 October (15, 17, 22, 24, 29 Sep): the counted rule became one that ends on 30 September.
    expect(old).toMatchObject({ rrule: "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260930T000000Z", ends_on: "2026-09-29" });
    const entries = (await week(tess, "2026-09-14", "2026-10-12")).filter((e) => e.series_id === series || e.series_id === next.id);
    expect(entries.map((e) => e.occurrence_day)).toEqual(["2026-09-15", "2026-09-22", "2026-09-24", "2026-09-29", "2026-10-05"]);
    expect(entries.at(-1)!.starts_at).toBe("2026-10-05T05:00:00.000Z");
    expect((await lastMail(env.db, fx.email("mia")))!.subject).toBe("Your regular sessions have changed");
    expect((await tess.call("PUT", `/api/recurring-schedules/${next.id}`, { from: "2026-09-01", days: [1], start_time: "18:00", end_time: "19:00" })).json.errors).toEqual({ from: ["Choose today or a later day: the past stays as it was"] });
    series = next.id;
  });

  it("lists a member's recurring schedule, as their member page shows it", async () => {
    const res = await admin.call("GET", `/api/users/${ids.mia}/recurring-schedule`);
    expect(res.status).toBe(200);
    expect(res.json.data.data.map((s: { summary: string }) => s.summary)).toEqual([
      "Tuesdays and Thursdays, 7:00 AM to 8:00 AM",
      "Mondays, 6:00 PM to 7:00 PM",
    ]);
    expect(res.json.data.data[1].next_sessions.map((e: Entry) => e.occurrence_day)).toEqual(["2026-10-05", "2026-10-12", "2026-10-19"]);
  });

  it("ends a series from a date", async () => {
    const res = await tess.call("DELETE", `/api/recurring-schedules/${series}?from=2026-10-19`);
    expect(res.status).toBe(200);
    const days = (await week(tess, "2026-10-05", "2026-11-02")).filter((e) => e.series_id === series).map((e) => e.occurrence_day);
    expect(days).toEqual(["2026-10-05", "2026-10-12"]);
    expect((await lastMail(env.db, fx.email("mia")))!.subject).toBe("Your regular sessions are ending");
  });

  it("keeps trainers to their own series; admins see everyone's", async () => {
    expect((await theo.call("GET", `/api/recurring-schedules/${series}`)).status).toBe(404);
    expect((await theo.call("DELETE", `/api/recurring-schedules/${series}/occurrences/2026-10-05`)).status).toBe(404);
    expect((await theo.call("GET", "/api/recurring-schedules")).json.data.data.map((s: { trainer: { name: string } }) => s.trainer.name)).toEqual(["Theo Trainer"]);
    expect((await admin.call("GET", "/api/recurring-schedules")).json.data.data.length).toBeGreaterThanOrEqual(2);
    expect((await create(tess, { trainer_id: ids.theo, days: [6] })).status).toBe(403);
  });

  it("checks what is asked", async () => {
    expect((await create(admin, { days: [] })).json.errors).toEqual({ days: ["Choose at least one day"] });
    expect((await create(admin, { days: [8] })).json.errors).toEqual({ "days[0]": ["Choose days from Monday (1) to Sunday (7)"] });
    expect((await create(admin, { end_time: "06:00" })).json.errors).toEqual({ end_time: ["Choose an end after the start"] });
    expect((await create(admin, { count: 3, until: "2026-12-01" })).json.errors).toEqual({ until: ["Choose an end date or a number of sessions, not both"] });
    expect((await create(admin, { until: "2026-09-01" })).json.errors).toEqual({ until: ["Choose an end date on or after the start"] });
    expect((await create(admin, { starts_on: "2026-09-01" })).json.errors).toEqual({ starts_on: ["Choose today or a later day"] });
    expect((await create(admin, { starts_on: "2026-02-30" })).json.errors).toEqual({ starts_on: ["Enter a date"] });
    expect((await create(admin, { days: [6], until: "2026-09-18" })).json.errors).toEqual({ until: ["No session falls between these dates on the days chosen"] });
    expect((await create(admin, { count: 201 })).json.errors).toEqual({ count: ["At most 200 sessions"] });
  });

  it("gives each trainer a private calendar feed", async () => {
    expect((await tess.call("GET", "/api/calendar-feed")).json.data).toEqual({ url: null });
    const url: string = (await tess.call("POST", "/api/calendar-feed")).json.data.url;
    expect(url).toMatch(/\/api\/calendar-feeds\/[A-Za-z0-9_-]{32}\.ics$/);
    expect((await tess.call("GET", "/api/calendar-feed")).json.data.url).toBe(url);
    const feed = await browser(fx.api).call("GET", new URL(url).pathname);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("text/calendar");
    expect(feed.json).toContain("BEGIN:VCALENDAR");
    expect(feed.json).toContain("SUMMARY:Mia Member (personal training)");
    expect(feed.json).toContain("LOCATION:North");
    expect(feed.json).not.toContain("Noah Member (personal training)"); // Theo's, not Tess's.
    const renewed: string = (await tess.call("POST", "/api/calendar-feed")).json.data.url;
    expect(renewed).not.toBe(url);
    expect((await browser(fx.api).call("GET", new URL(url).pathname)).status).toBe(404);
    expect((await browser(fx.api).call("GET", "/api/calendar-feeds/nonsense.ics")).status).toBe(404);
  });

  it("keeps a moved session through a change of the series: it stands in for that day's session, or stays booked on its own", async () => {
    const made = await create(tess, { member_id: ids.noah, days: [3], start_time: "09:00", end_time: "10:00", starts_on: "2026-09-16" });
    expect(made.status).toBe(201);
    const first = made.json.data.id;
    // 23 September's session moved half an hour later.
    expect((await tess.call("PUT", `/api/recurring-schedules/${first}/occurrences/2026-09-23`, { starts_at: "2026-09-23T09:30:00+12:00", ends_at: "2026-09-23T10:30:00+12:00" })).status).toBe(200);
    // A quarter of an hour later from 21 September: the moved session is that Wednesday's, not a clash with it.
    const later = await tess.call("PUT", `/api/recurring-schedules/${first}`, { from: "2026-09-21", days: [3], start_time: "09:15", end_time: "10:15" });
    expect(later.status).toBe(200);
    const next = later.json.data.id;
    const noah = async () => (await week(tess, "2026-09-14", "2026-10-05")).filter((e) => e.member.name === "Noah Member" && [first, next, null].includes(e.series_id));
    expect((await noah()).map((e) => [e.series_id, e.occurrence_day, e.starts_at, typeof e.id])).toEqual([
      [first, "2026-09-16", "2026-09-15T21:00:00.000Z", "object"],
      [next, "2026-09-23", "2026-09-22T21:30:00.000Z", "number"],
      [next, "2026-09-30", "2026-09-29T20:15:00.000Z", "object"],
    ]);
    // The moved session is still found as that day's: moving it again changes the same row.
    expect((await tess.call("PUT", `/api/recurring-schedules/${next}/occurrences/2026-09-23`, { starts_at: "2026-09-23T11:00:00+12:00", ends_at: "2026-09-23T12:00:00+12:00" })).status).toBe(200);
    expect((await noah()).filter((e) => e.occurrence_day === "2026-09-23").map((e) => e.starts_at)).toEqual(["2026-09-22T23:00:00.000Z"]);
    // Thursdays instead: Wednesday 23's moved session stays booked as a session of its own, beside Thursday 24's.
    expect((await tess.call("PUT", `/api/recurring-schedules/${next}`, { from: "2026-09-21", days: [4], start_time: "09:15", end_time: "10:15" })).status).toBe(200);
    expect((await noah()).map((e) => [e.series_id, e.occurrence_day, e.starts_at])).toEqual([
      [first, "2026-09-16", "2026-09-15T21:00:00.000Z"],
      [null, null, "2026-09-22T23:00:00.000Z"],
      [next, "2026-09-24", "2026-09-23T21:15:00.000Z"],
      [next, "2026-10-01", "2026-09-30T20:15:00.000Z"],
    ]);
  });

  it("does not exist for an organisation without calendar and messaging", async () => {
    expect((await quiet.call("GET", "/api/recurring-schedules")).status).toBe(404);
    expect((await quiet.call("POST", "/api/calendar-feed")).status).toBe(404);
    expect((await quiet.call("GET", `/api/users/${ids.mia}/recurring-schedule`)).status).toBe(404);
  });
});
