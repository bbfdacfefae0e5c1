import { expect, test } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, pickMember, signIn, submitAndSettle } from "./helpers";

/**
 * Recurring schedules (issue 16), with JavaScript on and off: book a weekly series for a member, see its sessions on
 * the calendar and the member page, cancel one session alone, then end the series.
 */
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

test("books weekly sessions, shows them on the calendar and the member page, cancels one and ends the series", async ({ page }) => {
  // Each project its own Sunday hour, from the Monday after next, so the two runs never clash.
  const [start, end, label] = jsEnabled(test.info()) ? ["10:00", "11:00", "10:00 AM"] : ["12:00", "13:00", "12:00 PM"];
  await signIn(page);
  await page.goto(`${BACKOFFICE}/calendar`);
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page).toHaveURL(/week=/);
  const firstDay = addDays(new URL(page.url()).searchParams.get("week")!, 7);

  await page.getByRole("link", { name: "Recurring schedules" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Recurring schedules" })).toBeVisible();
  await expectAccessible(page);
  await pickMember(page, test.info(), "Member", "Morgan", "Morgan Member");
  const form = page.getByRole("region", { name: "New recurring schedule" });
  await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
  // Nothing chosen yet: the days are asked for, and what was typed stays.
  await form.getByLabel("First day").fill(firstDay);
  await form.getByLabel("Starts").fill(start);
  await form.getByLabel("Ends", { exact: true }).fill(end);
  await form.getByRole("radio", { name: "After" }).check();
  await form.getByLabel("Number of sessions").fill("4");
  await submitAndSettle(page, form.getByRole("button", { name: "Book the sessions" }));
  await expect(page.getByText("Choose at least one day")).toBeVisible();
  await expect(form.getByLabel("Number of sessions")).toHaveValue("4");
  await expectAccessible(page);
  await form.getByLabel("Sunday").check();
  await submitAndSettle(page, form.getByRole("button", { name: "Book the sessions" }));
  await expect(page.getByText("Recurring sessions booked").last()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `Sundays, ${label} to ${end === "11:00" ? "11:00 AM" : "1:00 PM"}` })).toBeVisible();
  const next = page.getByRole("region", { name: "Next sessions" });
  await expect(next.getByRole("listitem")).toHaveCount(4);
  await expectAccessible(page);
  const seriesUrl = page.url();

  // The sessions are on the calendar, one a week.
  const sunday = addDays(firstDay, 6);
  await page.goto(`${BACKOFFICE}/calendar?week=${firstDay}&day=${sunday}`);
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${label} with Taylor Trainer (weekly)` })).toBeVisible();

  // Cancel the second one alone.
  await page.goto(seriesUrl);
  await submitAndSettle(page, next.getByRole("button", { name: /^Cancel the session on / }).nth(1));
  await expect(page.getByText("Session cancelled").last()).toBeVisible();
  await expect(next.getByRole("listitem")).toHaveCount(3);
  await page.goto(`${BACKOFFICE}/calendar?week=${addDays(firstDay, 7)}&day=${addDays(sunday, 7)}`);
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${label} with Taylor Trainer (weekly)` })).toHaveCount(0);
  await page.goto(`${BACKOFFICE}/calendar?week=${addDays(firstDay, 14)}&day=${addDays(sunday, 14)}`);
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${label} with Taylor Trainer (weekly)` })).toBeVisible();

  // The member page lists it.
  await page.goto(seriesUrl);
  await page.getByRole("main").getByRole("link", { name: "Morgan Member" }).click();
  const recurring = page.getByRole("region", { name: "Recurring sessions" });
  await expect(recurring.getByRole("link", { name: new RegExp(`^Sundays, ${label}`) })).toBeVisible();

  // End it from its first day: nothing of it is left.
  await page.goto(seriesUrl);
  await page.getByLabel("No sessions from").fill(firstDay);
  await submitAndSettle(page, page.getByRole("button", { name: "End the sessions" }));
  await expect(page.getByText("Recurring sessions ended").last()).toBeVisible();
  await expect(page.getByText("No sessions in the next eight weeks.")).toBeVisible();
});
