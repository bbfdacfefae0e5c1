import { expect, test } from "@playwright/test";
import { BACKOFFICE, expectAccessible, signIn } from "./helpers";

// The demo's $79.00 monthly price; February 2026 has 28 days. Runs with JavaScript on and off (the two projects).
test("the pro-rata calculator works out a start part-way into a month, and keeps the form on an error", async ({ page }) => {
  await signIn(page);
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await sidebar.getByText("Organisation", { exact: true }).click();
  await sidebar.getByRole("link", { name: "Calculate Pro Rata" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Calculate pro-rata" })).toBeVisible();

  await page.getByLabel("Price").selectOption({ label: "$79.00 Monthly" });
  await page.getByLabel("Start date").fill("2026-02-15");
  await page.getByRole("button", { name: "Calculate" }).click();
  // $79.00 × 14 ÷ 28 = $39.50, for 15–28 February, then $79.00 on 1 March.
  await expect(page.getByRole("heading", { name: "Pro-rata $39.50" })).toBeVisible();
  await expect(page.getByText("14 days, 15 Feb 2026 – 28 Feb 2026")).toBeVisible();
  await expect(page.getByText("$79.00 on 1 Mar 2026")).toBeVisible();
  await expect(page).toHaveURL(/start_date=2026-02-15/);
  await expectAccessible(page);

  // A billing date a month away is refused on its field; the chosen values stay.
  await page.getByLabel("Billing date (optional)").fill("2026-03-20");
  await page.getByRole("button", { name: "Calculate" }).click();
  await expect(page.getByText("The billing date must be less than one billing period after the start date")).toBeVisible();
  await expect(page.getByLabel("Billing date (optional)")).toHaveValue("2026-03-20");
  await expect(page.getByLabel("Start date")).toHaveValue("2026-02-15");
  await expect(page.getByLabel("Price")).toHaveValue(/\d+/);
  await expect(page.getByRole("heading", { name: /^Pro-rata \$/ })).toHaveCount(0);

  // A hand-edited link with another organisation's or no such price is an error on the field, not a 500.
  const res = await page.goto(`${BACKOFFICE}/calculate-pro-rata?price=2147483647&start_date=2026-02-15`);
  expect(res?.status()).toBe(200);
  await expect(page.getByText("Choose a price from the list")).toBeVisible();
});
