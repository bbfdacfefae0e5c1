import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { BACKOFFICE, SIGNUP, signIn, submitAndSettle, uniqueEmail } from "./helpers";

/**
 * A walk-in joins at the desk (issue 32): staff enter them, see what joining costs (the sign-up's own quote), and
 * create them; the person opens the link on their phone, is signed in, and their sign-up has the desk's price and
 * start day. JavaScript on and off; staff at 1366×768, the member on a phone.
 */
test("staff create a walk-in with the sign-up's quote; the person finishes joining from the link with the price and day chosen", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const name = `Wendy Walkin ${test.info().project.name}`;
  const email = uniqueEmail("wendy.walkin", test.info());
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members`);
  await page.getByRole("link", { name: "New member", exact: true }).click();
  await expect(page).toHaveURL(`${BACKOFFICE}/members/new`);

  // Too young for the organisation: refused with the rule, every value kept.
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Date of birth").fill("2020-01-01");
  await page.getByLabel("Membership").selectOption({ label: "Anytime 24/7: $19.99 weekly" });
  const start = await page.evaluate(() => {
    const d = new Date(Date.now() + 2 * 86_400_000);
    return new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(d);
  });
  await page.getByLabel("Starts").fill(start);
  await page.getByRole("button", { name: "Show what it costs" }).click();
  await expect(page.getByText(/or older to join/)).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(email);

  await page.getByLabel("Date of birth").fill("1994-06-30");
  await page.getByRole("button", { name: "Show what it costs" }).click();
  const effect = page.getByRole("region", { name: "What joining costs" });
  await expect(effect).toContainText("First payment");
  await expect(effect).toContainText("$19.99 weekly");
  await submitAndSettle(page, page.getByRole("button", { name: "Create the member and send the link" }));
  const done = page.getByRole("status").filter({ hasText: "is ready to finish joining" });
  await expect(done).toContainText(`${name} is ready to finish joining`);
  const link = (await page.getByLabel("Link to finish joining", { exact: true }).textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${SIGNUP.replace(/\./g, "\\.")}/sign-in/link\\?token=`));
  await page.screenshot({ path: `test-results/walk-in-${test.info().project.name}.png`, fullPage: true });

  // The person, on their phone: the link signs them in; a photo and a card later, the confirm page has the desk's choice.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: test.info().project.name === "js" });
  const member = await phone.newPage();
  await member.goto(link);
  await expect(member.getByText(`Signing in as ${name}`)).toBeVisible();
  await member.getByRole("button", { name: "Continue" }).click();
  await expect(member).toHaveURL(`${SIGNUP}/take-photo`);
  const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#4a7" } })
    .png()
    .toBuffer();
  await member.getByLabel("Take or choose a photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await member.getByRole("button", { name: "Use this photo" }).click();
  await member.getByRole("link", { name: "Looks good: continue" }).click();
  await member.getByRole("link", { name: "Credit or debit card" }).click();
  await member.getByRole("button", { name: "Enter card details" }).click();
  await member.getByLabel("Card number").fill("4242 4242 4242 4242");
  await member.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await member.getByLabel("Security code").fill("123");
  await member.getByLabel("Name on card").fill(name);
  await member.getByRole("button", { name: "Save card" }).click();
  await member.getByRole("link", { name: "Continue" }).click();
  await expect(member).toHaveURL(`${SIGNUP}/confirm-subscription`);
  await expect(member.getByRole("radio", { checked: true })).toHaveAccessibleName(/\$19\.99 weekly/);
  await expect(member.getByLabel(/start/i).first()).toHaveValue(start);
  await expect(member.getByLabel("Date of birth")).toHaveValue("1994-06-30");
  await phone.close();
});
