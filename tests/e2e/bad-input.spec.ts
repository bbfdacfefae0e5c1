import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, signIn } from "./helpers";

/** Issue 17: hostile input to the pages answers a 4xx page, never a 500, and never reaches another API path. */

type Me = { current_organisation: { id: number }; organisations: { id: number }[] };
const me = async (page: Page) => (await (await page.request.get(`${BACKOFFICE}/api/me`)).json()).data as Me;

test("a route id cannot walk the API path: the photo form with ..%2F… is 404 and the organisation stays", async ({ page }) => {
  await signIn(page);
  const before = await me(page);
  const other = before.organisations.find((o) => o.id !== before.current_organisation.id)!;
  expect(other).toBeTruthy();
  const res = await page.request.post(`${BACKOFFICE}/members/..%2Forganisations%2F${other.id}%2Fswitch%3F/photo`, {
    headers: { origin: BACKOFFICE },
    multipart: { file: { name: "a.png", mimeType: "image/png", buffer: Buffer.from("not really") } },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(404);
  expect((await me(page)).current_organisation.id).toBe(before.current_organisation.id);
});

test("a page post without a form Content-Type answers 400 with a message, not 500", async ({ page }) => {
  for (const headers of [{ "content-type": "text/plain" }, { "content-type": "multipart/form-data; boundary=x" }, {}] as Record<string, string>[]) {
    const res = await page.request.post(`${BACKOFFICE}/login`, { headers: { origin: BACKOFFICE, ...headers }, data: "email=admin%40example.com", maxRedirects: 0 });
    expect(res.status(), JSON.stringify(headers)).toBe(400);
    expect(await res.text()).toContain("The form could not be read");
  }
});

test("the member page takes any ?payments_page= and ?visits_page= without an error page", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members`);
  await page.getByRole("table").locator('a[href^="/members/"]').first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  const member = page.url();
  for (const q of ["payments_page=x", "payments_page=-1&visits_page=1e30", "visits_page=2147483648", "payments_page=%00"]) {
    const res = await page.goto(`${member}?${q}`);
    expect(res?.status(), q).toBe(200);
    await expect(page.getByRole("heading", { name: /^Payments/ })).toBeVisible();
  }
  const res = await page.goto(`${BACKOFFICE}/members/99999999999/edit`);
  expect(res?.status()).toBe(404);
});

test("an API refusal a page did not expect (the export's filters too large) is its 4xx page, not 500", async ({ page }) => {
  await signIn(page);
  // Under the page's own 64 KB limit (server.js), over the API's once the page sends it on as JSON: a control
  // character is 3 bytes in the form (%01) and 6 in JSON (\u0001).
  const res = await page.request.post(`${BACKOFFICE}/members/export`, { headers: { origin: BACKOFFICE }, form: { q: "\u0001".repeat(20_000) }, maxRedirects: 0 });
  expect(res.status()).toBe(413);
  expect(await res.text()).toContain("The request body is too large.");
});
