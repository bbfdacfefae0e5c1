import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, switcherButton } from "./helpers";

// The membership actions (issue 12), each previewed and then confirmed, with JavaScript on and off. The two
// projects share the demo's database, so each takes its own members (their place in a list that this file alone
// uses) and leaves them changed.
const rows = (page: Page) => page.getByRole("table").locator("tbody tr");

async function openMember(page: Page, query: string, index: number) {
  await page.goto(`${BACKOFFICE}/members?${query}`);
  const link = rows(page).nth(index).getByRole("link").first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return { name, id: Number(new URL(page.url()).pathname.split("/")[2]) };
}

const slot = (n: number) => (jsEnabled(test.info()) ? n * 2 : n * 2 + 1);
const inDays = (n: number) => new Date(Date.now() + n * 864e5).toLocaleDateString("en-CA", { timeZone: "Pacific/Auckland" });
const actions = (page: Page) => page.getByRole("navigation", { name: "Membership actions" });
const effect = (page: Page) => page.getByTestId("effect");

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("pause: previewed (next charge, status card), confirmed, recorded, then removed", async ({ page }) => {
  const { id } = await openMember(page, "status=active&sort=name&dir=desc&gym=all", slot(0));
  await actions(page).getByRole("link", { name: "Pause" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Pause:/ })).toBeVisible();
  const pauseForm = page.getByRole("form", { name: "Pause the membership" });
  // Bad input first: an end before the start answers on its field, with the values kept.
  await pauseForm.getByLabel("First day paused").fill(inDays(20));
  await pauseForm.getByLabel("Back on").fill(inDays(10));
  await pauseForm.getByRole("button", { name: "Preview" }).click();
  await expect(pauseForm.getByText("The pause must end after it starts")).toBeVisible();
  await expect(pauseForm.getByLabel("First day paused")).toHaveValue(inDays(20));
  await pauseForm.getByLabel("Back on").fill(inDays(34));
  await pauseForm.getByLabel("Reason (optional)").fill("Overseas trip");
  await pauseForm.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("14 days");
  await expect(effect(page)).toContainText("Next charge");
  await expect(effect(page)).toContainText("Paused");
  // The demo's memberships have no pause credit: the preview warns that this goes past it (issue 32).
  await expect(effect(page).getByRole("note")).toContainText("past the membership's pause credit");
  // The member page behind the dialog writes its dates as its own page does, never as ISO instants (issue 32).
  expect(await page.locator("body").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/pause-preview.png", fullPage: true });
  await page.getByRole("button", { name: "Pause the membership" }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${id}$`));
  await expect(page.getByText("Pause scheduled", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Manage membership" })).toContainText("Pause to come");
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText("Overseas trip");
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/member-manage.png", fullPage: true });
  // Removed before it starts.
  await actions(page).getByRole("link", { name: "Pause" }).click();
  await page.getByRole("button", { name: "Preview removing it" }).click();
  await page.getByRole("button", { name: "Remove the pause" }).click();
  await expect(page.getByText("Pause removed", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Manage membership" })).not.toContainText("Pause to come");
});

test("cancel at the end of the paid period, then undo; a form opened before a change is told it changed", async ({ page, browser }) => {
  const { id } = await openMember(page, "status=active&sort=name&dir=desc&gym=all", slot(1));
  await actions(page).getByRole("link", { name: "Cancel" }).click();
  // Without a reason: the message, nothing changed.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText("Choose at least one reason")).toBeVisible();
  await page.getByLabel("Moving away").check();
  await page.getByLabel("Comments (optional)").fill("Moving to Christchurch");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Cancelled");
  await expect(effect(page)).toContainText("Can be undone");
  // Someone else changes the membership meanwhile (a pause credit, in another browser).
  const other = await browser.newPage({ javaScriptEnabled: jsEnabled(test.info()) });
  await signIn(other);
  await other.goto(`${BACKOFFICE}/members/${id}/pause`);
  const credit = other.getByRole("form", { name: "Pause credit" });
  await credit.getByLabel(/Days to add/).fill("3");
  await credit.getByRole("button", { name: "Preview" }).click();
  await other.getByRole("button", { name: "Change the credit" }).click();
  await expect(other.getByText("Pause credit changed", { exact: true })).toBeVisible();
  await other.close();
  await page.getByRole("button", { name: "Cancel the membership" }).click();
  await expect(page.getByText(/changed by someone else since you opened this page/)).toBeVisible();
  // Looked at again, it goes through.
  await page.goto(`${BACKOFFICE}/members/${id}/cancel`);
  await page.getByLabel("Moving away").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Cancel the membership" }).click();
  await expect(page.getByText("Membership cancelled", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership" }).first()).toContainText("Cancelled");
  await actions(page).getByRole("link", { name: "Undo cancellation" }).click();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Runs on as before");
  await page.getByRole("button", { name: "Undo the cancellation" }).click();
  await expect(page.getByText("Cancellation undone", { exact: true })).toBeVisible();
});

test("price change: the member's e-mail previewed, the change scheduled, then removed", async ({ page }) => {
  // A member whose price has another of its rhythm at their gym, found through the API (the two projects take different ones).
  const list = (await (await page.request.get(`${BACKOFFICE}/api/members?status=active&gym=all&sort=name&dir=desc`)).json()).data.data as { id: number }[];
  const candidates: number[] = [];
  for (const m of list.slice(6)) {
    const detail = (await (await page.request.get(`${BACKOFFICE}/api/members/${m.id}`)).json()).data;
    const view = (await (await page.request.get(`${BACKOFFICE}/api/subscriptions/${detail.latest_subscription.id}`)).json()).data;
    if (view.actions.price_change && view.price_options.length) candidates.push(m.id);
    if (candidates.length === 2) break;
  }
  const id = candidates[jsEnabled(test.info()) ? 0 : 1];
  expect(id, "a member with another price to move to").toBeTruthy();
  await page.goto(`${BACKOFFICE}/members/${id}/price-change`);
  const select = page.getByLabel("New price");
  await select.selectOption({ index: 1 });
  await page.getByRole("button", { name: "Preview the change and the e-mail" }).click();
  await expect(effect(page)).toContainText("membership price is changing");
  await expect(effect(page)).toContainText("Next charge");
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/price-change-preview.png", fullPage: true });
  await page.getByRole("button", { name: "Schedule the change" }).click();
  await expect(page.getByText("Price change scheduled", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText("Price change scheduled");
  await actions(page).getByRole("link", { name: "Price change" }).click();
  await page.getByRole("button", { name: "Preview removing it" }).click();
  await page.getByRole("button", { name: "Remove the change" }).click();
  await expect(page.getByText("Price change removed", { exact: true })).toBeVisible();
});

test("take payment: a member in a grace period pays at the desk and the grace period ends", async ({ page }) => {
  // A member who owes: the boot's billing run retries the demo's seeded failures (issue 28), so some in a grace
  // period have a retry under way and nothing to take. Each project looks at its own half of the list.
  for (let i = jsEnabled(test.info()) ? 0 : 1; ; i += 2) {
    await openMember(page, "status=grace_period&gym=all", i);
    if (await actions(page).getByRole("link", { name: "Take payment" }).count()) break;
    expect(i, "a member in a grace period with something owing").toBeLessThan(20);
  }
  await actions(page).getByRole("link", { name: "Take payment" }).click();
  await page.getByLabel("EFTPOS at the desk").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Periods paid");
  await expect(effect(page)).toContainText("the grace period ends");
  await page.getByRole("button", { name: /^Record \$/ }).click();
  await expect(page.getByText("Payment recorded", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership" }).first()).not.toContainText("Grace period");
});

test("add paid in full to a member without a membership", async ({ page }) => {
  const { id } = await openMember(page, "status=none&gym=all", jsEnabled(test.info()) ? 2 : 3);
  await page.getByRole("link", { name: "Add paid in full" }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${id}/pif$`));
  const select = page.getByLabel("Paid-in-full price");
  // Every demo gym sells "Anytime 24/7", which has a paid-in-full price: its absence is a failure, not a skip.
  await select.selectOption({ index: 1 });
  await page.getByLabel("Cash").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Paid");
  await page.getByRole("button", { name: /^Add it:/ }).click();
  await expect(page.getByText("Paid-in-full membership added", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership" }).first()).toContainText("PIF");
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText("Paid in full");
});

test("door access: what the membership allows and what the door system holds; the login recreated", async ({ page }) => {
  await openMember(page, "status=active&sort=name&dir=asc&gym=all", slot(0));
  await actions(page).getByRole("link", { name: "Door access" }).click();
  await expect(page.getByRole("heading", { name: "What the membership allows" })).toBeVisible();
  await expect(page.getByText(/^Let in:/)).toBeVisible();
  await page.getByRole("button", { name: "Recreate the door login" }).click();
  await expect(page.getByText("Door login recreated", { exact: true })).toBeVisible();
  await expect(page.getByText("Access on there.")).toBeVisible();
  await expect(page.getByText("It agrees with the membership.")).toBeVisible();
});

test("the action pages have no accessibility violations", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "axe runs in the page's JavaScript");
  const { id } = await openMember(page, "status=active&sort=name&dir=asc&gym=all", 5);
  for (const path of ["pause", "cancel", "price-change", "door"]) {
    await page.goto(`${BACKOFFICE}/members/${id}/${path}`);
    await expectAccessible(page);
  }
});

