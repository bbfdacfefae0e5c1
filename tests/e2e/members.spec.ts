import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

const table = (page: Page) => page.getByRole("table");
const rows = (page: Page) => table(page).locator("tbody tr");

/** Opens the first member the list shows for these filters. */
async function openFirst(page: Page, query: string, index = 0) {
  await page.goto(`${BACKOFFICE}/members?${query}`);
  const link = rows(page).nth(index).getByRole("link").first();
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return { name, id: Number(new URL(page.url()).pathname.split("/")[2]) };
}

test("the list pages, filters and sorts through the URL", async ({ page }) => {
  await signIn(page);
  await page
    .getByRole("complementary", { name: "Sidebar" })
    .getByRole("link", { name: /^Members/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Members", exact: true })).toBeVisible();
  await expect(rows(page)).toHaveCount(50);
  const summary = page.getByText(/^Showing 1–50 of \d+/);
  await expect(summary).toBeVisible();

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Showing 51–/)).toBeVisible();

  await page.getByLabel("Status").selectOption("paused");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=paused/);
  await expect(page).not.toHaveURL(/page=2/);
  const badges = rows(page).locator(`td[data-label="Status"]`);
  expect(await badges.count()).toBeGreaterThan(0);
  for (const text of await badges.allTextContents()) expect(text).toBe("Paused");

  await table(page)
    .getByRole("link", { name: /^Joined/ })
    .click();
  await expect(page).toHaveURL(/sort=joined&dir=desc/);
  await expect(table(page).getByRole("columnheader", { name: /^Joined/ })).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByLabel("Status")).toHaveValue("paused");

  await page.goto(`${BACKOFFICE}/members?status=sleeping`);
  await expect(page.getByText("Choose a status from the list")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("Some filters could not be used");
});

