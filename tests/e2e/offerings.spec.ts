import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, submitAndSettle } from "./helpers";

/**
 * Offerings, prices and organisation settings (issue 14), with JavaScript on and off (the two projects). The
 * demo's admin is an organisation admin of Demo Fitness. Each test leaves the demo as it found it.
 */
const error = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test("creates a Limited Hours offering with two days and two prices, meeting each of SPEC §5's messages once", async ({ page }) => {
  const name = `Dawn Patrol ${test.info().project.name} ${Date.now()}`;
  await signIn(page);
  await page.goto(`${BACKOFFICE}/offerings`);
  await expect(page.getByRole("heading", { level: 1, name: "Offerings" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Anytime 24/7" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "New offering" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New offering" })).toBeVisible();

  // Nothing filled in, and the offering not open to every gym with none chosen.
  await page.getByLabel("Open to all gyms, including gyms added later").uncheck();
  await page.getByRole("button", { name: "Create offering" }).click();
  await expect(error(page, "Value is required")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(error(page, "The value is required")).toBeVisible();
  await expect(error(page, "Select at least one gym")).toBeVisible();
  await expect(page.getByLabel("Name")).toBeFocused();
  await expectAccessible(page);

  await page.getByLabel("Name").fill(name);
  await page.getByRole("radio", { name: "Limited Hours" }).check();
  await page.getByRole("checkbox", { name: "Demo Fitness Central" }).check();
  await page.getByLabel("Its opening hours (a Limited Hours offering then needs at least one day)").check();
  await page.getByLabel("Amount ($)").fill("12.99");
  await page.getByLabel("Billing frequency").selectOption("weekly");
  await page.getByRole("button", { name: "Create offering" }).click();
  await expect(error(page, "Add at least one day")).toBeVisible();
  // The values typed are all still there.
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByLabel("Amount ($)")).toHaveValue("12.99");

  // Lists that grow: each button re-renders the form (on the server without JavaScript) with the row added.
  await page.getByRole("button", { name: "Add a day" }).click();
  await page.getByRole("button", { name: "Add a day" }).click();
  const days = page.getByLabel("Day", { exact: true });
  await expect(days).toHaveCount(2);
  await days.nth(0).selectOption("1");
  await days.nth(1).selectOption("2");
  for (const i of [0, 1]) {
    await page.getByLabel("Opens").nth(i).fill("06:00");
    await page.getByLabel("Closes").nth(i).fill("10:00");
  }
  await page.getByRole("button", { name: "Add a price" }).click();
  await page.getByRole("button", { name: "Add a price" }).click();
  await expect(page.getByLabel("Amount ($)")).toHaveCount(3);
  await page.getByLabel("Amount ($)").nth(1).fill("11.50");
  await page.getByLabel("Billing frequency").nth(1).selectOption("weekly");
  await page.getByLabel("Term length").nth(1).fill("6");
  await page.getByLabel("Amount ($)").nth(2).fill("10");
  await page.getByLabel("Billing frequency").nth(2).selectOption("weekly");
  await page.getByLabel("Term unit").nth(2).selectOption("month");
  await page.getByRole("button", { name: "Create offering" }).click();
  await expect(error(page, "Please select a term unit")).toBeVisible();
  await expect(error(page, "Please enter a term amount")).toBeVisible();
  await expect(page.getByLabel("Term length").nth(1)).toHaveValue("6");

  await page.getByLabel("Term unit").nth(1).selectOption("month");
  await page.getByRole("button", { name: "Remove this price" }).nth(2).click();
  await expect(page.getByLabel("Amount ($)")).toHaveCount(2);
  await page.getByRole("button", { name: "Create offering" }).click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Offering created").last()).toBeVisible();
  const hours = page.getByRole("region", { name: "Opening hours" });
  await expect(hours.getByRole("row", { name: "Monday 6:00 AM – 10:00 AM" })).toBeVisible();
  await expect(hours.getByRole("row", { name: "Tuesday 6:00 AM – 10:00 AM" })).toBeVisible();
  const prices = page.getByRole("region", { name: "Prices" });
  await expect(prices.getByText("$12.99 weekly")).toBeVisible();
  await expect(prices.getByText("$11.50 weekly")).toBeVisible();
  await expect(prices.getByText("6m Term")).toBeVisible();
  await expectAccessible(page);

  // Archive and restore a price.
  const row = prices.getByRole("listitem").filter({ hasText: "$12.99 weekly" });
  await submitAndSettle(page, row.getByRole("button", { name: "Archive" }));
  await expect(page.getByText("Price archived").last()).toBeVisible();
  await expect(prices.getByRole("listitem").filter({ hasText: "$12.99 weekly" }).getByText(/^Archived /)).toBeVisible();
  await submitAndSettle(page, prices.getByRole("listitem").filter({ hasText: "$12.99 weekly" }).getByRole("button", { name: "Restore" }));
  await expect(page.getByText("Price restored").last()).toBeVisible();
  await expect(prices.getByRole("listitem").filter({ hasText: "$12.99 weekly" }).getByText(/^Archived /)).toHaveCount(0);

  // Nobody ever held it, so the offering can go.
  await page.getByRole("link", { name: "Delete" }).first().click();
  await submitAndSettle(page, page.getByRole("button", { name: "Delete offering" }));
  await expect(page.getByText("Offering deleted").last()).toBeVisible();
  await expect(page.getByRole("link", { name })).toHaveCount(0);
});

