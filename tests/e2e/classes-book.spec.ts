import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, expectAccessible, jsEnabled, PASSWORD, signIn, SIGNUP, submitAndSettle } from "./helpers";

/**
 * Group classes, booking (issue 34), with JavaScript on and off: the demo member books, joins a waitlist, sees why a
 * class is not theirs to book, and cancels, on a phone; staff work a class's roster at 1366×768 (add and remove a
 * member, mark attendance, message everyone booked). The two projects share the demo's database: each leaves the
 * classes as it found them.
 *
 * The demo's timetable (server/seed/demo-classes.ts) gives the upcoming Spin classes at Morgan's gym (Central). What
 * it need not have at the hour the run starts is made here through the staff API, once for both projects
 * (`classFixtures`): a class type Morgan's membership leaves out (Aqua), a Boxfit class that is full with room on its
 * waitlist, and a Spin class whose attendance is open (starting within the half hour) with two members booked.
 */
const shot = async (page: Page, name: string) => {
  if (jsEnabled(test.info())) await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
};

const XHR = { "x-requested-with": "XMLHttpRequest" };

/** An API session of its own for `email` (password and e-mailed code), in a new browser context. */
async function apiAs(browser: Browser, page: Page, email: string) {
  const context = await browser.newContext();
  const api = context.request;
  expect((await api.post(`${BACKOFFICE}/api/login`, { data: { email, password: PASSWORD }, headers: XHR })).ok()).toBeTruthy();
  expect((await api.post(`${BACKOFFICE}/api/email/verify`, { data: { code: await codeFor(page, email) }, headers: XHR })).ok()).toBeTruthy();
  return { api, close: () => context.close() };
}

type Listed = {
  id: number;
  gym_id: number;
  gym: string;
  room: string | null;
  starts_at: string;
  class_type: { id: number; name: string };
  trainer: { id: number };
};

