import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, SIGNUP, switcherButton } from "./helpers";
/** The search's hits (the plain switchers' selects, until a pointer comes over them, have options too). */
const hits = (page: Page) => page.getByRole("listbox", { name: "Members found" }).getByRole("option");

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });

async function switchTo(page: Page, label: "Organisation" | "Gym", option: string) {
  if (jsEnabled(test.info())) {
    await (await switcherButton(page, label)).click();
    await page.getByRole("menuitem", { name: option }).click();
  } else {
    await page.getByLabel(label, { exact: true }).selectOption({ label: option });
    await page
      .getByRole("button", { name: "Switch" })
      .nth(label === "Organisation" ? 0 : 1)
      .click();
  }
}

test("the sidebar follows the role and the organisation", async ({ page }) => {
  await signIn(page);
  const nav = sidebar(page);
  for (const name of ["Dashboard", "Check-in", "Calendar", "Classes", "Messages", "Members", "Payments", "Visits", "Offerings"]) {
    await expect(nav.getByRole("link", { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await expect(nav.getByText("Organisation", { exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Staff" })).toBeHidden();
  await nav.getByText("Organisation", { exact: true }).click(); // a group opens when toggled, JS or not
  for (const name of ["Staff", "Gyms", "Settings", "Calculate Pro Rata"]) await expect(nav.getByRole("link", { name })).toBeVisible();

  // "Your access" (SPEC §2's info box): closed, its summary names the role; opened (JS or not), SPEC's facts.
  const info = nav.getByLabel("Your access");
  await expect(nav.getByTestId("access-role")).toHaveText("Organisation admin");
  await expect(info).toBeHidden();
  await nav.getByText("Your access").click();
  await expect(info).toBeVisible();
  await expect(info).toContainText("Organisation AdminYes");
  await expect(info).toContainText("Gym AdminYes");
  await expect(info).toContainText("Gym Admin of more than 1 gymYes");
  await expect(info).toContainText("Org is multi-gymYes");
  await expect(nav.getByText("Alex Admin")).toBeVisible();
  await expect(nav.getByRole("link", { name: /^Messages/ }).getByTestId("unread-badge")).toHaveText(/^[1-9]\d* unread$/);
  await page.screenshot({ path: `test-results/shell-${test.info().project.name}.png`, fullPage: true });
});

test("a trainer sees no Organisation group and no switchers", async ({ page }) => {
  await signIn(page, "trainer@example.com");
  const nav = sidebar(page);
  await expect(nav.getByRole("link", { name: /^Members/ })).toBeVisible();
  await expect(nav.getByText("Organisation", { exact: true })).toHaveCount(0);
  // Payments are money, which a trainer may not see.
  await expect(nav.getByRole("link", { name: /^Payments/ })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: /^Visits/ })).toBeVisible();
  await expect(nav.getByTestId("access-role")).toHaveText("Personal Trainer");
  await expect(nav.getByLabel("Your access")).toContainText("Organisation AdminNo");
  await expect(nav.getByLabel("Your access")).not.toContainText("Gym Admin");
  await expect(page.getByRole("button", { name: /^(Organisation|Gym):/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Switch" })).toHaveCount(0);
  // Organisation settings are for organisation admins: anyone else goes to the dashboard.
  await page.goto(`${BACKOFFICE}/organisation/settings`);
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
});

test("guarded sections let in those they are for", async ({ page }) => {
  await signIn(page);
  // This is Demo Fitness's organisation admin: the settings page opens.
  const settings = await page.goto(`${BACKOFFICE}/organisation/settings`);
  expect(settings?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Organisation settings" })).toBeVisible();
  // Demo Fitness has calendar and messaging: no redirect.
  const messages = await page.goto(`${BACKOFFICE}/messages`);
  expect(messages?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  const calendar = await page.goto(`${BACKOFFICE}/calendar`);
  expect(calendar?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
});

test("switching organisation and gym", async ({ page }) => {
  await signIn(page);
  try {
    await switchTo(page, "Gym", "Demo Fitness Ponsonby");
    await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
    await expect(page.getByText("Demo Fitness · Demo Fitness Ponsonby")).toBeVisible();

    await switchTo(page, "Organisation", "Harbour Strength");
    await expect(page.getByText("Now working in Harbour Strength")).toBeVisible();
    const nav = sidebar(page);
    await expect(nav.getByText("Harbour Strength", { exact: true })).toBeVisible();
    // Harbour Strength has no calendar or messaging, and one gym: no gym switcher.
    await expect(nav.getByRole("link", { name: /^Calendar/ })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: /^Messages/ })).toHaveCount(0);
    await expect(nav.getByLabel("Your access")).toContainText("Org is multi-gymNo");
    // …and its calendar, schedules and messages send its staff to the dashboard.
    for (const path of ["/calendar", "/recurring-schedules", "/recurring-schedules/new", "/messages"]) {
      await page.goto(`${BACKOFFICE}${path}`);
      await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
    }
  } finally {
    // The choice is kept on the user: put it back for the other tests.
    await page.goto(`${BACKOFFICE}/dashboard`);
    if (await page.getByText("Harbour Strength · ").count()) await switchTo(page, "Organisation", "Demo Fitness");
    await switchTo(page, "Gym", "Demo Fitness Central");
    await expect(page.getByText("Demo Fitness · Demo Fitness Central")).toBeVisible();
  }
});

test("global search", async ({ page }) => {
  await signIn(page);
  const box = page.getByPlaceholder("Search", { exact: true });
  if (jsEnabled(test.info())) {
    // Headless UI's Combobox comes when the box takes focus (decision 0052), and keeps it.
    await box.focus();
    await expect(page.getByRole("combobox", { name: "Search" })).toBeFocused();
    // Hold the first call until the spinner has been seen (a fixed delay was a race on a busy machine), and count the calls.
    let calls = 0;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/search", async (route) => {
      calls++;
      if (calls === 1) await held;
      await route.continue();
    });
    await box.pressSequentially("morg", { delay: 80 });
    // One call for the whole word, made only after the 600 ms pause; a spinner while it runs, then the hits.
    expect(calls).toBe(0);
    await expect(page.getByTestId("search-spinner")).toBeVisible();
    await expect(page.getByRole("listbox", { name: "Members found" })).toBeHidden();
    release();
    const hit = hits(page).filter({ hasText: "member@example.com" });
    await expect(hit).toBeVisible();
    await expect(page.getByTestId("search-spinner")).toBeHidden();
    expect(calls).toBe(1);
    await box.fill("zzzz-nobody");
    await expect(page.getByText('No results found for "zzzz-nobody"')).toBeVisible();
    await box.fill("");
    await expect(page.getByText(/No results found/)).toBeHidden();
    await page.waitForTimeout(800);
    expect(calls).toBe(2); // the empty query made no call
    // A click outside clears the query and the results.
    await box.fill("morgan");
    await expect(hits(page).first()).toBeVisible();
    await page.getByRole("heading", { name: "Dashboard" }).click();
    await expect(box).toHaveValue("");
    await expect(hits(page)).toHaveCount(0);
    // A failed call shows the box in its error style.
    await page.unroute("**/api/search");
    await page.route("**/api/search", (route) => route.fulfill({ status: 503, body: "{}" }));
    await box.fill("morgan");
    await expect(box).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Search failed. Try again.")).toBeVisible();
    await page.unroute("**/api/search");
    await box.fill("Morgan M");
    await expect(box).not.toHaveAttribute("aria-invalid");
    await hits(page).filter({ hasText: "member@example.com" }).click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
  } else {
    await box.fill("morgan");
    await box.press("Enter");
    await expect(page).toHaveURL(`${BACKOFFICE}/search?q=morgan`);
    await expect(page.getByRole("link", { name: /Morgan Member/ })).toBeVisible();
    await page.goto(`${BACKOFFICE}/search?q=zzzz-nobody`);
    await expect(page.getByText('No results found for "zzzz-nobody"')).toBeVisible();
  }
});

test("the phone sidebar opens from the menu button and closes on navigation", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page);
  const nav = sidebar(page);
  await expect(nav.getByRole("link", { name: /^Members/ })).toBeHidden();
  await page.locator("header label", { hasText: "Open menu" }).click();
  await expect(nav.getByRole("link", { name: /^Dashboard/ })).toBeVisible();
  await page.waitForTimeout(300); // let the slide-in finish
  await page.screenshot({ path: `test-results/phone-menu-${test.info().project.name}.png` });
  // "Your access" at the menu's foot opens there too.
  await nav.getByText("Your access").click();
  await expect(nav.getByLabel("Your access")).toBeVisible();
  await expect(nav.getByLabel("Your access")).toContainText("Org is multi-gymYes");
  await page.screenshot({ path: `test-results/phone-menu-access-${test.info().project.name}.png` });
  await page.goto(`${BACKOFFICE}/search`);
  await page.locator("header label", { hasText: "Open menu" }).click();
  await nav.getByRole("link", { name: /^Dashboard/ }).click();
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
  await expect(nav.getByRole("link", { name: /^Dashboard/ })).toBeHidden();
});

test("logout from the sidebar", async ({ page }) => {
  await signIn(page);
  await sidebar(page).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("no accessibility violations on the dashboard and the search results", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "axe runs as a script in the page; the markup it checks is the same server-rendered HTML");
  await signIn(page);
  for (const path of ["/dashboard", "/search?q=morgan"]) {
    await page.goto(`${BACKOFFICE}${path}`);
    // With the sidebar's "Your access" open, so its facts are checked too.
    await sidebar(page).getByText("Your access").click();
    await expectAccessible(page);
  }
});

test("the dashboard draws its charts with their figures as text, and hydrates them cleanly", async ({ page }) => {
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(msg.text());
  });
  await signIn(page);
  const charts = [
    ["Active members, last 12 weeks", /^Active members per week since the week of /],
    ["Members by membership state", /^Members by membership state$/],
    ["Revenue and cost per visit", /^Revenue collected per month, /],
    ["Members by offering", /^Members by offering$/],
  ] as const;
  const expectCharts = async () => {
    for (const [heading, chart] of charts) {
      const panel = page.getByRole("region", { name: heading });
      await expect(panel.getByRole("img", { name: chart })).toBeVisible();
      // Every figure is also text: the chart's table, hidden from sight but not from screen readers.
      await expect(panel.getByRole("table", { name: chart })).toBeAttached();
    }
  };
  await expectCharts();
  if (jsEnabled(test.info())) {
    // Drawn by the browser this time (a client-side navigation), the same charts.
    await sidebar(page).getByRole("link", { name: "Members", exact: true }).click();
    await expect(page).toHaveURL(/\/members$/);
    await sidebar(page).getByRole("link", { name: "Dashboard", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectCharts();
  }
  expect(problems).toEqual([]);
});

test("a dead link keeps the shell for staff; guests and the sign-up host get the bare page", async ({ page }) => {
  // Not signed in: the plain 404, not the sign-in page (there is nothing there to sign in for).
  let res = await page.goto(`${BACKOFFICE}/no-such-page/at-all`);
  expect(res?.status()).toBe(404);
  await expect(page).toHaveURL(`${BACKOFFICE}/no-such-page/at-all`);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the start page" })).toBeVisible();
  await expect(sidebar(page)).toHaveCount(0);
  res = await page.goto(`${SIGNUP}/no-such-page`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(sidebar(page)).toHaveCount(0);

  await signIn(page);
  res = await page.goto(`${BACKOFFICE}/no-such-page/at-all`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByText("There is nothing here.")).toBeVisible();
  // The sidebar, the search and the switchers are all still there, and lead on.
  await expect(sidebar(page).getByRole("link", { name: /^Members/ })).toBeVisible();
  await expect(page.getByPlaceholder("Search", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the start page" })).toHaveCount(0);
  // From the 404, the sidebar leads on (with JavaScript, a navigation in the page).
  await sidebar(page)
    .getByRole("link", { name: /^Calendar/ })
    .click();
  await expect(page).toHaveURL(`${BACKOFFICE}/calendar`);
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  await sidebar(page)
    .getByRole("link", { name: /^Members/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Members", exact: true })).toBeVisible();
});

test("the search results page keeps the query in the box", async ({ page }) => {
  await signIn(page);
  const box = page.getByPlaceholder("Search", { exact: true });
  await box.fill("morgan");
  await box.press("Enter");
  await expect(page).toHaveURL(`${BACKOFFICE}/search?q=morgan`);
  await expect(page.getByRole("link", { name: /Morgan Member/ })).toBeVisible();
  await expect(box).toHaveValue("morgan");
  // Corrected from there: the new query stays too.
  await box.fill("zzzz-nobody");
  await box.press("Enter");
  await expect(page).toHaveURL(`${BACKOFFICE}/search?q=zzzz-nobody`);
  await expect(page.getByText('No results found for "zzzz-nobody"')).toHaveCount(1);
  await expect(box).toHaveValue("zzzz-nobody");
  // Opened from its address (a bookmark, a reload).
  await page.goto(`${BACKOFFICE}/search?q=member%40example`);
  await expect(box).toHaveValue("member@example");
  // Leaving the results empties it again.
  await page.getByRole("link", { name: /Morgan Member/ }).click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(box).toHaveValue("");
});

test("the dashboard says why active memberships and active members differ: the grace periods", async ({ page }) => {
  await signIn(page);
  const figure = async (label: string) =>
    Number(
      (await page
        .locator("dl > div")
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator("dd")
        .first()
        .textContent())!.replace(/,/g, ""),
    );
  const active = await figure("Active memberships");
  const grace = await figure("In grace period");
  expect(grace).toBeGreaterThan(0); // the demo has some
  await expect(page.getByText(`${active + grace} active members, counting the ${grace} in a grace period`)).toBeVisible();
  // …which is the chart's figure beside it.
  await expect(page.getByRole("region", { name: "Active members, last 12 weeks" }).getByText(/now,/)).toContainText(`${active + grace} now`);
});
