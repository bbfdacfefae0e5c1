import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, jsEnabled, signIn } from "./helpers";

// Refunds (issue 28): a member of staff refunds part of a paid payment from the member's page, previewed and then
// confirmed, with JavaScript on and off. Each project takes its own member (its place in a list this file alone
// uses: active members, longest-standing first) and leaves them refunded.
const rows = (page: Page) => page.getByRole("table").locator("tbody tr");

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("refund part of a card payment: bad input kept, previewed, made, shown under the payment", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/members?status=active&sort=joined&dir=asc&gym=all`);
  await rows(page).nth(jsEnabled(test.info()) ? 0 : 1).getByRole("link").first().click();
  const payments = page.getByRole("region", { name: /^Payments/ });
  const refund = payments.getByRole("link", { name: /^Refund/ }).first();
  await expect(refund).toBeVisible();
  await refund.click();
  await expect(page.getByRole("heading", { level: 1, name: /^Refund:/ })).toBeVisible();
  const amount = page.getByLabel("Amount to refund ($)");
  await amount.fill("lots");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText("Enter an amount such as 49.00")).toBeVisible();
  await expect(amount).toHaveValue("lots");
  await amount.fill("1.00");
  await page.getByLabel("Charged twice").check();
  await page.getByRole("button", { name: "Preview" }).click();
  const effect = page.getByTestId("effect");
  await expect(effect).toContainText("$1.00 of");
  await expect(effect).toContainText("has refunded $1.00 of your payment");
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/refund-preview.png", fullPage: true });
  await page.getByRole("button", { name: "Refund $1.00" }).click();
  await expect(page.getByText("Refund of $1.00 made", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: /^Payments/ })).toContainText(/Refunded \$1\.00|Refund of \$1\.00 on its way/);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/refund-done.png", fullPage: true });
});
