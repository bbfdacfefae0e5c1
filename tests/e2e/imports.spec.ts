import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, submitAndSettle } from "./helpers";

/** Member imports (issue 15), with JavaScript on and off: dry run, a partial import, the rejected rows, a re-import. */

async function startImport(page: Page, csv: string) {
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: "Demo Fitness Central" }).click();
  await page.getByRole("link", { name: "Member imports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Member imports" })).toBeVisible();
  await page.getByRole("link", { name: "New import" }).click();
  await page.getByLabel("Or paste its text").fill(csv);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Match the columns" })).toBeVisible();
}

async function waitUntilImported(page: Page) {
  // With JavaScript the bar re-reads the import; without, the page reloads itself.
  await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible({ timeout: 20_000 });
}

test("imports a file with good and bad rows: dry run, the good rows only, the rejected rows as a file, then the same file again", async ({ page }) => {
  const run = `${test.info().project.name}.${Date.now()}`;
  // A plan name of this run's own: the other project's earlier import must not have matched it already.
  const plan = `Casual ${run}`;
  const csv = [
    "First Name,Last Name,Email,DOB,Membership Title",
    `ana,smith,ana.${run}@example.org,31/12/1990,${plan}`,
    `Ben,Jones,ben.${run}@example.org,05/06/1985,${plan}`,
    `Cat,Brown,not-an-address,01/01/1990,${plan}`,
    `Dan,Green,dan.${run}@example.org,31/02/1990,${plan}`,
  ].join("\n");
  await signIn(page);
  await startImport(page, csv);
  await expect(page.getByLabel("Email")).toHaveValue("email");
  await expect(page.getByLabel("DOB")).toHaveValue("dob");
  await expectAccessible(page);

  // The file's plans are there to match before the first check (nothing is like this one: not matched), so the first
  // check already counts the rows as they will be imported.
  await expect(page.getByLabel(/Casual/)).toHaveValue("");
  await page.getByLabel(/Casual/).selectOption("0");
  await submitAndSettle(page, page.getByRole("button", { name: "Check the file" }));
  const check = page.getByRole("region", { name: "What the import will do" });
  await expect(check.getByText("New members", { exact: true }).locator("..")).toContainText("2");
  await expect(check.getByRole("cell", { name: "Not a valid e-mail address: not-an-address" })).toBeVisible();
  await expect(check.getByRole("cell", { name: "Date of birth is not a date: 31/02/1990" })).toBeVisible();
  await expect(check.getByRole("cell", { name: "31 December 1990" })).toBeVisible();
  await expect(check.getByRole("cell", { name: "Ana Smith" })).toBeVisible();
  await expectAccessible(page);

  // Errors stop the import until the person chooses to import the good rows only.
  await page.getByRole("button", { name: "Import 2 members" }).click();
  await expect(page.getByText("2 rows have errors: fix the file, or choose to import the good rows only").first()).toBeVisible();
  await page.getByLabel("Import the good rows even if some have errors").check();
  await submitAndSettle(page, page.getByRole("button", { name: "Import 2 members" }));
  await waitUntilImported(page);
  const outcome = page.getByRole("region", { name: "Imported" });
  await expect(outcome.getByText("Created", { exact: true }).locator("..")).toContainText("2");
  await expect(outcome.getByText("Not imported", { exact: true }).locator("..")).toContainText("2");
  await expectAccessible(page);
  const href = await page.getByRole("link", { name: "Download the rows not imported (CSV)" }).getAttribute("href");
  const rejected = await page.request.get(`${BACKOFFICE}${href}`);
  expect(rejected.headers()["content-type"]).toContain("text/csv");
  const text = await rejected.text();
  expect(text).toContain("Why it was not imported");
  expect(text).toContain("Date of birth is not a date: 31/02/1990");

  // The same file again: the plan's match carries over, and nothing new is created.
  await startImport(page, csv);
  await page.getByLabel("Import the good rows even if some have errors").check();
  await submitAndSettle(page, page.getByRole("button", { name: "Check the file" }));
  await expect(page.getByRole("region", { name: "What the import will do" }).getByText("Already up to date", { exact: true }).locator("..")).toContainText("2");
  await page.getByLabel("Import the good rows even if some have errors").check();
  await submitAndSettle(page, page.getByRole("button", { name: /Import 0 members/ }));
  await waitUntilImported(page);
  await expect(page.getByRole("region", { name: "Imported" }).getByText("Created", { exact: true }).locator("..")).toContainText("0");
});

test("guesses the plans' prices before the first check, and reads the joining day and the membership status", async ({ page }) => {
  const run = `${test.info().project.name}.${Date.now()}`;
  const csv = [
    "Email,First Name,Last Name,Membership Start Date,Membership,Status",
    `amy.${run}@example.org,Amy,Active,30/09/2025,Anytime 24/7 Monthly,ACTIVE`,
    `fay.${run}@example.org,Fay,Frozen,01/10/2025,Anytime 24/7 Monthly,FROZEN`,
    `con.${run}@example.org,Con,Cancelled,02/10/2025,Old Plan ${run},CANCELLED`,
    `pat.${run}@example.org,Pat,Pending,03/10/2025,Anytime 24/7 Monthly,Pending`,
  ].join("\n");
  await signIn(page);
  await startImport(page, csv);
  await expect(page.getByLabel("Membership Start Date")).toHaveValue("joined_on");
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("status");
  await expect(page.getByLabel("Membership", { exact: true })).toHaveValue("plan");
  // The plan is the offering's monthly price, guessed; the cancelled member's plan is not asked about.
  const plans = page.getByRole("region", { name: "Match the plans to your prices" });
  await expect(plans.getByLabel(/Anytime 24\/7 Monthly/).locator("option:checked")).toHaveText(/^Anytime 24\/7: \$79\.00 monthly/);
  await expect(plans.getByText(/Old Plan/)).toHaveCount(0);
  await expectAccessible(page);
  if (jsEnabled(test.info())) await page.screenshot({ path: "tmp/import-before-check.png", fullPage: true });

  await submitAndSettle(page, page.getByRole("button", { name: "Check the file" }));
  const check = page.getByRole("region", { name: "What the import will do" });
  await expect(check.getByText("New members", { exact: true }).locator("..")).toContainText("3");
  await expect(check.getByRole("cell", { name: "Unknown membership status: Pending (use Active, Frozen or Cancelled)" })).toBeVisible();
  const states = page.getByRole("region", { name: "By membership status" });
  await expect(states.getByText("Paused (frozen)", { exact: true }).locator("..")).toContainText("1");
  await expect(states.getByText("Cancelled", { exact: true }).locator("..")).toContainText("1");
  await expect(check.getByRole("cell", { name: "30 September 2025" })).toBeVisible();
  await expectAccessible(page);
  if (jsEnabled(test.info())) await page.screenshot({ path: "tmp/import-states.png", fullPage: true });

  await page.getByLabel("Import the good rows even if some have errors").check();
  await submitAndSettle(page, page.getByRole("button", { name: "Import 3 members" }));
  await waitUntilImported(page);
  await expect(page.getByRole("region", { name: "Imported" }).getByText("Created", { exact: true }).locator("..")).toContainText("3");
  // The paused member is found by the tag the import gave them.
  await page.goto(`${BACKOFFICE}/members?gym=all&tag=${encodeURIComponent("imported as paused")}&q=${encodeURIComponent(`fay.${run}`)}`);
  await expect(page.getByRole("cell", { name: /Fay Frozen/ })).toBeVisible();
});
