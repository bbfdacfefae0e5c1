import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { addCalendarDays, localDay } from "../../domain/dates";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

// /payments and /visits (issue 12), with JavaScript on and off: filters through the URL, totals, pages, the CSV
// export, marking a bank transfer received from the list, and what was given back on a payment (issue 28).
const rows = (page: Page) => page.getByRole("table").locator("tbody tr");

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("payments: the sidebar's page, filtered, paged and exported", async ({ page }) => {
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: /^Payments/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Successful");
  const filters = page.getByRole("form", { name: "Filter payments" });
  await filters.getByLabel("Gym").selectOption("all");
  await filters.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(rows(page).first()).toContainText("Failed");
  for (const status of await rows(page).locator("td[data-label='Status'] > span:first-child").allTextContents()) expect(status).toBe("Failed");
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/payments.png", fullPage: true });
  const total = Number((await page.getByRole("button", { name: /Export CSV/ }).textContent())!.replace(/,/g, "").match(/\((\d+)\)/)![1]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: /Export CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, "utf8")).trim().split("\n");
  expect(lines[0]).toContain("ID,Made (NZ time),Member ID,Member");
  // Auckland's clock in a form spreadsheets read, not UTC's ISO text.
  for (const line of lines.slice(1)) expect(line.split(",")[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  // The sandbox settles pending payments in the background (its webhooks come late, as real ones do), so a payment may
  // turn failed between the count and the export: the file holds the count of one moment or the other.
  await page.reload();
  const after = Number((await page.getByRole("button", { name: /Export CSV/ }).textContent())!.replace(/,/g, "").match(/\((\d+)\)/)![1]);
  expect([total, after]).toContain(lines.length - 1);
  // A range that ends before it starts: its message, the values kept.
  await page.goto(`${BACKOFFICE}/payments?from=2026-10-10&to=2026-10-01`);
  await expect(page.getByText("The end date must be on or after the start date")).toBeVisible();
  await expect(page.getByRole("form", { name: "Filter payments" }).getByLabel("From")).toHaveValue("2026-10-10");
});

test("payments: a refunded payment says so on its row, and the given-back filter finds it (issue 28)", async ({ page }) => {
  // A cash payment of the last year, $10.00 of it refunded at the desk through the API (done when recorded).
  const headers = { "x-requested-with": "XMLHttpRequest" };
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const from = day(new Date(Date.now() - 360 * 864e5));
  const range = `gym=all&method=cash&status=successful&from=${from}`;
  const listed = await page.request.get(`${BACKOFFICE}/api/payments?${range}`, { headers });
  const payment = ((await listed.json()).data.data as { id: number; refunded: number; user: { name: string } }[]).find((p) => p.refunded === 0)!;
  const refund = await page.request.post(`${BACKOFFICE}/api/payments/${payment.id}/refunds`, {
    headers,
    data: { amount: 1000, reason: "requested_by_customer", key: `e2e-${test.info().project.name}-${Date.now()}` },
  });
  expect(refund.status()).toBe(201);
  // The list's own filter form (a GET form, with or without JavaScript).
  await page.goto(`${BACKOFFICE}/payments?${range}`);
  const filters = page.getByRole("form", { name: "Filter payments" });
  await filters.getByLabel("Given back").selectOption("refunded");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/adjusted=refunded/);
  await expect(filters.getByLabel("Given back")).toHaveValue("refunded");
  const row = rows(page).filter({ hasText: payment.user.name }).filter({ hasText: "Refunded $10.00" });
  await expect(row.first().locator("td[data-label='Amount']")).toContainText("Refunded $10.00");
  for (const amount of await rows(page).locator("td[data-label='Amount']").allTextContents()) expect(amount).toMatch(/Refunded \$/);
  await expect(page.getByRole("region", { name: "Totals" })).not.toContainText("Refunds and chargebacks settled");
  if (jsEnabled(test.info())) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "test-results/screens/payments-refunded.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: "test-results/screens/payments-refunded-375.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${BACKOFFICE}/payments?gym=all&from=${from}`);
    await expect(page.getByRole("region", { name: "Totals" })).toContainText("Refunds and chargebacks settled in these days");
    await page.screenshot({ path: "test-results/screens/payments-all.png", fullPage: true });
    await page.goto(`${BACKOFFICE}/dashboard`);
    await expect(page.getByText(/Net of refunds and chargebacks/)).toBeVisible();
    await page.screenshot({ path: "test-results/screens/dashboard-net.png", fullPage: true });
  }
});

test("payments: a bank transfer taken for a member's debt is marked received from the list", async ({ page }) => {
  // A member in a grace period pays by bank transfer (their own place in the list: the actions spec takes the first two).
  await page.goto(`${BACKOFFICE}/members?status=grace_period&gym=all`);
  const link = rows(page).nth(jsEnabled(test.info()) ? 2 : 3).getByRole("link").first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByRole("navigation", { name: "Membership actions" }).getByRole("link", { name: "Take payment" }).click();
  await page.getByLabel(/^Bank transfer/).check();
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: /^Record \$/ }).click();
  await expect(page.getByText("Bank transfer recorded", { exact: true })).toBeVisible();
  await page.goto(`${BACKOFFICE}/payments?gym=all&method=bank_transfer&status=not_failed&q=${encodeURIComponent(name)}`);
  const row = rows(page).filter({ hasText: name }).first();
  await row.getByRole("button", { name: /^Mark \$.* received$/ }).click();
  await expect(page.getByText("Marked received", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/method=bank_transfer/);
  await expect(rows(page).filter({ hasText: name })).toHaveCount(0);
});

test("visits: filtered by result and exported", async ({ page }) => {
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: /^Visits/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Visits" })).toBeVisible();
  await page.getByLabel("Result").selectOption("successful");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/result=successful/);
  for (const r of await rows(page).locator("td[data-label='Result']").allTextContents()) expect(r).toBe("Entered");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: /Export CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^visits-\d{4}-\d{2}-\d{2}\.csv$/);
  expect((await readFile((await download.path())!, "utf8")).split("\n")[0]).toBe("ID,When (NZ time),Member ID,Member,Gym,Result");
});

test("the date fields show the days listed: the last 30 by default, the address's, and again after Clear filters", async ({ page }) => {
  const today = localDay(new Date());
  const monthAgo = addCalendarDays(today, -29);
  for (const list of ["payments", "visits"]) {
    const filters = page.getByRole("form", { name: `Filter ${list}` });
    await page.goto(`${BACKOFFICE}/${list}`);
    // The heading names the days the list is filtered to; the fields say the same, not an empty mm/dd/yyyy.
    await expect(filters.getByLabel("From")).toHaveValue(monthAgo);
    await expect(filters.getByLabel("To")).toHaveValue(today);
    await expect(filters.getByRole("link", { name: "Clear filters" })).toHaveCount(0);

    const from = addCalendarDays(today, -10);
    await page.goto(`${BACKOFFICE}/${list}?from=${from}`);
    await expect(filters.getByLabel("From")).toHaveValue(from);
    await expect(filters.getByLabel("To")).toHaveValue(today);

    // Typed and applied, then cleared: the fields follow the list (with JavaScript the page is not loaded afresh).
    const typed = addCalendarDays(today, -3);
    await filters.getByLabel("From").fill(typed);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`from=${typed}`));
    await expect(filters.getByLabel("From")).toHaveValue(typed);
    await filters.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`/${list}$`));
    await expect(filters.getByLabel("From")).toHaveValue(monthAgo);
  }
});

test("the lists have no accessibility violations", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "axe runs in the page's JavaScript");
  for (const path of ["/payments", "/visits"]) {
    await page.goto(`${BACKOFFICE}${path}`);
    await expectAccessible(page);
  }
});