/** Auckland's wall-clock day and time of an instant, as the timetable's forms take them. */
function aucklandParts(at: Date) {
  const part = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland", ...o }).format(at);
  return { day: part({ year: "numeric", month: "2-digit", day: "2-digit" }), time: part({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) };
}

const FIXTURE_ROOMS = { aqua: "E2E Aqua", barre: "E2E Barre", full: "E2E full", open: "E2E open" } as const;

/**
 * The classes this spec needs beyond the seed's, made once (the second project finds them): their ids.
 * - Aqua: a class type no membership includes, once tomorrow evening at Central; Barre, the same with a drop-in
 *   price, the evening after;
 * - a full Boxfit (one place, taken by another member; a waitlist of three), the day after at the same hour;
 * - a Spin whose attendance is open: starting within the half hour (whichever trainer is free then), two members booked.
 */
async function classFixtures(api: APIRequestContext) {
  const now = new Date();
  const week = await api.get(`${BACKOFFICE}/api/classes?from=${now.toISOString()}&to=${new Date(now.getTime() + 8 * 86_400_000).toISOString()}`);
  expect(week.ok()).toBeTruthy();
  const listed = (await week.json()).data.data as Listed[];
  const central = listed.find((c) => c.gym === "Demo Fitness Central")!;
  expect(central).toBeTruthy();
  const gymId = central.gym_id;
  const types = (await (await api.get(`${BACKOFFICE}/api/class-types`)).json()).data.data as { id: number; name: string }[];
  const typeId = async (name: string) => {
    const found = types.find((t) => t.name === name);
    if (found) return found.id;
    // Barre is in no membership either, but anyone may drop in for $18.
    const made = await api.post(`${BACKOFFICE}/api/class-types`, {
      data: {
        name,
        description: "Not in any membership.",
        duration_minutes: 30,
        default_capacity: 8,
        colour: "teal",
        ...(name === "Barre" ? { drop_in_amount: 1800 } : {}),
      },
      headers: XHR,
    });
    expect(made.status(), await made.text()).toBe(201);
    return (await made.json()).data.id as number;
  };
  /** A class once at `at` (the first of `trainers` free then), or the one made before. */
  const once = async (
    room: string,
    type: string,
    at: { day: string; time: string }[],
    trainers: number[],
    fields: { duration_minutes: number; capacity: number; waitlist_size: number },
  ) => {
    const made = listed.find((c) => c.room === room);
    if (made) return made.id;
    const class_type_id = await typeId(type);
    const refused: string[] = [];
    for (const { day, time } of at)
      for (const trainer_id of trainers) {
        const res = await api.post(`${BACKOFFICE}/api/class-schedules`, {
          data: { gym_id: gymId, class_type_id, trainer_id, repeat: "once", starts_on: day, start_time: time, room, ...fields },
          headers: XHR,
        });
        if (res.status() === 201) {
          const again = await api.get(
            `${BACKOFFICE}/api/classes?gym_id=${gymId}&from=${now.toISOString()}&to=${new Date(now.getTime() + 8 * 86_400_000).toISOString()}`,
          );
          return ((await again.json()).data.data as Listed[]).find((c) => c.room === room)!.id;
        }
        expect(res.status(), await res.text()).toBe(422);
        refused.push(`${day} ${time}: ${(await res.json()).message}`);
      }
    throw new Error(`no trainer free for the ${room} class: ${refused.join("; ")}`);
  };
  // Evenings after the seed's last class and inside the calendar's 10 PM grid (the staff spec takes 8 and 8:30 PM).
  const evening = (days: number) => [{ day: aucklandParts(new Date(now.getTime() + days * 86_400_000)).day, time: "21:15" }];
  const aqua = await once(FIXTURE_ROOMS.aqua, "Aqua", evening(1), [central.trainer.id], { duration_minutes: 30, capacity: 8, waitlist_size: 0 });
  const full = await once(FIXTURE_ROOMS.full, "Boxfit", evening(2), [central.trainer.id], { duration_minutes: 30, capacity: 1, waitlist_size: 3 });
  const barre = await once(FIXTURE_ROOMS.barre, "Barre", evening(3), [central.trainer.id], { duration_minutes: 30, capacity: 8, waitlist_size: 0 });
  // Within the half hour both demo trainers may be teaching (the seed's slots): a coach of this spec's own runs it.
  const open =
    listed.find((c) => c.room === FIXTURE_ROOMS.open)?.id ??
    (await once(FIXTURE_ROOMS.open, "Spin", [aucklandParts(new Date(now.getTime() + 20 * 60_000))], [await coach(api, gymId)], {
      duration_minutes: 90,
      capacity: 10,
      waitlist_size: 0,
    }));

  // Members of Central who book Spin (the seeded Spin rosters): one into the full class, two into the open one.
  const fill = async (classId: number, want: number) => {
    const roster = async (id: number) => (await (await api.get(`${BACKOFFICE}/api/classes/${id}/roster`)).json()).data;
    let held = ((await roster(classId)).bookings as { status: string }[]).filter((b) => b.status !== "cancelled").length;
    for (const spin of listed.filter((c) => c.gym_id === gymId && c.class_type.name === "Spin")) {
      for (const b of (await roster(spin.id)).bookings as { member: { id: number; email: string } }[]) {
        if (held >= want) return;
        if (b.member.email === "member@example.com") continue;
        const res = await api.post(`${BACKOFFICE}/api/classes/${classId}/bookings`, { data: { member_id: b.member.id }, headers: XHR });
        if (res.status() === 201) held++;
      }
    }
    expect(held).toBe(want);
  };
  await fill(full, 1);
  await fill(open, 2);
  return { aqua, barre, full, open };
}

/** A personal trainer at the gym of this spec's own (found again by e-mail on a later run against the same database). */
async function coach(api: APIRequestContext, gymId: number) {
  const me = (await (await api.get(`${BACKOFFICE}/api/me`)).json()).data;
  const res = await api.post(`${BACKOFFICE}/api/organisations/${me.current_organisation.id}/staff`, {
    data: { email: "e2e.coach@example.org", name: "Casey Coach", role: "personal_trainer", gyms: [{ id: gymId, role: "personal_trainer" }], invite: false },
    headers: XHR,
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.id as number;
}

let fixtures: Awaited<ReturnType<typeof classFixtures>>;
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const staff = await apiAs(browser, page, "admin@example.com");
  fixtures = await classFixtures(staff.api);
  await staff.close();
  await context.close();
});

async function signInAsMorgan(page: Page) {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${SIGNUP}/sign-in`);
  await page.getByLabel("E-mail", { exact: true }).fill("member@example.com");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code?twoFactorAuth=1`);
  await page.getByLabel("Code").fill(await codeFor(page, "member@example.com"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
}

/** This class on the member's timetable, at the week (this, else next) where it is. */
async function weekOf(page: Page, classId: number) {
  const found = page.locator(`[id="class-${classId}"]`);
  await page.goto(`${SIGNUP}/membership/classes?week=0`);
  if (await found.count()) return found;
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page.getByRole("link", { name: "Next week" })).toHaveAttribute("aria-current", "page");
  return found;
}

test("a member books a class, joins a waitlist, sees why not, and cancels (phone)", async ({ page, browser }) => {
  // A seeded Spin open to book, well before the cancel cut-off (cancelling it then is no late cancellation).
  const later = Date.now() + 3 * 3_600_000;
  const bookable = (await memberClasses(browser, page)).find((c) => c.class_type.name === "Spin" && c.action === "book" && Date.parse(c.starts_at) > later)!;
  expect(bookable).toBeTruthy();
  await signInAsMorgan(page);
  await page.getByRole("link", { name: "Classes" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership/classes`);
  await expect(page.getByRole("heading", { level: 1, name: "Classes" })).toBeVisible();

  // Book: the page again says so, the class says Booked and offers to cancel.
  const spin = await weekOf(page, bookable.id);
  const spinId = `class-${bookable.id}`;
  await expect(spin).toContainText(/\d+ places? left/);
  await submitAndSettle(page, spin.getByRole("button", { name: "Book Spin" }));
  await expect(page.getByRole("status")).toHaveText("You are booked in.");
  const booked = page.locator(`[id="${spinId}"]`);
  await expect(booked).toContainText("Booked");
  await expect(booked.getByRole("button", { name: "Cancel booking" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "member-classes-booked");

  // Cancelled again at once: the seed has Morgan holding most of the five upcoming bookings allowed at a time.
  await submitAndSettle(page, booked.getByRole("button", { name: "Cancel booking" }));
  await expect(page.getByRole("status")).toHaveText("Your booking is cancelled.");
  await expect(page.locator(`[id="${spinId}"]`).getByRole("button", { name: "Book Spin" })).toBeVisible();
  expect(await page.locator("body").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);

  // Aqua is in no membership: the reason, no button.
  const aqua = await weekOf(page, fixtures.aqua);
  await expect(aqua).toContainText("Your membership does not include Aqua.");
  await expect(aqua.getByRole("button")).toHaveCount(0);

  // Barre is in no membership but has a drop-in price: booked and paid on Morgan's card, then cancelled in time and
  // refunded to it.
  const barre = await weekOf(page, fixtures.barre);
  await expect(barre).toContainText("Not included in your membership: a drop-in at $18.00, on your card ending 4242.");
  await submitAndSettle(page, barre.getByRole("button", { name: "Book Barre · pay $18.00" }));
  await expect(page.getByRole("status")).toHaveText("You are booked in, and your drop-in is paid. The receipt is on its way by e-mail.");
  await expect(barre).toContainText("Booked · drop-in paid");
  await expect(barre).toContainText("Cancel now and your drop-in is refunded to your card.");
  await shot(page, "member-classes-drop-in");
  await submitAndSettle(page, barre.getByRole("button", { name: "Cancel booking" }));
  await expect(page.getByRole("status")).toHaveText("Your booking is cancelled.");
  await expect(barre.getByRole("button", { name: "Book Barre · pay $18.00" })).toBeVisible();

  // The Boxfit class is full: the waitlist, then leaving it.
  const full = await weekOf(page, fixtures.full);
  await expect(full).toContainText("Full");
  await submitAndSettle(page, full.getByRole("button", { name: "Join waitlist" }));
  await expect(page.getByRole("status")).toContainText("You are on the waitlist.");
  await expect(full).toContainText("On the waitlist");
  await shot(page, "member-classes-waitlist");
  await submitAndSettle(page, full.getByRole("button", { name: "Leave waitlist" }));
  await expect(page.getByRole("status")).toHaveText("Your booking is cancelled.");
  await expect(full.getByRole("button", { name: "Join waitlist" })).toBeVisible();

  // Their classes in their phone's calendar: a private link, which a new one replaces.
  const feed = page.getByRole("region", { name: "Your classes in your phone's calendar" });
  await submitAndSettle(page, feed.getByRole("button", { name: /^(Get a calendar link|Make a new link)$/ }));
  await expect(feed.getByRole("status")).toContainText("Your calendar link is ready.");
  const url = await feed.getByLabel("Your private calendar link").inputValue();
  await feed.screenshot({ path: `test-results/screens/member-classes-feed-${test.info().project.name}.png` });
  expect(url).toMatch(/\/api\/calendar-feeds\/[A-Za-z0-9_-]+\.ics$/);
  const ics = await page.request.get(url);
  expect(ics.ok()).toBeTruthy();
  expect(await ics.text()).toContain("BEGIN:VCALENDAR");
  await submitAndSettle(page, feed.getByRole("button", { name: "Turn the link off" }));
  await expect(feed.getByRole("status")).toHaveText("Your calendar link is turned off.");
  expect((await page.request.get(url)).status()).toBe(404);
});

/** The demo member's classes, through the API in a browser of their own: the ids the roster pages are opened at. */
async function memberClasses(browser: Browser, page: Page) {
  const member = await apiAs(browser, page, "member@example.com");
  const all = [];
  for (const week of ["0", "1"]) all.push(...(await (await member.api.get(`${BACKOFFICE}/api/me/classes?week=${week}`)).json()).data.classes);
  await member.close();
  return all as { id: number; capacity: number; class_type: { name: string }; action: string | null; reason: string | null; starts_at: string }[];
}

test("staff work a class's roster: add and remove a member, mark attendance, message everyone booked (1366×768)", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  const classes = await memberClasses(browser, page);
  // A seeded Spin Morgan may book, well before the cancel cut-off (removing her then is no late cancellation).
  const later = Date.now() + 3 * 3_600_000;
  const upcoming = classes.find((c) => c.class_type.name === "Spin" && c.action === "book" && c.id !== fixtures.open && Date.parse(c.starts_at) > later)!;
  expect(upcoming).toBeTruthy();

  // Add Morgan to an upcoming Spin, found by name.
  await page.goto(`${BACKOFFICE}/classes/${upcoming.id}`);
  await expect(page.getByRole("heading", { level: 1, name: /Spin/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Change or cancel this class" })).toHaveAttribute("href", `/classes/${upcoming.id}/edit`);
  await page.getByRole("searchbox", { name: "Name, e-mail or code" }).fill("Morgan");
  await page.getByRole("button", { name: "Find" }).click();
  await submitAndSettle(page, page.getByRole("list", { name: "Members found" }).getByRole("button", { name: "Add Morgan Member" }));
  await expect(page.getByText("Booked in", { exact: true })).toBeVisible();
  const booked = page.getByRole("region", { name: /^Booked/ });
  await expect(booked.getByRole("row", { name: /Morgan Member/ })).toContainText("Booked");

  // A message with no words answers on its field, then goes.
  await submitAndSettle(page, page.getByRole("button", { name: /^Send to \d+ booked$/ }));
  await expect(page.getByText("Value is required")).toBeVisible();
  await page.getByLabel("Message", { exact: true }).fill(`Bring a towel (${test.info().project.name}).`);
  await submitAndSettle(page, page.getByRole("button", { name: /^Send to \d+ booked$/ }));
  await expect(page.getByText("Message sent", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "staff-class-roster");

  // Remove Morgan again: the place is given back.
  await submitAndSettle(page, booked.getByRole("button", { name: "Remove Morgan Member" }));
  await expect(page.getByText("Removed from the class", { exact: true })).toBeVisible();
  await expect(
    page
      .getByRole("region", { name: /^Cancelled/ })
      .getByRole("row", { name: /Morgan Member/ })
      .first(),
  ).toContainText("Cancelled");
  await expect(booked.getByRole("row", { name: /Morgan Member/ })).toHaveCount(0);

  // Barre is not in Morgan's membership: added as a drop-in paid in cash at the desk, then removed (desk money goes
  // back at the desk, by hand).
  await page.goto(`${BACKOFFICE}/classes/${fixtures.barre}`);
  await page.getByRole("searchbox", { name: "Name, e-mail or code" }).fill("Morgan");
  await page.getByRole("button", { name: "Find" }).click();
  await page.getByLabel("If their membership does not include Barre: a drop-in at $18.00, paid").selectOption("cash");
  await submitAndSettle(page, page.getByRole("button", { name: "Add Morgan Member" }));
  await expect(page.getByText("Booked in as a drop-in", { exact: true })).toBeVisible();
  await expect(page.getByText("Paid by cash at the desk.")).toBeVisible();
  const barre = page.getByRole("region", { name: /^Booked/ }).getByRole("row", { name: /Morgan Member/ });
  await expect(barre).toContainText("Drop-in $18.00 · paid (cash)");
  await shot(page, "staff-class-drop-in");
  await submitAndSettle(page, barre.getByRole("button", { name: "Remove Morgan Member" }));
  await expect(page.getByText("Removed from the class", { exact: true })).toBeVisible();

  // The class about to start (its attendance open), two booked: attendance marked, then a no-show.
  await page.goto(`${BACKOFFICE}/classes/${fixtures.open}`);
  const here = page.getByRole("region", { name: /^Booked/ });
  const first = here.getByRole("row").nth(1);
  const name = (await first.getByRole("link").innerText()).trim();
  await submitAndSettle(page, first.getByRole("button", { name: `Attended ${name}` }));
  await expect(page.getByText("Marked attended", { exact: true })).toBeVisible();
  await expect(here.getByRole("row", { name: new RegExp(name) })).toContainText("Attended");
  await submitAndSettle(page, here.getByRole("row", { name: new RegExp(name) }).getByRole("button", { name: `No-show ${name}` }));
  await expect(here.getByRole("row", { name: new RegExp(name) })).toContainText("No-show");
  await expectAccessible(page);
  await shot(page, "staff-class-attendance");
});
