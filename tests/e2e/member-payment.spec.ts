import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, mailsTo, SIGNUP, signIn } from "./helpers";

// Issue 31, "Change how to pay": a member who owes adds a card from their membership page, on the same card pages
// sign-up uses, and pays what is owing with it; with JavaScript on and off, on a phone-sized screen.

// Members use their phones: a phone-sized screen (staff pages opened here keep their own desktop contexts).
test.use({ viewport: { width: 390, height: 844 } });

/**
 * A demo member in a grace period with something owing, found by staff. From the end of the list: the staff specs
 * take theirs from its start, and each project here takes every other one.
 */
async function memberWhoOwes(staff: Page) {
  await signIn(staff);
  await staff.goto(`${BACKOFFICE}/members?status=grace_period&gym=all`);
  const rows = staff.getByRole("table").getByRole("row");
  const count = await rows.count();
  for (let i = count - 1 - (jsEnabled(test.info()) ? 0 : 1); i > 0; i -= 2) {
    await staff.goto(`${BACKOFFICE}/members?status=grace_period&gym=all`);
    await rows.nth(i).getByRole("link").first().click();
    await expect(staff).toHaveURL(/\/members\/\d+$/);
    await expect(staff.getByRole("navigation", { name: "Membership actions" })).toBeVisible();
    if (await staff.getByRole("navigation", { name: "Membership actions" }).getByRole("link", { name: "Take payment" }).count()) {
      const id = Number(new URL(staff.url()).pathname.split("/")[2]);
      return (await (await staff.request.get(`${BACKOFFICE}/api/members/${id}`)).json()).data as {
        id: number;
        email: string;
        name: string;
        email_notifications: boolean;
      };
    }
  }
  throw new Error("no demo member in a grace period with something owing");
}

test("a member who owes adds a card from their membership page and pays what is owing with it", async ({ page, browser }) => {
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  const member = await memberWhoOwes(staff);

  // They sign in with an e-mailed link (demo members have no password).
  await page.goto(`${SIGNUP}/sign-in`);
  await page.getByLabel("E-mail for the link").fill(member.email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "we have sent it a link to sign in" })).toBeVisible();
  const mail = (await mailsTo(page, member.email)).find((m) => m.subject === "Your sign-in link")!;
  await page.goto(mail.text.match(/https?:\/\/\S+/)![0]);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership`);

  await expect(page.getByRole("heading", { name: /is owing$/ })).toBeVisible();
  await page.getByRole("link", { name: "Pay what is owing now" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership/payment`);
  await expect(page.getByRole("heading", { name: "How you pay" })).toBeVisible();
  await expectAccessible(page, { bestPractice: true });

  // A new card, on the card provider's page, as at sign-up; back here, it pays.
  await page.getByRole("link", { name: "Credit or debit card" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/card-details`);
  await expect(page.getByText("pays your membership from its next payment on")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Joining steps" })).toHaveCount(0);
  await expectAccessible(page, { bestPractice: true });
  await page.getByRole("button", { name: "Enter card details" }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("Security code").fill("123");
  await page.getByLabel("Name on card").fill(member.name);
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership/payment`);
  await expect(page.getByText("Card saved", { exact: true })).toBeVisible();
  const paying = page.getByRole("listitem").filter({ hasText: "Pays your membership" });
  await expect(paying).toContainText("Visa ending 4242");
  // Staff see who changed it in the history; the member is told by e-mail where they take e-mails.
  const history = async () =>
    ((await (await staff.request.get(`${BACKOFFICE}/api/members/${member.id}/events`)).json()).data.data as { summary: string }[]).map((e) => e.summary);
  expect(await history()).toContain("Payment method changed to VISA ending 4242, expires 12/2030");
  if (member.email_notifications) await expect.poll(async () => (await mailsTo(page, member.email)).map((m) => m.subject)).toContain("How you pay has changed");
  await page.screenshot({ path: `test-results/member-payment-${test.info().project.name}.png`, fullPage: true });

  // What is owing, at the new card's amount (its surcharge included), paid once.
  const pay = page.getByRole("button", { name: /^Pay \$[\d,.]+ now with Visa ending 4242$/ });
  const amount = (await pay.textContent())!.match(/\$[\d,.]+/)![0];
  await pay.click();
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
  await expect(page.getByText(`Thank you: ${amount} is paid`)).toBeVisible();
  await expect(page.getByRole("heading", { name: /is owing$/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Payments" }).getByRole("listitem").first()).toContainText("Paid");
  await expectAccessible(page, { bestPractice: true });
  await staffContext.close();
});
