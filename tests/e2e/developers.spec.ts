import { expect, request, test } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, submitAndSettle } from "./helpers";

/**
 * API keys (issue 33): an organisation admin makes a key on the Developers page (bad input kept and explained), sees its
 * secret once, an integrator uses it with nothing but the header, it never opens a page, and revoking it stops it.
 * JavaScript on and off, at an office screen and on a phone.
 */
for (const [size, viewport] of [
  ["office", { width: 1366, height: 768 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`an organisation admin makes an API key, an integrator uses it, and it is revoked (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const name = `E2E ${test.info().project.name} ${size} ${Date.now() % 100000}`;
    await signIn(page);
    await page.goto(`${BACKOFFICE}/organisation/developers`);
    await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();

    // No name: refused, with the chosen levels kept.
    await page.getByLabel("Members: Read", { exact: true }).check();
    await page.getByLabel("Offerings and prices: Read and write", { exact: true }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText("Value is required")).toBeVisible();
    await expect(page.getByLabel("Members: Read", { exact: true })).toBeChecked();
    await expect(page.getByLabel("Offerings and prices: Read and write", { exact: true })).toBeChecked();

    await page.getByLabel("Name", { exact: true }).fill(name);
    await submitAndSettle(page, page.getByRole("button", { name: "Create key" }));
    const shown = page.getByRole("textbox", { name: "The new API key" });
    await expect(shown).toBeVisible();
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^gym_live_[0-9a-z]{32}$/);
    if (size === "office") await expectAccessible(page);
    await page.screenshot({ path: `test-results/developers-${test.info().project.name}-${size}.png`, fullPage: true });

    // An integrator: only the header, no cookie, no X-Requested-With, from elsewhere.
    const integrator = await request.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${secret}`, Origin: "https://integrator.example" } });
    const members = await integrator.get(`${BACKOFFICE}/api/members`);
    expect(members.status()).toBe(200);
    expect((await members.json()).data.data.length).toBeGreaterThan(0);
    expect((await integrator.get(`${BACKOFFICE}/api/payments`)).status()).toBe(403);
    // The key never opens a page: the back-office asks who is signed in, and nobody is.
    const pageWithKey = await integrator.get(`${BACKOFFICE}/members`, { maxRedirects: 0 });
    expect(pageWithKey.status()).toBe(302);
    expect(pageWithKey.headers()["location"]).toContain("/login");

    // The secret is not shown again; the key is listed with its access and its last use.
    await page.goto(`${BACKOFFICE}/organisation/developers`);
    await expect(page.getByRole("textbox", { name: "The new API key" })).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
    await expect(item).toContainText(`${secret.slice(0, 17)}…`);
    await expect(item).toContainText("Members: read · Offerings and prices: read and write");
    await expect(item).toContainText(/Last used.+from /);

    await item.getByText("Revoke…").click();
    await submitAndSettle(page, item.getByRole("button", { name: `Revoke ${name}` }));
    await expect(page.getByText("API key revoked").first()).toBeVisible();
    await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) })).toContainText("Revoked");
    expect((await integrator.get(`${BACKOFFICE}/api/members`)).status()).toBe(401);
    await integrator.dispose();
  });
}

test("the Developers page is for organisation admins only", async ({ page }) => {
  await signIn(page, "trainer@example.com");
  await page.goto(`${BACKOFFICE}/organisation/developers`);
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
});

test("the API reference reads the OpenAPI document, under the page's own CSP", async ({ page }) => {
  const refused: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") refused.push(m.text());
  });
  await page.goto(`${BACKOFFICE}/api/docs`);
  if (!jsEnabled(test.info())) {
    await expect(page.getByRole("link", { name: "/api/openapi.json" })).toBeVisible();
    return;
  }
  await expect(page.getByRole("heading", { name: /Gym Membership API/ })).toBeVisible();
  await expect(page.getByText("List members").first()).toBeVisible();
  await page.screenshot({ path: `test-results/api-docs-${test.info().project.name}.png`, fullPage: false });
  expect(refused).toEqual([]);
});
