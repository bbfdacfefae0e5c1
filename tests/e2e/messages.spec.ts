import { expect, test, type Browser, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, expectAccessible, jsEnabled, PASSWORD, signIn, submitAndSettle } from "./helpers";

/** Messages (issue 16), with JavaScript on and off: a member writes, staff read it (the badge goes down) and answer. */

/** The demo member, signed in through the API as the member app would be, in a browser of their own. */
async function memberApi(browser: Browser, page: Page) {
  const context = await browser.newContext();
  const api = context.request;
  expect((await api.post(`${BACKOFFICE}/api/login`, { data: { email: "member@example.com", password: PASSWORD }, headers: { "x-requested-with": "XMLHttpRequest" } })).ok()).toBeTruthy();
  const verified = await api.post(`${BACKOFFICE}/api/email/verify`, { data: { code: await codeFor(page, "member@example.com") }, headers: { "x-requested-with": "XMLHttpRequest" } });
  expect(verified.ok()).toBeTruthy();
  return { api, close: () => context.close() };
}

const badge = (page: Page) => page.getByRole("complementary", { name: "Sidebar" }).getByTestId("unread-badge");
const badgeCount = async (page: Page) => ((await badge(page).count()) ? Number((await badge(page).innerText()).match(/\d+/)![0]) : 0);

test("a member's message raises the badge; reading it lowers it; the answer reaches the member", async ({ page, browser }) => {
  const text = `Can I bring a friend on ${test.info().project.name} ${Date.now()}?`;
  await signIn(page);
  const member = await memberApi(browser, page);
  try {
    expect((await member.api.post(`${BACKOFFICE}/api/member/messages`, { data: { body: text }, headers: { "x-requested-with": "XMLHttpRequest" } })).status()).toBe(201);
    await page.goto(`${BACKOFFICE}/messages`);
    await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
    const before = await badgeCount(page);
    expect(before).toBeGreaterThan(0);
    await expectAccessible(page);

    const conversation = page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Morgan Member/ });
    await conversation.click();
    await expect(page.getByRole("list", { name: "Messages" }).getByText(text)).toBeVisible();
    if (jsEnabled(test.info())) {
      // With JavaScript, opening it reads it: the badge goes down where it is, no reload.
      await expect.poll(() => badgeCount(page)).toBeLessThan(before);
      // And what the member writes next appears in the open thread by itself (it re-reads every 10 s).
      const more = `And parking? (${Date.now()})`;
      expect((await member.api.post(`${BACKOFFICE}/api/member/messages`, { data: { body: more }, headers: { "x-requested-with": "XMLHttpRequest" } })).status()).toBe(201);
      await expect(page.getByRole("list", { name: "Messages" }).getByText(more)).toBeVisible({ timeout: 20_000 });
    } else await submitAndSettle(page, page.getByRole("button", { name: "Mark as read" }));
    // Read: the conversation's unread messages no longer count.
    await expect.poll(async () => {
      await page.goto(`${BACKOFFICE}/messages`);
      return badgeCount(page);
    }).toBeLessThan(before);
    await expectAccessible(page);

    await page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Morgan Member/ }).click();
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Value is required")).toBeVisible();
    const reply = `Yes, bring them along (${test.info().project.name})`;
    await page.getByLabel("Your message").fill(reply);
    await submitAndSettle(page, page.getByRole("button", { name: "Send" }));
    await expect(page.getByRole("list", { name: "Messages" }).getByText(reply)).toBeVisible();
    const theirs = await (await member.api.get(`${BACKOFFICE}/api/member/messages`, { headers: { "x-requested-with": "XMLHttpRequest" } })).json();
    expect(theirs.data.data.map((m: { body: string }) => m.body)).toContain(reply);
  } finally {
    await member.close();
  }
});
