import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, jsEnabled, signIn } from "./helpers";

// The membership actions on members in each state the demo holds (issue 12): upcoming, paused, term, paid in full,
// lapsed, with JavaScript on and off. Each member is found through the API by what its membership allows now, and
// the two projects take different ones (the first for JS, the second without).
const effect = (page: Page) => page.getByTestId("effect");
const actions = (page: Page) => page.getByRole("navigation", { name: "Membership actions" });
const inDays = (n: number) => new Date(Date.now() + n * 864e5).toLocaleDateString("en-CA", { timeZone: "Pacific/Auckland" });

type View = {
  actions: Record<string, boolean>;
  pauses: { running: boolean }[];
  is_term_membership: boolean;
  term_ends_at: string | null;
  cooling_period_ends_at: string | null;
  pif_ends_at: string | null;
  cancelled_at: string | null;
};

/** Members of `status` whose membership view passes `fits`: this project's one. */
async function memberWhere(page: Page, status: string, fits: (v: View) => boolean): Promise<number> {
  const found: number[] = [];
  for (let p = 1; p <= 10 && found.length < 2; p++) {
    const list = (await (await page.request.get(`${BACKOFFICE}/api/members?status=${status}&gym=all&sort=joined&dir=asc&page=${p}`)).json()).data;
    for (const m of list.data as { id: number; membership: { subscription_id: number } | null }[]) {
      if (!m.membership) continue;
      const view = (await (await page.request.get(`${BACKOFFICE}/api/subscriptions/${m.membership.subscription_id}`)).json()).data as View;
      if (fits(view)) found.push(m.id);
      if (found.length === 2) break;
    }
    if (p >= list.meta.pages) break;
  }
  const id = found[jsEnabled(test.info()) ? 0 : 1];
  expect(id, `a ${status} member for this test`).toBeTruthy();
  return id;
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("upcoming: start now previews the first payment, then starts it today and charges it", async ({ page }) => {
  const id = await memberWhere(page, "upcoming", (v) => v.actions.start_now);
  await page.goto(`${BACKOFFICE}/members/${id}`);
  await actions(page).getByRole("link", { name: "Start now" }).click();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Today,");
  await expect(effect(page)).toContainText("Charged now");
  await page.getByRole("button", { name: "Start it now and charge" }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${id}$`));
  await expect(page.getByText("Membership started", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership", exact: true })).not.toContainText("Upcoming");
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText(/Started/i);
});

test("active: a pause starting in the past is refused on its field, nothing changes", async ({ page }) => {
  const id = await memberWhere(page, "active", (v) => v.actions.pause && !v.pauses.some((p) => p.running) && !v.is_term_membership);
  await page.goto(`${BACKOFFICE}/members/${id}/pause`);
  const form = page.getByRole("form", { name: "Pause the membership" });
  await form.getByLabel("First day paused").fill(inDays(-3));
  await form.getByLabel("Back on").fill(inDays(10));
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByText("The pause cannot start in the past")).toBeVisible();
  await expect(form.getByLabel("First day paused")).toHaveValue(inDays(-3));
  await expect(effect(page)).toHaveCount(0);
  await page.goto(`${BACKOFFICE}/members/${id}`);
  await expect(page.getByRole("region", { name: "Manage membership" })).not.toContainText("Pause to come");
});

test("paused: the running pause is ended early, and the member is back", async ({ page }) => {
  const id = await memberWhere(page, "paused", (v) => v.pauses.some((p) => p.running));
  await page.goto(`${BACKOFFICE}/members/${id}`);
  await actions(page).getByRole("link", { name: "Pause" }).click();
  const form = page.getByRole("form", { name: "End the pause early" });
  await form.getByLabel("Back on").fill(inDays(1));
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText("Next charge");
  await page.getByRole("button", { name: "End the pause" }).click();
  await expect(page.getByText("Pause ended early", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText(/ended/i);
});

test("term: a cancellation after the cooling-off period shows the break fee before it is confirmed", async ({ page }) => {
  // Past its cooling-off, with more than a month of the term to run (so some of it is left to pay for).
  const monthOn = new Date(Date.now() + 31 * 864e5).toISOString();
  const id = await memberWhere(
    page,
    "active",
    (v) => v.is_term_membership && v.actions.cancel && Boolean(v.cooling_period_ends_at) && v.cooling_period_ends_at! < new Date().toISOString() && (v.term_ends_at ?? "") > monthOn,
  );
  await page.goto(`${BACKOFFICE}/members/${id}`);
  await actions(page).getByRole("link", { name: "Cancel" }).click();
  await page.getByLabel("Moving away").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText(/Break fee \$[\d,]+\.\d\d, to their payment method/);
  await expect(effect(page)).toContainText("Can be undone");
  await page.getByRole("button", { name: "Cancel the membership" }).click();
  await expect(page.getByText("Membership cancelled", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership history" })).toContainText(/break fee/i);
});

test("paid in full: no price change or start now; cancelling charges nothing", async ({ page }) => {
  const id = await memberWhere(page, "active", (v) => Boolean(v.pif_ends_at) && v.actions.cancel);
  await page.goto(`${BACKOFFICE}/members/${id}`);
  await expect(actions(page).getByRole("link", { name: "Change price" })).toHaveCount(0);
  await expect(actions(page).getByRole("link", { name: "Start now" })).toHaveCount(0);
  await actions(page).getByRole("link", { name: "Cancel" }).click();
  await page.getByLabel("Cost").check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(effect(page)).toContainText(/Charged now\s*Nothing/);
});

test("cancelled and lapsed: nothing to change but the door", async ({ page }) => {
  const id = await memberWhere(page, "cancelled", (v) => !v.actions.undo_cancel && !v.actions.cancel);
  await page.goto(`${BACKOFFICE}/members/${id}`);
  const links = await actions(page).getByRole("link").allTextContents();
  expect(links.filter((l) => !["Door access", "Add paid in full"].includes(l))).toEqual([]);
});
