import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, jsEnabled, PASSWORD, signIn, SIGNUP, submitAndSettle } from "./helpers";

/**
 * Group classes, booking (issue 34), with JavaScript on and off: the demo member books, joins a waitlist, sees why a
 * class is not theirs to book, and cancels, on a phone; staff work a class's roster at 1366×768 (add and remove a
 * member, mark attendance, message everyone booked). The two projects share the demo's database: each leaves the
 * classes as it found them.
 */
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const noViolations = async (page: Page) => {
  if (!jsEnabled(test.info())) return;
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
};
const shot = async (page: Page, name: string) => {
  if (jsEnabled(test.info())) await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
};

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

/** The week (this, else next) where a button of this name shows. */
async function weekWith(page: Page, button: string) {
  if (await page.getByRole("button", { name: button }).count()) return;
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page.getByRole("link", { name: "Next week" })).toHaveAttribute("aria-current", "page");
}

const card = (page: Page, button: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: button }) })
    .first();

test("a member books a class, joins a waitlist, sees why not, and cancels (phone)", async ({ page }) => {
  await signInAsMorgan(page);
  await page.getByRole("link", { name: "Classes" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership/classes`);
  await expect(page.getByRole("heading", { level: 1, name: "Classes" })).toBeVisible();
  await weekWith(page, "Book Spin");

  // Book: the page again says so, the class says Booked and offers to cancel.
  const spin = card(page, "Book Spin");
  const spinId = await spin.getAttribute("id");
  await expect(spin).toContainText(/\d+ places? left/);
  await submitAndSettle(page, spin.getByRole("button", { name: "Book Spin" }));
  await expect(page.getByRole("status")).toHaveText("You are booked in.");
  const booked = page.locator(`[id="${spinId}"]`);
  await expect(booked).toContainText("Booked");
  await expect(booked.getByRole("button", { name: "Cancel booking" })).toBeVisible();
  // Yoga is not in Morgan's membership: the reason, no button.
  await expect(page.getByText("Your membership does not include Yoga.").first()).toBeVisible();
  await noViolations(page);
  await shot(page, "member-classes-booked");

  // Boxing is full: the waitlist, then leaving it.
  await weekWith(page, "Join waitlist");
  const boxing = card(page, "Join waitlist");
  const boxingId = await boxing.getAttribute("id");
  await expect(boxing).toContainText("Full");
  await submitAndSettle(page, boxing.getByRole("button", { name: "Join waitlist" }));
  await expect(page.getByRole("status")).toContainText("You are on the waitlist.");
  const waiting = page.locator(`[id="${boxingId}"]`);
  await expect(waiting).toContainText("On the waitlist");
  await shot(page, "member-classes-waitlist");
  await submitAndSettle(page, waiting.getByRole("button", { name: "Leave waitlist" }));
  await expect(page.getByRole("status")).toHaveText("Your booking is cancelled.");
  await expect(page.locator(`[id="${boxingId}"]`).getByRole("button", { name: "Join waitlist" })).toBeVisible();

  // Cancel the Spin booking (in whichever week it is).
  if (!(await page.locator(`[id="${spinId}"]`).count())) await page.getByRole("link", { name: "This week" }).click();
  await submitAndSettle(page, page.locator(`[id="${spinId}"]`).getByRole("button", { name: "Cancel booking" }));
  await expect(page.getByRole("status")).toHaveText("Your booking is cancelled.");
  await expect(page.locator(`[id="${spinId}"]`).getByRole("button", { name: "Book Spin" })).toBeVisible();
  expect(await page.locator("body").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);

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
  const context = await browser.newContext();
  const api = context.request;
  const headers = { "x-requested-with": "XMLHttpRequest" };
  expect((await api.post(`${BACKOFFICE}/api/login`, { data: { email: "member@example.com", password: PASSWORD }, headers })).ok()).toBeTruthy();
  expect((await api.post(`${BACKOFFICE}/api/email/verify`, { data: { code: await codeFor(page, "member@example.com") }, headers })).ok()).toBeTruthy();
  const all = [];
  for (const week of ["0", "1"]) all.push(...(await (await api.get(`${BACKOFFICE}/api/me/classes?week=${week}`)).json()).data.classes);
  await context.close();
  return all as { id: number; capacity: number; class_type: { name: string }; action: string | null; reason: string | null; starts_at: string }[];
}

test("staff work a class's roster: add and remove a member, mark attendance, message everyone booked (1366×768)", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  const classes = await memberClasses(browser, page);
  const upcoming = classes.find((c) => c.class_type.name === "Spin" && c.action === "book")!;
  // The demo's Spin on now (ten places, three hours long), with two booked.
  const running = classes.find((c) => c.class_type.name === "Spin" && c.capacity === 10 && c.reason === "This class has already started.")!;
  expect(upcoming && running).toBeTruthy();

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
  await noViolations(page);
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

  // The class on now: attendance marked, then a no-show.
  await page.goto(`${BACKOFFICE}/classes/${running.id}`);
  const here = page.getByRole("region", { name: /^Booked/ });
  const first = here.getByRole("row").nth(1);
  const name = (await first.getByRole("link").innerText()).trim();
  await submitAndSettle(page, first.getByRole("button", { name: `Attended ${name}` }));
  await expect(page.getByText("Marked attended", { exact: true })).toBeVisible();
  await expect(here.getByRole("row", { name: new RegExp(name) })).toContainText("Attended");
  await submitAndSettle(page, here.getByRole("row", { name: new RegExp(name) }).getByRole("button", { name: `No-show ${name}` }));
  await expect(here.getByRole("row", { name: new RegExp(name) })).toContainText("No-show");
  await noViolations(page);
  await shot(page, "staff-class-attendance");
});