test("a personal trainer sees no membership actions, and their pages are refused", async ({ page }) => {
  await page.context().clearCookies();
  await signIn(page, "trainer@example.com");
  await page.goto(`${BACKOFFICE}/members?status=active`);
  await rows(page).first().getByRole("link").first().click();
  await expect(page.getByRole("region", { name: "Manage membership" })).toBeVisible();
  await expect(actions(page)).toHaveCount(0);
  const id = new URL(page.url()).pathname.split("/")[2];
  const res = await page.goto(`${BACKOFFICE}/members/${id}/pause`);
  expect(res?.status()).toBe(403);
  // The real reason, not a guess (issue 32).
  await expect(page.getByText("Only admins can change a membership.")).toBeVisible();
});

test("a page for an action that does not apply says why: nothing is owed on a paid-up membership", async ({ page }) => {
  const { id } = await openMember(page, `q=${encodeURIComponent("Morgan Member")}&gym=all`, 0);
  const res = await page.goto(`${BACKOFFICE}/members/${id}/payment`);
  expect(res?.status()).toBe(403);
  await expect(page.getByText("Nothing is owed on this membership.")).toBeVisible();
});

test("a new member who paid in full at the desk: added, invited by e-mail, invited again", async ({ page }) => {
  const email = `desk.${test.info().project.name}.${Date.now()}@example.org`;
  await page.goto(`${BACKOFFICE}/members`);
  await page.getByRole("link", { name: "New paid-in-full member" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New paid-in-full member" })).toBeVisible();
  // Nothing filled in: each field says so.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText("Value is required").first()).toBeVisible();
  await page.getByLabel("Name").fill("Desk Joiner");
  await page.getByLabel("E-mail").fill(email);
  const price = page.getByLabel("Paid-in-full price");
  await price.selectOption({ index: 1 });
  await page.getByLabel("Cash").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText(email);
  await page.getByRole("button", { name: /^Add the member:/ }).click();
  await expect(page.getByText("Member added", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Desk Joiner" })).toBeVisible();
  await expect(page.getByText(/Invited to set a password on/)).toBeVisible();
  const mails = async () =>
    ((await (await page.request.get(`${BACKOFFICE}/dev/mail.json`)).json()) as { to: string; subject: string }[]).filter((m) => m.to === email);
  const invitations = async () => (await mails()).filter((m) => /^Welcome to .*: set your password$/.test(m.subject));
  expect(await invitations()).toHaveLength(1);
  // And the receipt for what they paid at the desk (issue 31), once the member-mail job has run.
  await expect.poll(async () => (await mails()).filter((m) => /^Your .* receipt R-\d{6}$/.test(m.subject)).length).toBe(1);
  await page.getByRole("button", { name: "Send the invitation again" }).click();
  await expect(page.getByText("Invitation sent again", { exact: true })).toBeVisible();
  expect(await invitations()).toHaveLength(2);
});

test("with JavaScript an action opens in place over the member page, keeps its dialog through the preview, and closes back", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "without JavaScript each action is a page (the tests above)");
  const { id } = await openMember(page, "status=active&sort=name&dir=desc&gym=all", 8);
  await switcherButton(page, "Organisation"); // hydrated: links are the app's now
  await actions(page).getByRole("link", { name: "Pause" }).click();
  const dialog = page.getByRole("dialog", { name: /^Pause:/ });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/members/${id}/pause$`));
  await dialog.getByLabel("First day paused").fill(inDays(20));
  await dialog.getByLabel("Back on").fill(inDays(30));
  await dialog.getByRole("form", { name: "Pause the membership" }).getByRole("button", { name: "Preview" }).click();
  await expect(dialog.getByTestId("effect")).toContainText("10 days");
  await page.screenshot({ path: "test-results/screens/pause-in-place.png", fullPage: true });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/members/${id}$`));
  await expect(page.getByRole("region", { name: "Manage membership" })).not.toContainText("Pause to come");
  // Escape closes it too; the same address loaded afresh is the page.
  await actions(page).getByRole("link", { name: "Door access" }).click();
  await expect(page.getByRole("dialog", { name: /^Door access:/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.goto(`${BACKOFFICE}/members/${id}/pause`);
  await expect(page.getByRole("heading", { level: 1, name: /^Pause:/ })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