test("export downloads the filtered list as CSV", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members?status=grace_period&gym=all`);
  const total = Number((await page.getByRole("button", { name: /Export CSV/ }).textContent())!.match(/\((\d+)\)/)![1]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: /Export CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, "utf8")).trim().split("\n");
  expect(lines[0]).toMatch(/^ID,Name,E-mail,Mobile,Gym,Offering/);
  expect(lines).toHaveLength(total + 1);
  for (const line of lines.slice(1)) expect(line).toContain(",Grace period,");
  // Joined as the page shows it: Auckland's day, not a UTC instant.
  expect(lines[0]).toMatch(/,Joined \(NZ date\)$/);
  for (const line of lines.slice(1)) expect(line).toMatch(/,\d{4}-\d{2}-\d{2}$/);
});

test("the status card shows each state in its colour", async ({ page }) => {
  await signIn(page);
  const expected = {
    active: ["Active", ["green"]],
    paused: ["Paused", ["amber"]],
    grace_period: ["Grace period", ["amber"]],
    upcoming: ["Upcoming", ["amber"]],
    cancelled: ["Cancelled", ["green", "red"]],
  } as const;
  for (const [state, [label, colours]] of Object.entries(expected)) {
    await openFirst(page, `status=${state}&gym=all`);
    const card = page.getByRole("region", { name: "Membership", exact: true });
    await expect(card).toContainText(label);
    expect(colours).toContain(await card.getAttribute("data-status-colour"));
    await expect(page.getByRole("region", { name: /^Payments/ })).toBeVisible();
    await expect(page.getByRole("region", { name: /^Visits/ })).toBeVisible();
  }
});

test("activity: weekly visits, memberships over time and cost per visit, each with its figures", async ({ page }) => {
  await signIn(page);
  await openFirst(page, "status=active&sort=last_visit");
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Activity of / })).toBeVisible();
  for (const [heading, chart] of [
    ["Visits per week, last 26 weeks", "Visits per week"],
    ["Cost per visit, by week", "Cost per visit by week"],
    ["Memberships over time", /^Timeline of \d+ membership/],
  ] as const) {
    const panel = page.getByRole("region", { name: heading });
    await expect(panel.getByRole("img", { name: chart })).toBeVisible();
    await panel.getByText("Show the figures").click();
    await expect(panel.getByRole("group").getByRole("table")).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Visits per week, last 26 weeks" }).getByRole("group").getByRole("row")).toHaveCount(27);
});

test("editing: bad input keeps the values and says what is wrong; good input saves", async ({ page }) => {
  await signIn(page);
  const { id } = await openFirst(page, "status=active&sort=joined&dir=asc", jsEnabled(test.info()) ? 1 : 2);
  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByRole("group", { name: "Contact", exact: true }).getByLabel("Name").fill("");
  await page.getByLabel("E-mail", { exact: true }).fill("not-an-address");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Value is required")).toBeVisible();
  await expect(page.getByText("Value is not a valid email address")).toBeVisible();
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("not-an-address");
  await expect(page.getByRole("group", { name: "Contact", exact: true }).getByLabel("Name")).toBeFocused();

  const name = `Edited ${test.info().project.name} Member`;
  await page.getByRole("group", { name: "Contact", exact: true }).getByLabel("Name").fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill(`edited.${test.info().project.name}.${Date.now()}@example.org`);
  await page.getByLabel("Tags").fill("vip, morning");
  await page.getByLabel("Notes").fill("Prefers the 6 am class");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(`${BACKOFFICE}/members/${id}`);
  await expect(page.getByText("Member saved")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("vip, morning")).toBeVisible();
  await expect(page.getByText("Prefers the 6 am class")).toBeVisible();
});

test("photo upload: a styled control; a good image shows; anything else gets a clear message", async ({ page }) => {
  const sharp = (await import("sharp")).default;
  const js = jsEnabled(test.info());
  await signIn(page);
  await openFirst(page, "status=upcoming&gym=all", js ? 0 : 1);
  const control = page.getByText(/^(Add a photo|Change photo)$/);
  const input = page.getByLabel(/Add a photo|Change photo/);
  // A button-like label, not the browser's "Choose File / No file chosen": the input itself is visually hidden.
  await expect(control).toBeVisible();
  expect((await input.boundingBox())?.width).toBeLessThanOrEqual(1);
  // Without JavaScript the file is chosen, then sent with Upload; with it, choosing sends it.
  const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    await input.setInputFiles(file);
    if (js) return;
    await expect(page.getByText("Photo chosen.")).toBeVisible();
    await page.getByRole("button", { name: "Upload" }).click();
  };
  if (js) await expect(page.getByRole("button", { name: "Upload" })).toHaveCount(0);
  else await expect(page.getByText("Photo chosen.")).toBeHidden();

  await choose({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not really a picture") });
  await expect(page.getByText("Photo not changed")).toBeVisible();
  await expect(page.getByText("Choose a JPEG, PNG or WebP image.")).toBeVisible();

  const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#22aa66" } })
    .png()
    .toBuffer();
  await choose({ name: "me.png", mimeType: "image/png", buffer: png });
  await expect(page.getByText("Photo updated")).toBeVisible();
  await expect(control).toHaveText("Change photo");
  const img = page.locator("img[src*='/profile-picture']");
  await expect(img).toBeVisible();
  // Visible is not decoded: the browser shows the element before the image's bytes are in (naturalWidth is 0 until then).
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(512);
});

test("deleting asks first, then the member leaves the list", async ({ page }) => {
  await signIn(page);
  const { id, name } = await openFirst(page, `status=none&sort=joined&dir=${jsEnabled(test.info()) ? "asc" : "desc"}`);
  await page.getByRole("link", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: `Delete ${name}?` })).toBeVisible();
  await page.getByRole("button", { name: "Delete member" }).click();
  await expect(page).toHaveURL(`${BACKOFFICE}/members`);
  await expect(page.getByText("Member deleted")).toBeVisible();
  const res = await page.goto(`${BACKOFFICE}/members/${id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("another organisation's member is not found", async ({ page }) => {
  await signIn(page);
  // Find a Harbour Strength member through the API, then come back to Demo Fitness.
  const headers = { "x-requested-with": "XMLHttpRequest" };
  const me = await (await page.request.get(`${BACKOFFICE}/api/me`)).json();
  const home = me.data.current_organisation.id;
  const harbour = me.data.organisations.find((o: { name: string }) => o.name === "Harbour Strength").id;
  await page.request.post(`${BACKOFFICE}/api/organisations/${harbour}/switch`, { headers });
  const theirs = (await (await page.request.get(`${BACKOFFICE}/api/members`)).json()).data.data[0].id;
  await page.request.post(`${BACKOFFICE}/api/organisations/${home}/switch`, { headers });

  const res = await page.goto(`${BACKOFFICE}/members/${theirs}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  // The error page stays inside the shell: the sidebar and search are still there.
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: /^Members/ })).toBeAttached();
  await expect(page.getByPlaceholder("Search")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to members" })).toBeVisible();
  expect((await page.request.get(`${BACKOFFICE}/api/members/${theirs}`)).status()).toBe(404);
});

test("no accessibility violations on the members list and a member's page", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "axe runs as a script in the page; the markup it checks is the same server-rendered HTML");
  await signIn(page);
  const { id } = await openFirst(page, "status=paused");
  for (const path of ["/members", `/members/${id}`, `/members/${id}/edit`]) {
    await page.goto(`${BACKOFFICE}${path}`);
    await expectAccessible(page);
  }
});

test("a trainer reads members of their gym but cannot change them, export them or see money", async ({ page }) => {
  await signIn(page, "trainer@example.com");
  // The dashboard without revenue.
  await expect(page.getByText("Visits today")).toBeVisible();
  await expect(page.getByText("Collected this month")).toHaveCount(0);
  await page.goto(`${BACKOFFICE}/members`);
  await expect(page.getByRole("button", { name: /Export CSV/ })).toHaveCount(0);
  const { id } = await openFirst(page, "");
  await expect(page.getByRole("link", { name: "Activity" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Delete" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Upload" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /^Visits/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Payments/ })).toHaveCount(0);
  // Typing the address does not help: the API refuses, and the page says so.
  const res = await page.goto(`${BACKOFFICE}/members/${id}/edit`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
});