test("refuses to delete a price members hold, and offers archiving instead", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/offerings`);
  await page.getByRole("link", { name: "Anytime 24/7" }).click();
  const row = page.getByRole("region", { name: "Prices" }).getByRole("listitem").filter({ hasText: "$19.99 weekly" }).filter({ hasText: "Joining fee" });
  await row.getByRole("link", { name: "Delete" }).click();
  await expect(row.getByText("Delete this price? Only a price no member ever held can be deleted")).toBeVisible();
  await row.getByRole("button", { name: "Delete price" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Members have held this price, so it cannot be deleted. Archive it instead" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Archive it instead" })).toBeVisible();
  await expectAccessible(page);

  // Its amount cannot change in place either: the form says why and links to the bulk price change.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByText(/Members pay this price, so its amount, frequency and term stay as they are/).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "bulk price change" }).first()).toHaveAttribute("href", "/members/change-price");
  await expectAccessible(page);
});

test("organisation settings: each section saves on its own, and the offering form follows the frequencies", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Organisation settings" })).toBeVisible();
  await expectAccessible(page);

  // Grace periods: both parts required, then saved.
  const grace = page.getByRole("region", { name: "Failed-payment grace period" });
  await grace.getByLabel("Period").fill("");
  await grace.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("region", { name: "Failed-payment grace period" }).getByText("Value is required")).toBeVisible();
  await page.getByRole("region", { name: "Failed-payment grace period" }).getByLabel("Period").fill("10");
  await submitAndSettle(page, page.getByRole("region", { name: "Failed-payment grace period" }).getByRole("button", { name: "Save" }));
  await expect(page.getByText("Failed-payment grace period saved").last()).toBeVisible();
  await expect(page.getByRole("region", { name: "Failed-payment grace period" }).getByLabel("Period")).toHaveValue("10");
  const term = page.getByRole("region", { name: "Term-membership grace period" });
  await term.getByLabel("Unit").selectOption("week");
  await submitAndSettle(page, term.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Term-membership grace period saved").last()).toBeVisible();
  await expect(page.getByRole("region", { name: "Term-membership grace period" }).getByLabel("Unit")).toHaveValue("week");

  // The minimum age to join online.
  const joining = () => page.getByRole("region", { name: "Joining online" });
  await joining().getByLabel("Minimum age (years)").fill("18");
  await submitAndSettle(page, joining().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Minimum age saved").last()).toBeVisible();
  await expect(joining().getByLabel("Minimum age (years)")).toHaveValue("18");
  await joining().getByLabel("Minimum age (years)").fill("16");
  await submitAndSettle(page, joining().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Minimum age saved").last()).toBeVisible();

  // Yearly cannot go while a live price bills yearly.
  const frequencies = () => page.getByRole("region", { name: "Price frequencies" });
  await frequencies().getByLabel("Yearly").uncheck();
  await frequencies().getByRole("button", { name: "Save" }).click();
  await expect(frequencies().getByText("1 live price bills yearly. Archive it first, or leave yearly on.")).toBeVisible();

  // Archived, it no longer counts: Yearly goes, and the offering form stops offering it.
  await page.goto(`${BACKOFFICE}/offerings`);
  await page.getByRole("link", { name: "Anytime 24/7" }).click();
  const yearly = () => page.getByRole("region", { name: "Prices" }).getByRole("listitem").filter({ hasText: "$829.00 yearly" });
  await submitAndSettle(page, yearly().getByRole("button", { name: "Archive" }));
  await expect(page.getByText("Price archived").last()).toBeVisible();
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  await frequencies().getByLabel("Yearly").uncheck();
  await submitAndSettle(page, frequencies().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Price frequencies saved").last()).toBeVisible();
  await page.goto(`${BACKOFFICE}/offerings/create`);
  const options = page.getByLabel("Billing frequency").locator("option");
  await expect(options).toHaveText(["Choose how often", "Weekly", "Fortnightly", "Monthly", "Quarterly", "Twice yearly", "PIF"]);

  // And back as it was.
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  await frequencies().getByLabel("Yearly").check();
  await submitAndSettle(page, frequencies().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Price frequencies saved").last()).toBeVisible();
  await page.goto(`${BACKOFFICE}/offerings/create`);
  await expect(page.getByLabel("Billing frequency").locator("option")).toHaveText(["Choose how often", "Weekly", "Fortnightly", "Monthly", "Quarterly", "Twice yearly", "Yearly", "PIF"]);
  await page.goto(`${BACKOFFICE}/offerings`);
  await page.getByRole("link", { name: "Anytime 24/7" }).click();
  await submitAndSettle(page, yearly().getByRole("button", { name: "Restore" }));
  await expect(page.getByText("Price restored").last()).toBeVisible();
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  await page.getByRole("region", { name: "Failed-payment grace period" }).getByLabel("Period").fill("7");
  await submitAndSettle(page, page.getByRole("region", { name: "Failed-payment grace period" }).getByRole("button", { name: "Save" }));
  await expect(page.getByText("Failed-payment grace period saved").last()).toBeVisible();
  const termAgain = page.getByRole("region", { name: "Term-membership grace period" });
  await termAgain.getByLabel("Unit").selectOption("day");
  await submitAndSettle(page, termAgain.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Term-membership grace period saved").last()).toBeVisible();
});

test("a private price's link is made, shown for each gym and revoked", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/offerings`);
  await page.getByRole("link", { name: "Off-Peak" }).click();
  const row = () => page.getByRole("region", { name: "Prices" }).getByRole("listitem").filter({ hasText: "Private" }).first();
  const before = await row().getByRole("button", { name: "Revoke this link" }).count();
  await row().getByLabel("Let people under the minimum age join with it").check();
  await submitAndSettle(page, row().getByRole("button", { name: "Create a link" }));
  await expect(page.getByText("Link created").last()).toBeVisible();
  await expect(row().getByRole("button", { name: "Revoke this link" })).toHaveCount(before + 1);
  await expect(row().getByText(/lets people under the minimum age join/).first()).toBeVisible();
  await expect(row().locator("code").first()).toContainText("link=");
  if (jsEnabled(test.info())) await expect(row().getByRole("button", { name: /Copy the link for/ }).first()).toBeVisible();
  else await expect(row().getByRole("button", { name: /Copy the link for/ })).toHaveCount(0);
  await expectAccessible(page);
  await submitAndSettle(page, row().getByRole("button", { name: "Revoke this link" }).first());
  await expect(page.getByText("Link revoked").last()).toBeVisible();
  await expect(row().getByRole("button", { name: "Revoke this link" })).toHaveCount(before);
});
