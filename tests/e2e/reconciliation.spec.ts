import { expect, test } from "@playwright/test";
import { BACKOFFICE, signIn } from "./helpers";

// Runs with JavaScript on and off (the two projects). The demo may hold no differences: the page says so, and the
// status filter (a GET form) moves through the URL either way.
test("organisation admins open the reconciliation from the sidebar and filter it by status", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/reconciliation`);
  await expect(page.getByRole("heading", { level: 1, name: "Reconciliation" })).toBeVisible();
  await expect(page.getByText(/No open differences\.|\d+ open differences?\./)).toBeVisible();
  await expect(page.getByRole("link", { name: "Reconciliation" }).first()).toHaveAttribute("href", "/reconciliation");
  await page.getByLabel("Status").selectOption("corrected");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/reconciliation\?status=corrected/);
  await expect(page.getByLabel("Status")).toHaveValue("corrected");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/reconciliation-${test.info().project.name}.png`, fullPage: true });
});
