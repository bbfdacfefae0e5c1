import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, submitAndSettle } from "./helpers";

/**
 * Group classes, the staff's side (issue 34), at 1366×768 with JavaScript on and off: a class type, a weekly class on
 * the gym's timetable (days asked for, a clash refused naming it), one class changed and one cancelled, the classes on
 * the calendar's week and (on a phone) day view, the schedule changed from a date and ended, and the booking rules.
 */
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/classes-staff-${test.info().project.name}-${name}.png`, fullPage: true });

test("builds a timetable: a class type, a weekly class, one class changed and cancelled, the calendar, then changed from a date and ended", async ({
  page,
}) => {
  const js = jsEnabled(test.info());
  // Each project its own name and hour, so the two runs never clash with each other.
  const name = js ? "Spin JS" : "Spin Plain";
  // Evening hours, inside the calendar's 6 AM to 10 PM grid: an early class would stretch other specs' weeks to the whole day.
  const [start, label] = js ? ["20:00", "8:00 PM"] : ["20:30", "8:30 PM"];
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await page.getByRole("navigation").getByRole("link", { name: "Classes" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: /^Classes at / })).toBeVisible();
  await page.getByRole("link", { name: "Next week →" }).click();
  await expect(page).toHaveURL(/week=/);
  const week = new URL(page.url()).searchParams.get("week")!;

  // A class type: what was typed stays when a field is refused.
  await page.getByRole("navigation", { name: "Classes" }).getByRole("link", { name: "Class types" }).click();
  await page.getByRole("link", { name: "New class type" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New class type" })).toBeVisible();
  await page.getByLabel("Length (minutes)").fill("30");
  await page.getByLabel("Places", { exact: true }).fill("2");
  await page.getByLabel("Colour").selectOption({ label: "Red" });
  await page.getByLabel("Drop-in price ($)").fill("twenty");
  await submitAndSettle(page, page.getByRole("button", { name: "Add the class type" }));
  await expect(page.getByText("Enter an amount such as 20.00")).toBeVisible();
  await expect(page.getByLabel("Length (minutes)")).toHaveValue("30");
  await expectAccessible(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Drop-in price ($)").fill("15");
  await page.getByRole("group", { name: "Included in these memberships" }).getByRole("checkbox").first().check();
  await shot(page, "type-form");
  await submitAndSettle(page, page.getByRole("button", { name: "Add the class type" }));
  await expect(page.getByText(`${name} added`).last()).toBeVisible();
  await expect(page.getByRole("link", { name })).toBeVisible();
  await expectAccessible(page);

  // A weekly class on Tuesdays from next week: the days are asked for first.
  await page.getByRole("navigation", { name: "Classes" }).getByRole("link", { name: "Schedules" }).click();
  const form = page.getByRole("region", { name: /^Schedule a class at / });
  await form.getByLabel("Class type").selectOption({ label: name });
  await form.getByLabel("First day", { exact: true }).fill(week);
  await form.getByLabel("Start time").fill(start);
  await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
  await form.getByLabel("Room or area").fill("Studio 1");
  await submitAndSettle(page, form.getByRole("button", { name: "Schedule the class" }));
  await expect(page.getByText("Choose at least one day")).toBeVisible();
  await expect(form.getByLabel("Room or area")).toHaveValue("Studio 1");
  await expectAccessible(page);
  await form.getByLabel("Tue").check();
  await submitAndSettle(page, form.getByRole("button", { name: "Schedule the class" }));
  await expect(page.getByText(`${name} scheduled`).last()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  await expect(page.getByText(`Tuesdays, ${label} to`).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Next classes" }).getByRole("listitem").first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, "schedule");
  const scheduleUrl = page.url();

  // The same trainer then, once on that Tuesday: refused, naming the clash.
  await page.goto(`${BACKOFFICE}/classes/schedules`);
  await form.getByLabel("Class type").selectOption({ label: name });
  await form.getByLabel("Once, on the first day").check();
  await form.getByLabel("First day", { exact: true }).fill(addDays(week, 1));
  await form.getByLabel("Start time").fill(start);
  await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
  await submitAndSettle(page, form.getByRole("button", { name: "Schedule the class" }));
  await expect(page.getByText(new RegExp(`^Taylor Trainer already runs a class then: ${name} at .+, Tue`))).toBeVisible();

  // The week's timetable: change the first Tuesday's class alone, then cancel it.
  await page.goto(`${BACKOFFICE}/classes?week=${week}`);
  const tuesday = page.getByRole("listitem").filter({ hasText: name });
  await expect(tuesday).toContainText("0/2 booked");
  await shot(page, "timetable");
  await expectAccessible(page);
  await tuesday.getByRole("link", { name: /^Change / }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Change this class" })).toBeVisible();
  await page.getByLabel("Places", { exact: true }).fill("0");
  await page.getByLabel("Room or area").fill("Studio 9");
  await submitAndSettle(page, page.getByRole("button", { name: "Save this class" }));
  await expect(page.getByText("The minimum value allowed is 1")).toBeVisible();
  await expect(page.getByLabel("Room or area")).toHaveValue("Studio 9");
  await expectAccessible(page);
  await shot(page, "edit");
  await page.getByLabel("Places", { exact: true }).fill("3");
  await submitAndSettle(page, page.getByRole("button", { name: "Save this class" }));
  await expect(page.getByText(`${name} changed`).last()).toBeVisible();
  await expect(tuesday).toContainText("Studio 9");
  await expect(tuesday).toContainText("0/3 booked");
  await tuesday.getByRole("link", { name: /^Change / }).click();
  await page.getByLabel("Reason, for those booked (optional)").fill("The studio is being painted");
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel the class" }));
  await expect(page.getByText(`${name} cancelled`).last()).toBeVisible();
  await expect(page.getByText("Nobody was booked.").last()).toBeVisible();
  await expect(tuesday).toContainText("Cancelled");

  // The calendar shows the class of the Tuesday after beside the sessions, in the trainer's colour; on a phone, its day.
  const nextTuesday = addDays(week, 8);
  await page.goto(`${BACKOFFICE}/calendar?week=${addDays(week, 7)}&day=${nextTuesday}`);
  const block = page.getByRole("link", { name: `${name} class at ${label} with Taylor Trainer, 0/2 booked` });
  await expect(block).toBeVisible();
  await shot(page, "calendar-week");
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(block).toBeVisible();
  await shot(page, "calendar-day-phone");
  await page.setViewportSize({ width: 1366, height: 768 });

  // The schedule from a date: Thursdays from the week after next; then ended from the week after that.
  await page.goto(scheduleUrl);
  const change = page.getByRole("region", { name: "Change from a date" });
  await change.getByLabel("From").fill(addDays(week, 14));
  await change.getByLabel("Tue").uncheck();
  await change.getByLabel("Thu").check();
  await submitAndSettle(page, change.getByRole("button", { name: "Change the schedule" }));
  await expect(page.getByText("Class schedule changed").last()).toBeVisible();
  await expect(page.getByText(`Thursdays, ${label} to`).first()).toBeVisible();
  const end = page.getByRole("region", { name: "End this schedule" });
  await end.getByLabel("No classes from").fill(addDays(week, 21));
  await submitAndSettle(page, end.getByRole("button", { name: "End the schedule" }));
  await expect(page.getByText("Class schedule ended").last()).toBeVisible();
  // From the change on, Thursdays run and the Tuesdays already written are cancelled; from the end, none run.
  await page.goto(`${BACKOFFICE}/classes?week=${addDays(week, 14)}`);
  const classes = page.getByRole("listitem").filter({ hasText: name });
  await expect(classes).toHaveCount(2);
  await expect(classes.filter({ hasText: "Cancelled" })).toHaveCount(1);
  await expect(classes.filter({ hasText: "0/2 booked" })).toHaveCount(1);
  await shot(page, "timetable-changed");
  await page.goto(`${BACKOFFICE}/classes?week=${addDays(week, 21)}`);
  await expect(classes.filter({ hasText: "Cancelled" })).toHaveCount(2);
  await expect(classes.filter({ hasText: "booked" })).toHaveCount(0);
});

test("sets the class booking rules in the organisation's settings", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  const section = page.getByRole("region", { name: "Class bookings" });
  await section.getByLabel("Booking opens (days before the class)").fill("-1");
  await submitAndSettle(page, section.getByRole("button", { name: "Save" }));
  await expect(section.getByText("The minimum value allowed is 0")).toBeVisible();
  await expect(section.getByLabel("Booking opens (days before the class)")).toHaveValue("-1");
  await section.getByLabel("Booking opens (days before the class)").fill("14");
  await section.getByLabel("Upcoming bookings a member may hold at once").fill("4");
  await submitAndSettle(page, section.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Class booking rules saved").last()).toBeVisible();
  await expect(section.getByLabel("Booking opens (days before the class)")).toHaveValue("14");
  await expect(section.getByLabel("Upcoming bookings a member may hold at once")).toHaveValue("4");
  await expectAccessible(page);
  await section.screenshot({ path: `test-results/classes-staff-${test.info().project.name}-settings.png` });
  // Back to the defaults, for the specs that book classes after this one.
  await section.getByLabel("Booking opens (days before the class)").fill("7");
  await section.getByLabel("Upcoming bookings a member may hold at once").fill("5");
  await submitAndSettle(page, section.getByRole("button", { name: "Save" }));
  await expect(section.getByLabel("Booking opens (days before the class)")).toHaveValue("7");
});
