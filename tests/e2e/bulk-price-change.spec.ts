import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

// The bulk price change (issue 12, /members/change-price), with JavaScript on and off: bad input kept and explained,
// the preview (members, the first few, the e-mail), the background job's progress page and report, and the same
// change run again changing nobody. Each project takes its own member (a place in a list only this file uses).
const rows = (page: Page) => page.getByRole("table").locator("tbody tr");

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("bulk price change: previewed, run as a job with a report, and harmless to run again", async ({ page }) => {
  test.setTimeout(120_000);
  // A member with another price to move to (their own page's choices) and no change scheduled yet.
  await page.goto(`${BACKOFFICE}/members?status=active&sort=joined&dir=desc&gym=all`);
  const links = await rows(page).locator("td:first-child a").evaluateAll((as) => as.map((a) => [(a as HTMLAnchorElement).pathname, a.textContent!.trim()]));
  const found: { url: string; name: string; target: string }[] = [];
  for (const [path, who] of links.slice(6)) {
    await page.goto(`${BACKOFFICE}${path}/price-change`);
    const options = page.getByLabel("New price").locator("option");
    // One the other project (or another test) already moved has a change scheduled: the next one then.
    const scheduled = await page.getByRole("heading", { name: "Scheduled change" }).count();
    if ((await options.count()) > 1 && !scheduled) found.push({ url: `${BACKOFFICE}${path}`, name: who, target: (await options.nth(1).textContent())!.trim() });
    if (found.length) break;
  }
  const { url: memberUrl, name, target } = found[0];
  await page.goto(memberUrl);
  const email = (await page.getByRole("link", { name: /@/ }).first().textContent())!.trim();

  await page.goto(`${BACKOFFICE}/members`);
  await page.getByRole("link", { name: "Change prices in bulk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Change prices in bulk" })).toBeVisible();
  // Nothing chosen: each field says what it needs, and what was typed stays.
  await page.getByLabel("Name, e-mail or mobile (optional)").fill(email);
  await page.getByRole("button", { name: "Preview the members and the e-mail" }).click();
  await expect(page.getByText("Choose the prices members move from")).toBeVisible();
  await expect(page.getByText("Choose the price members move to")).toBeVisible();
  await expect(page.getByLabel("Name, e-mail or mobile (optional)")).toHaveValue(email);

  // Every price billed as often as the target (a change keeps each member's billing rhythm: decision 0040).
  const frequency = /\$[\d.,]+ (.+?)(?: \(.*\))?(?: · archived)?$/.exec(target)![1];
  const escaped = frequency.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const boxes = page.getByRole("group", { name: "Move the members on" }).getByRole("checkbox", { name: new RegExp(`\\$[\\d.,]+ ${escaped}( \\(|$| ·)`) });
  for (const box of await boxes.all()) await box.check();
  await page.getByRole("group", { name: "Move the members on" }).getByRole("checkbox", { name: target, exact: true }).uncheck();
  await page.getByLabel("To the price").selectOption({ label: target });
  await page.getByRole("group", { name: /^Which members/ }).getByLabel("Gym").selectOption({ label: "Every gym" });
  await page.getByRole("button", { name: "Preview the members and the e-mail" }).click();
  const effect = page.getByTestId("effect");
  await expect(effect).toContainText("1 on the chosen prices match the filters");
  await expect(effect.getByRole("row", { name: new RegExp(name, "i") })).toContainText(/from \d+ \w+ \d{4}/);
  await expect(effect).toContainText(`To ${email}`);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/bulk-price-change-preview.png", fullPage: true });
  await expectAccessible(page);

  await page.getByRole("button", { name: "Change 1 member" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Bulk price change" })).toBeVisible();
  // Without JavaScript the page reloads itself until the job is done; with it, the figures refresh in place.
  await expect(page.getByRole("heading", { level: 2, name: "Finished" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("bulk-counts")).toContainText("1 of 1 done (100%) · 1 changed · 0 skipped");
  await page.getByRole("link", { name: "Changed", exact: true }).click();
  await expect(page.getByRole("table")).toContainText(/Changed.*to.*from/);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/bulk-price-change-report.png", fullPage: true });
  await expectAccessible(page);

  // The same change again, from the report: the form comes filled in, and nobody is changed twice.
  await page.getByRole("link", { name: "Run the same change again" }).click();
  await expect(page.getByLabel("To the price")).toHaveValue(/\d+/);
  await page.getByRole("button", { name: "Preview the members and the e-mail" }).click();
  await expect(page.getByTestId("effect")).toContainText("Skipped: Already moving to this price");
  await page.getByRole("button", { name: "Change 1 member" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Finished" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("bulk-counts")).toContainText("0 changed · 1 skipped");
  await expect(page.getByRole("table")).toContainText("Already moving to this price");

  // The member's page shows the change scheduled, once.
  await page.goto(memberUrl);
  await expect(page.getByRole("region", { name: "Membership history" }).getByText(/Price change scheduled/)).toHaveCount(1);
});
