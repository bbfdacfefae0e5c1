import { expect, test, type Locator } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, pickMember, signIn, submitAndSettle } from "./helpers";

/** The calendar (issue 16, first slice), with JavaScript on and off: book, refuse a clash, move and cancel. */

test("books a trainer's session with a member, refuses a double booking, moves it and cancels it", async ({ page }) => {
  // Each project its own hour, next week, so the two runs never clash with each other; afternoons, when Taylor's
  // seeded classes (server/seed/demo-classes.ts) leave them free.
  const hour = jsEnabled(test.info()) ? "14" : "15";
  const at = (minutes: string) => `${Number(hour) - 12}:${minutes} PM`;
  await signIn(page);
  await page.goto(`${BACKOFFICE}/calendar`);
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page).toHaveURL(/week=\d{4}-\d{2}-\d{2}/);
  const week = new URL(page.url()).searchParams.get("week")!;
  await expectAccessible(page);

  const book = async () => {
    await pickMember(page, test.info(), "Member", "Morgan", "Morgan Member");
    const form = page.getByRole("region", { name: "Book an appointment" });
    await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
    await form.getByLabel("Day").fill(week);
    await form.getByLabel("Starts").fill(`${hour}:00`);
    await form.getByLabel("Ends").fill(`${hour}:45`);
    await submitAndSettle(page, form.getByRole("button", { name: "Book" }));
  };
  await book();
  await expect(page.getByText("Appointment booked").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${at("00")}` })).toBeVisible();

  await book();
  await expect(page.getByText(/^Taylor Trainer is already booked then: .* with Morgan Member$/)).toBeVisible();
  await expectAccessible(page);

  await page.goto(`${BACKOFFICE}/calendar?week=${week}`);
  await page.getByRole("link", { name: `Change Morgan Member's session at ${at("00")}` }).click();
  const change = page.getByRole("region", { name: /Morgan Member with Taylor Trainer/ });
  await change.getByLabel("Ends").fill(`${hour}:30`);
  await change.getByLabel("Starts").fill(`${hour}:15`);
  await submitAndSettle(page, change.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Appointment saved").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${at("15")}` })).toBeVisible();

  await page.getByRole("link", { name: `Change Morgan Member's session at ${at("15")}` }).click();
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel this appointment" }));
  await expect(page.getByText("Appointment cancelled").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${at("15")}` })).toHaveCount(0);
});

test("with JavaScript: click an empty slot to book there, drag a session to move it, drag its edge to make it longer", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "dragging is the JavaScript enhancement; the forms above cover it without");
  await signIn(page);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${BACKOFFICE}/calendar`);
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page).toHaveURL(/week=/);
  // The week after next: nothing of the other tests' is there.
  const week = new Date(Date.parse(`${new URL(page.url()).searchParams.get("week")}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${BACKOFFICE}/calendar?week=${week}`);
  const wednesday = new Date(Date.parse(`${week}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);

  // The grid starts at 6 AM, 48 pixels an hour: 11 AM is 5 hours down.
  const column = page.locator("[data-day-column]").nth(2);
  const box = (await column.boundingBox())!;
  await page.mouse.click(box.x + 20, box.y + 5 * 48 + 4);
  await expect(page).toHaveURL(new RegExp(`slot=${wednesday}T11:00`));
  await pickMember(page, test.info(), "Member", "Morgan", "Morgan Member");
  const form = page.getByRole("region", { name: "Book an appointment" });
  await expect(form.getByLabel("Starts")).toHaveValue("11:00");
  await expect(form.getByLabel("Day")).toHaveValue(wednesday);
  await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
  await submitAndSettle(page, form.getByRole("button", { name: "Book" }));
  await expect(page.getByText("Appointment booked").last()).toBeVisible();

  const session = page.getByRole("link", { name: "Change Morgan Member's session at 11:00 AM with Taylor Trainer" });
  const at = (await session.boundingBox())!;
  await page.mouse.move(at.x + 10, at.y + 10);
  await page.mouse.down();
  await page.mouse.move(at.x + 10, at.y + 40, { steps: 4 });
  await page.mouse.move(at.x + 10, at.y + 58, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByText("Appointment saved").last()).toBeVisible();
  const moved = page.getByRole("link", { name: "Change Morgan Member's session at 12:00 PM with Taylor Trainer" });
  await expect(moved).toContainText("12:00–1:00 PM");

  const edge = (await moved.boundingBox())!;
  await page.mouse.move(edge.x + 10, edge.y + edge.height - 3);
  await page.mouse.down();
  await page.mouse.move(edge.x + 10, edge.y + edge.height + 10, { steps: 4 });
  await page.mouse.move(edge.x + 10, edge.y + edge.height + 21, { steps: 4 });
  await page.mouse.up();
  await expect(moved).toContainText("12:00–1:30 PM");
  await expectAccessible(page);

  // Tidy up, so a run again starts from an empty week.
  await moved.click();
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel this appointment" }));
  await expect(page.getByText("Appointment cancelled").last()).toBeVisible();
});

/** Whether `text` (a text node's whole content, or part of it) lies inside `el`'s box: cut off or clipped, it does not. */
const readable = (block: Locator, text: string) =>
  block.evaluate((el, text) => {
    const box = el.getBoundingClientRect();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const r = range.getBoundingClientRect();
      return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    }
    return false;
  }, text);

test("at the back office's 1366 × 768 and on a phone: every hour labelled, the first too, and a 45-minute session's time and member readable", async ({ page }) => {
  // Each project its own day, Monday or Tuesday of the week after next (the drag test uses that week's Wednesday), at
  // 11 AM, between Taylor's seeded classes. "11:00 AM–11:45 AM" is as wide as a time range gets, the one that wrapped
  // and pushed the name out.
  const hour = 11;
  const dayAfter = jsEnabled(test.info()) ? 0 : 1;
  await signIn(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${BACKOFFICE}/calendar`);
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page).toHaveURL(/week=/);
  const week = new Date(Date.parse(`${new URL(page.url()).searchParams.get("week")}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
  const day = new Date(Date.parse(`${week}T00:00:00Z`) + dayAfter * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${BACKOFFICE}/calendar?week=${week}`);
  await pickMember(page, test.info(), "Member", "Morgan", "Morgan Member");
  const form = page.getByRole("region", { name: "Book an appointment" });
  await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
  await form.getByLabel("Day").fill(day);
  await form.getByLabel("Starts").fill(`${hour}:00`);
  await form.getByLabel("Ends").fill(`${hour}:45`);
  await submitAndSettle(page, form.getByRole("button", { name: "Book" }));
  await expect(page.getByText("Appointment booked").last()).toBeVisible();
  // JavaScript or not, the page was last moved to the booking form.
  await page.evaluate(() => window.scrollTo(0, 0));

  const grid = page.locator("[data-week-grid]");
  const hours = page.locator("[data-hour-labels] > span");
  // In its own day's column: the other project's session may be on the week at the same time of another day.
  const block = page.locator("[data-day-column]").nth(dayAfter).getByRole("link", { name: `Change Morgan Member's session at ${hour}:00 AM with Taylor Trainer` });
  const check = async () => {
    await expect(hours.first()).toHaveText("6:00 AM");
    const first = (await hours.first().boundingBox())!;
    const top = (await page.locator("[data-day-column]").nth(dayAfter).boundingBox())!;
    expect(first.y).toBeGreaterThanOrEqual(top.y);
    expect(first.height).toBeGreaterThan(8);
    await expect(hours).toHaveCount(16);
    expect(await readable(block, "Morgan Member")).toBe(true);
    expect(await readable(block, `${hour}:00–${hour}:45 AM`)).toBe(true);
    await expect(block).toHaveAttribute("title", `${hour}:00 AM–${hour}:45 AM: Morgan Member with Taylor Trainer`);
  };
  await check();
  await grid.screenshot({ path: `test-results/screens/calendar-1366-${test.info().project.name}.png` });

  // The phone: one day at a time, the same hours and the same session.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${BACKOFFICE}/calendar?week=${week}&day=${day}`);
  await check();
  await grid.screenshot({ path: `test-results/screens/calendar-375-${test.info().project.name}.png` });

  await block.click();
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel this appointment" }));
  await expect(page.getByText("Appointment cancelled").last()).toBeVisible();
});
