import { expect, test } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

// Issue 34, "Attendance": a check-in at the desk during a class's window marks the member's booking attended, the
// member page shows their classes, and the dashboard class occupancy per week. The demo always has a class to check in
// to: Open Studio at Central, starting ten minutes after the server seeded it, Morgan booked (server/seed/demo-classes.ts).
// JavaScript on and off, at the office's 1366×768.

test.use({ viewport: { width: 1366, height: 768 } });

test("a check-in at the desk marks the member's class attended, and their page shows it", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/check-in`);
  await page.getByLabel("Find a member", { exact: true }).fill("Morgan Member");
  if (!jsEnabled(test.info())) await page.getByRole("button", { name: "Find" }).click();
  const morgan = page.getByRole("list", { name: "Members found" }).getByRole("listitem").filter({ hasText: "Morgan Member" });
  await morgan.getByRole("button", { name: "Check in Morgan Member" }).click();
  const done = page.getByRole("status", { name: "Checked in" });
  await expect(done).toContainText("Checked in: Morgan Member");
  // The first check-in in the class's window names the class (an earlier spec may have checked Morgan in already).
  const attending = done.getByRole("list", { name: "Classes attended" });
  if (await attending.count()) await expect(attending).toContainText(/Attending Open Studio at \d{1,2}:\d{2} [AP]M/);
  await expectAccessible(page);
  await page.screenshot({ path: `test-results/classes-attend-check-in-${test.info().project.name}.png` });

  await page.goto(`${BACKOFFICE}/members?q=${encodeURIComponent("Morgan Member")}`);
  await page.getByRole("link", { name: "Morgan Member" }).first().click();
  const classes = page.getByRole("region", { name: "Classes" });
  await expect(classes).toContainText(/\d+ classes attended/);
  await expect(classes.getByRole("listitem").filter({ hasText: "Open Studio" })).toContainText("Attended");
  await expect(classes).toContainText("Last classes");
  await expectAccessible(page);
  await classes.screenshot({ path: `test-results/classes-attend-member-${test.info().project.name}.png` });
});

test("the dashboard shows class occupancy per week", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/dashboard`);
  const panel = page.getByRole("region", { name: "Class occupancy, last 8 weeks" });
  await expect(panel).toContainText(/\d+% this week/);
  await expect(panel.getByRole("table", { name: "Classes, places taken and attended by week" }).getByRole("row")).toHaveCount(9);
  await expectAccessible(page);
  await panel.screenshot({ path: `test-results/classes-attend-dashboard-${test.info().project.name}.png` });
});
