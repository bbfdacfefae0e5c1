import { expect, test } from "@playwright/test";
import { BACKOFFICE, SIGNUP, jsEnabled, signIn, submitAndSettle } from "./helpers";

/**
 * Opening a new location (issue 32): an organisation admin opens a gym (bad input kept and explained), hands out its
 * join link (QR code, the form for their own site, a link per price), and archives it. JavaScript on and off; at an
 * office screen and on a phone. The gym is archived at the end, so the demo's lists are as they were.
 */
for (const [size, viewport] of [
  ["office", { width: 1366, height: 768 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`an organisation admin opens a new gym, hands out its join link, and archives it (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const name = `Kingsland ${test.info().project.name} ${size} ${Date.now() % 100000}`;
    await signIn(page);
    await page.goto(`${BACKOFFICE}/gyms`);
    await page.getByRole("link", { name: "Open a new gym" }).click();
    await expect(page).toHaveURL(`${BACKOFFICE}/gyms/new`);
    await expect(page.getByRole("heading", { level: 1, name: /^Open a new gym/ })).toBeVisible();

    // A bank account half given: refused, with every value kept.
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Address").fill("2 New North Road\nKingsland\nAuckland 1021");
    await page.getByLabel("Account name").fill("Kingsland trading");
    await page.getByLabel("Account number", { exact: true }).fill("12-3140-0171323-50");
    await page.getByLabel("Account number again").fill("12-3140-0171323-51");
    await page.getByRole("button", { name: "Open the gym" }).click();
    await expect(page.getByText("The value must be equal to the other value")).toBeVisible();
    await expect(page).toHaveURL(`${BACKOFFICE}/gyms/new`);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(page.getByLabel("Address")).toHaveValue("2 New North Road\nKingsland\nAuckland 1021");

    await page.getByLabel("Account number again").fill("12-3140-0171323-50");
    await page.getByLabel("Count door openings as visits").check();
    await submitAndSettle(page, page.getByRole("button", { name: "Open the gym" }));
    await expect(page).toHaveURL(/\/gyms\/\d+$/);
    const gymUrl = page.url();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("Gym opened").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Details" })).toContainText("2 New North Road");
    await expect(page.getByRole("region", { name: "Bank account" })).toContainText("12-••••-•••1323-50");

    // The join link, its QR code, the form for the gym's own site, and a link per price (the demo's are sold everywhere).
    const join = page.getByRole("region", { name: "Join links" });
    const link = (await join.getByLabel(`Join link for ${name}`, { exact: true }).textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${SIGNUP.replace(/\./g, "\\.")}/\\?gym=[0-9a-f-]{36}$`));
    await expect(join.getByRole("img", { name: `QR code of the join link for ${name}` })).toBeVisible();
    await expect(join.getByLabel("A sign-up form for your own website")).toHaveValue(
      new RegExp(`<form method="post" action="${link.replace(/[?.]/g, "\\$&")}">`),
    );
    await expect(join.getByRole("listitem").first()).toContainText("?gym=");
    const qr = await page.request.get(`${gymUrl}/qr.svg`);
    expect(qr.headers()["content-type"]).toContain("image/svg+xml");
    expect(await qr.text()).toContain("<svg");
    await page.screenshot({ path: `test-results/new-gym-${test.info().project.name}-${size}.png`, fullPage: true });

    // The link opens the gym's sign-up.
    await page.goto(link);
    await expect(page.getByText(name).first()).toBeVisible();

    // In the switcher (the office layout shows it), then archived: out of the switcher, no join link.
    await page.goto(gymUrl);
    if (size === "office")
      await expect(
        page
          .getByRole("button", { name: /^Gym/ })
          .or(page.getByLabel("Gym", { exact: true }))
          .first(),
      ).toBeVisible();
    await submitAndSettle(page, page.getByRole("button", { name: `Archive ${name}` }));
    await expect(page.getByText("Gym archived").first()).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "This gym is archived" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Join links" })).toContainText("it takes no new members");
    await page.goto(`${BACKOFFICE}/gyms`);
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Archived");
    if (!jsEnabled(test.info())) return;
    expect((await page.request.get(`${BACKOFFICE}/api/public/gyms`).then((r) => r.json())).data.map((g: { name: string }) => g.name)).not.toContain(name);
  });
}
