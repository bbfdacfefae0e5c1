import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

// Issue 32, "Check-in": the front desk finds a member and checks them in; a refused check-in says why and offers
// what fixes it; the entrance's kiosk takes a member's own code and shows nothing else. JavaScript on and off, at
// the office's 1366×768.

test.use({ viewport: { width: 1366, height: 768 } });

/** Types into the desk's search: with JavaScript it answers as staff type; without, the Find button sends it. */
async function findMember(page: Page, text: string) {
  await page.getByLabel("Find a member", { exact: true }).fill(text);
  if (jsEnabled(test.info())) return;
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "\\+")}`));
}

test("the front desk finds a member, checks them in, and a paused member is refused with the way to fix it", async ({ page }) => {
  await signIn(page);
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Check-in" }).click();
  await expect(page).toHaveURL(`${BACKOFFICE}/check-in`);
  await expect(page.getByRole("heading", { level: 1, name: /^Check-in/ })).toBeVisible();

  await findMember(page, "Morgan Member");
  const morgan = page.getByRole("list", { name: "Members found" }).getByRole("listitem").filter({ hasText: "Morgan Member" });
  await expect(morgan).toContainText("Active");
  await expectAccessible(page);
  await morgan.getByRole("button", { name: "Check in Morgan Member" }).click();
  await expect(page.getByRole("status", { name: "Checked in" })).toContainText("Checked in: Morgan Member");
  // Without JavaScript the result has its own address; with it, the result is answered in place (no reload).
  if (!jsEnabled(test.info())) await expect(page).toHaveURL(/\/check-in\?checked=\d+$/);
  else await expect(page).toHaveURL(`${BACKOFFICE}/check-in`);
  // Ready for the next person: the last search is gone.
  await expect(page.getByRole("list", { name: "Members found" })).toHaveCount(0);
  await page.screenshot({ path: `test-results/check-in-${test.info().project.name}.png`, fullPage: true });

  // Counted at once where visits are.
  await page.goto(`${BACKOFFICE}/visits?q=${encodeURIComponent("Morgan Member")}`);
  await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText("Morgan Member");

  // A paused member (the demo has some): refused, with why and a way to end the pause.
  await page.goto(`${BACKOFFICE}/members?status=paused&gym=all`);
  const name = (await page
    .getByRole("table")
    .getByRole("row")
    .nth(jsEnabled(test.info()) ? 1 : 2)
    .getByRole("link")
    .first()
    .textContent())!.trim();
  await page.goto(`${BACKOFFICE}/check-in`);
  await findMember(page, name);
  await page
    .getByRole("list", { name: "Members found" })
    .getByRole("listitem")
    .filter({ hasText: name })
    .first()
    .getByRole("button", { name: `Check in ${name}` })
    .click();
  const refused = page.getByRole("alert", { name: "Not let in" });
  await expect(refused).toContainText(`Not let in: ${name}`);
  await expect(refused).toContainText("The membership is paused.");
  await expect(refused.getByRole("link", { name: /pause early$/ })).toBeVisible();
  await expectAccessible(page);
});

test("a member checks themselves in at the kiosk with their code; the kiosk shows nothing else until staff sign in", async ({ page, browser }) => {
  // The desk reads Morgan's code (the member sees it on their membership page, with its QR code).
  const desk = await browser.newContext({ javaScriptEnabled: jsEnabled(test.info()) });
  const deskPage = await desk.newPage();
  await signIn(deskPage);
  const found = await (await deskPage.request.get(`${BACKOFFICE}/api/check-in/members?q=${encodeURIComponent("Morgan Member")}`)).json();
  const code = (found.data.data as { name: string; code: string }[]).find((m) => m.name === "Morgan Member")!.code;
  await desk.close();

  await signIn(page);
  await page.goto(`${BACKOFFICE}/check-in`);
  await page.getByRole("link", { name: "Use this device as the entrance kiosk" }).click();
  await page.getByRole("button", { name: "Start kiosk mode" }).click();
  await expect(page.getByRole("heading", { name: /^Welcome to / })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Your member code", { exact: true }).fill(code.toLowerCase());
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByRole("status")).toHaveText("You're checked in, Morgan. Enjoy your workout!");
  await page.screenshot({ path: `test-results/kiosk-${test.info().project.name}.png`, fullPage: true });
  // It clears itself for the next person.
  await expect(page.getByRole("status")).toHaveCount(0, { timeout: 15_000 });

  await page.getByLabel("Your member code", { exact: true }).fill("ZZZZ-ZZZZ");
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not one of ours");

  // Nothing of the back-office: its pages lead back here, its data is refused.
  await page.goto(`${BACKOFFICE}/members`);
  await expect(page).toHaveURL(`${BACKOFFICE}/kiosk`);
  expect((await page.request.get(`${BACKOFFICE}/api/members`)).status()).toBe(403);

  await page.getByRole("button", { name: "Staff: sign out of the kiosk" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("the desk's check-in works on a phone too: find, check in, the result at once", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`${BACKOFFICE}/check-in`);
  await findMember(page, "Morgan Member");
  const morgan = page.getByRole("list", { name: "Members found" }).getByRole("listitem").filter({ hasText: "Morgan Member" });
  await morgan.getByRole("button", { name: "Check in Morgan Member" }).click();
  await expect(page.getByRole("status", { name: "Checked in" })).toContainText("Checked in: Morgan Member");
  // Nothing runs off the side of a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `test-results/check-in-phone-${test.info().project.name}.png`, fullPage: true });
});
