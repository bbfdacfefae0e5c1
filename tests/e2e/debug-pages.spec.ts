import { expect, test } from "@playwright/test";
import { BACKOFFICE, jsEnabled, signIn } from "./helpers";

// Runs with JavaScript on and off (the two projects), on the demo's data.
test("the expected-payments check lists the engine's periods against the charges, and keeps the form on an error", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/expected-payments-debugging`);
  await expect(page.getByRole("heading", { level: 1, name: "Expected payments" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Summary" })).toContainText("OK:");
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/expected-payments.png", fullPage: true });
  await page.getByLabel("From").fill("2026-03-01");
  await page.getByLabel("To").fill("2026-01-01");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByText("The end date must be on or after the start date")).toBeVisible();
  await expect(page.getByLabel("From")).toHaveValue("2026-03-01");
});

test("the active user check finds a member and shows each condition of the rule", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/active-user-debugging`);
  await page.getByRole("form", { name: "Find a member" }).getByLabel("Member").fill("member@example.com");
  await page.getByRole("button", { name: "Find" }).click();
  await page.getByRole("list", { name: "Matching members" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 2, name: /counts as active|does not count as active/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Was not paused" }).first()).toBeVisible();
  await expect(page.getByText(/^Door: /)).toBeVisible();
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/active-user.png", fullPage: true });
  const res = await page.goto(`${BACKOFFICE}/active-user-debugging?member=2147483647&day=2026-01-01`);
  expect(res?.status()).toBe(200);
  await expect(page.getByText("No such member")).toBeVisible();
});
