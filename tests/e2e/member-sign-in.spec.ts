import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, expectAccessible, jsEnabled, lastMailTo, mailsTo, PASSWORD, registerAndVerify, signIn, SIGNUP, uniqueEmail } from "./helpers";

/** Issue 31: members sign in on the sign-up host, by password or by an e-mailed link, and pick up where they left off. */

/** The demo's member, Morgan, signs in on the sign-up host with their password and the e-mailed code. */
// Members use their phones: a phone-sized screen (staff pages opened here keep their own desktop contexts).
test.use({ viewport: { width: 390, height: 844 } });

async function signInAsMorgan(page: Page) {
  await page.goto(`${SIGNUP}/sign-in`);
  await page.getByLabel("E-mail", { exact: true }).fill("member@example.com");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code?twoFactorAuth=1`);
  await page.getByLabel("Code").fill(await codeFor(page, "member@example.com"));
  await page.getByRole("button", { name: "Continue" }).click();
}

test("a person who left half way signs in with their password and is back at the step they reached", async ({ page, context }) => {
  const email = uniqueEmail("resume", test.info());
  await registerAndVerify(page, "Rene Resume", email);
  // They close the browser: nothing of the session (or the trusted device) is left.
  await context.clearCookies();

  // /login on the sign-up host is the members' sign-in.
  await page.goto(`${SIGNUP}/login`);
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, { bestPractice: true });
  await page.screenshot({ path: `test-results/member-sign-in-${test.info().project.name}.png`, fullPage: true });

  // A wrong password: the message, the address kept.
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("not my passphrase");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(email);
  // Never sent back into the page (with JavaScript the box simply keeps what was typed).
  if (!jsEnabled(test.info())) await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

  await page.getByLabel("Password", { exact: true }).fill("my gym passphrase");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // A new device: the e-mailed code first.
  await expect(page).toHaveURL(`${SIGNUP}/verification-code?twoFactorAuth=1`);
  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);
});

test("a member asks for a sign-in link, opens it, and is signed in; the link works once", async ({ page, context }) => {
  const email = uniqueEmail("link", test.info());
  await registerAndVerify(page, "Lee Link", email);
  await context.clearCookies();

  await page.goto(`${SIGNUP}/sign-in`);
  await page.getByLabel("E-mail for the link").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "we have sent it a link to sign in" })).toBeVisible();
  await expect(page.getByLabel("E-mail for the link")).toHaveValue(email);

  const mail = await lastMailTo(page, email);
  expect(mail?.subject).toBe("Your sign-in link");
  const link = mail!.text.match(/https?:\/\/\S+/)![0];
  expect(new URL(link).pathname).toBe("/sign-in/link");

  // Opening the link signs nobody in (mail scanners open links); the button does.
  await page.goto(link);
  await expect(page.getByText(`Signing in as Lee Link (${email}).`)).toBeVisible();
  await expectAccessible(page, { bestPractice: true });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);

  // Used: another browser opening it is told so, and offered the way back.
  await context.clearCookies();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await page.getByRole("link", { name: "Sign in, or ask for a new link" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
});

test("the gym chooser's footer leads members to sign in", async ({ page }) => {
  await page.goto(`${SIGNUP}/`);
  await page.getByRole("contentinfo").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a joined member signs in and finds their membership, their payments and a receipt", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAsMorgan(page);

  // Joined: their membership page, not the welcome of the day they joined.
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
  await expect(page.getByRole("heading", { name: "Hi Morgan" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Membership" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Getting in" })).toBeVisible();
  // Morgan's gym has no door system (the doors tests link other gyms): what is true is the desk, not the door (issue 32).
  await expect(page.getByTestId("getting-in")).toHaveText("Show your member code at the front desk to get in.");
  // Their code for the desk and the kiosk, with its QR code (issue 32).
  await expect(page.getByText(/^Your member code: [0-9A-Z]{4}-[0-9A-Z]{4}/)).toBeVisible();
  await expect(page.getByRole("img", { name: /^QR code of your member code, [0-9A-Z]{4}-[0-9A-Z]{4}$/ })).toBeVisible();
  await expectAccessible(page, { bestPractice: true });
  await page.screenshot({ path: `test-results/my-membership-${test.info().project.name}.png`, fullPage: true });

  const receipt = page.getByRole("link", { name: /^Receipt/ }).first();
  await receipt.click();
  await expect(page).toHaveURL(/\/membership\/receipts\/\d+$/);
  await expect(page.getByRole("heading", { name: /^Receipt R-\d{6}$/ })).toBeVisible();
  await expect(page.getByText("Total paid")).toBeVisible();
  await expectAccessible(page, { bestPractice: true });

  // Another member's payment, or none, is not found (the same for both).
  await page.goto(`${SIGNUP}/membership/receipts/999999`);
  await expect(page.getByText("Not found", { exact: false })).toBeVisible();

  // Signed out, the page asks them to sign in.
  await page.goto(`${SIGNUP}/membership`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  await page.goto(`${SIGNUP}/membership`);
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
});

test("a member changes their own details: a bad phone number is refused with what they typed kept, then saved", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  // Part way through joining, the page sends a person on to their step.
  await registerAndVerify(page, "Dana Details", uniqueEmail("details", test.info()));
  await page.goto(`${SIGNUP}/membership/details`);
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);

  await page.context().clearCookies();
  await signInAsMorgan(page);
  await page.getByRole("link", { name: "Your details" }).click();
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
  await expectAccessible(page, { bestPractice: true });

  const mobile = page.getByLabel("Mobile number");
  const before = await mobile.inputValue();
  const relationship = `Friend ${test.info().project.name}`;
  await page.getByLabel("How they know you").fill(relationship);
  await mobile.fill("not a phone");
  await page.getByRole("button", { name: "Save my details" }).click();
  await expect(mobile).toHaveAttribute("aria-invalid", "true");
  await expect(mobile).toHaveValue("not a phone");
  await expect(page.getByLabel("How they know you")).toHaveValue(relationship);

  await mobile.fill(before);
  await page.getByRole("button", { name: "Save my details" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
  await expect(page.getByText("Your details are saved.")).toBeVisible();
  await page.getByRole("link", { name: "Your details" }).click();
  await expect(page.getByLabel("How they know you")).toHaveValue(relationship);
  await expect(page.getByLabel("Mobile number")).toHaveValue(before);
});

test("a member writes to their gym, and the gym's reply arrives in the thread and by e-mail", async ({ page, browser }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAsMorgan(page);
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
  await page.getByRole("link", { name: "Messages" }).click();
  await expect(page.getByRole("heading", { name: "Messages" })).toBeVisible();
  await expectAccessible(page, { bestPractice: true });

  // Sent, it joins the thread and the box is empty for the next.
  const question = `Is the pool open on Sunday? (${test.info().project.name} ${Date.now()})`;
  await page.getByLabel("Your message").fill(question);
  await page.getByRole("button", { name: "Send" }).click();
  const thread = page.getByRole("region", { name: "Your conversation with the gym" });
  await expect(thread).toContainText(question);
  await expect(page.getByLabel("Your message")).toHaveValue("");

  // Staff answer from the back-office.
  const staff = await browser.newContext();
  const desk = await staff.newPage();
  await signIn(desk);
  const answer = `Yes, from 8 am. (${Date.now()})`;
  const conversations = await desk.request.get(`${BACKOFFICE}/api/messaging/conversations?search=Morgan`, {
    headers: { "x-requested-with": "XMLHttpRequest" },
  });
  const conversation = ((await conversations.json()) as { data: { data: { id: number }[] } }).data.data[0];
  const sent = await desk.request.post(`${BACKOFFICE}/api/messaging/send`, {
    data: { conversation_id: conversation.id, body: answer },
    headers: { "x-requested-with": "XMLHttpRequest" },
  });
  expect(sent.status()).toBe(201);
  await staff.close();

  // With JavaScript the thread brings it in by itself; without, the next load shows it.
  if (!jsEnabled(test.info())) await page.reload();
  await expect(thread).toContainText(answer, { timeout: 20_000 });
  await expect
    .poll(async () => (await mailsTo(page, "member@example.com")).some((m) => / replied to you$/.test(m.subject) && m.text.includes(answer)))
    .toBe(true);
});
