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
