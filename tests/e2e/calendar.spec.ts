import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, jsEnabled, signIn, submitAndSettle } from "./helpers";

/** The calendar (issue 16, first slice), with JavaScript on and off: book, refuse a clash, move and cancel. */
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const noViolations = async (page: Page) => {
  if (jsEnabled(test.info())) expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
};

test("books a trainer's session with a member, refuses a double booking, moves it and cancels it", async ({ page }) => {
  // Each project its own hour, next week, so the two runs never clash with each other.
  const hour = jsEnabled(test.info()) ? "06" : "07";
  await signIn(page);
  await page.goto(`${BACKOFFICE}/calendar`);
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  await page.getByRole("link", { name: "Next week" }).click();
  await expect(page).toHaveURL(/week=\d{4}-\d{2}-\d{2}/);
  const week = new URL(page.url()).searchParams.get("week")!;
  await noViolations(page);

  const book = async () => {
    await page.getByLabel("Member").fill("Morgan");
    await page.getByRole("button", { name: "Find" }).click();
    await page.getByRole("list", { name: "Members found" }).getByRole("link", { name: "Morgan Member" }).click();
    const form = page.getByRole("region", { name: "Book an appointment" });
    await form.getByLabel("Trainer").selectOption({ label: "Taylor Trainer" });
    await form.getByLabel("Day").fill(week);
    await form.getByLabel("Starts").fill(`${hour}:00`);
    await form.getByLabel("Ends").fill(`${hour}:45`);
    await submitAndSettle(page, form.getByRole("button", { name: "Book" }));
  };
  await book();
  await expect(page.getByText("Appointment booked").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${Number(hour)}:00 AM` })).toBeVisible();

  await book();
  await expect(page.getByText(/^Taylor Trainer is already booked then: .* with Morgan Member$/)).toBeVisible();
  await noViolations(page);

  await page.goto(`${BACKOFFICE}/calendar?week=${week}`);
  await page.getByRole("link", { name: `Change Morgan Member's session at ${Number(hour)}:00 AM` }).click();
  const change = page.getByRole("region", { name: /Morgan Member with Taylor Trainer/ });
  await change.getByLabel("Ends").fill(`${hour}:30`);
  await change.getByLabel("Starts").fill(`${hour}:15`);
  await submitAndSettle(page, change.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Appointment saved").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${Number(hour)}:15 AM` })).toBeVisible();

  await page.getByRole("link", { name: `Change Morgan Member's session at ${Number(hour)}:15 AM` }).click();
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel this appointment" }));
  await expect(page.getByText("Appointment cancelled").last()).toBeVisible();
  await expect(page.getByRole("link", { name: `Change Morgan Member's session at ${Number(hour)}:15 AM` })).toHaveCount(0);
});
