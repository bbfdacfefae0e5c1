import { expect, test } from "@playwright/test";
import { codeFor, jsEnabled, SIGNUP, uniqueEmail } from "./helpers";

async function fillRegister(page: import("@playwright/test").Page, email: string) {
  await page.getByLabel("Full name").fill("Riley Register");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Mobile number").fill("021 555 0123");
  await page.getByLabel("Password").fill("my gym passphrase");
}

test("register on the sign-up host, verify the e-mail, see what happens next", async ({ page }) => {
  const email = uniqueEmail("riley", test.info());
  await page.goto(`${SIGNUP}/`);
  await expect(page.getByRole("heading", { name: "Join the gym" })).toBeVisible();
  await page.screenshot({ path: `test-results/register-${test.info().project.name}.png`, fullPage: true });
  await fillRegister(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);

  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/next-steps`);
  await expect(page.getByRole("heading", { name: "Thanks, Riley" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // Signed in, the register page sends the member on to their next step.
  await page.goto(`${SIGNUP}/`);
  await expect(page).toHaveURL(`${SIGNUP}/next-steps`);
});

test("register refuses a taken e-mail and keeps what was typed", async ({ page }) => {
  await page.goto(`${SIGNUP}/`);
  await fillRegister(page, "member@example.com");
  if (jsEnabled(test.info())) {
    // With JavaScript the address is checked as soon as you leave the field.
    await page.getByLabel("Mobile number").focus();
    await expect(page.getByText(/already exists/)).toBeVisible();
  }
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("An account with this e-mail address already exists. Sign in instead.")).toBeVisible();
  await expect(page.getByLabel("Full name")).toHaveValue("Riley Register");
  await expect(page.getByLabel("Mobile number")).toHaveValue("021 555 0123");
  if (!jsEnabled(test.info())) await expect(page.getByLabel("Password")).toHaveValue("");
});

test("register refuses a common password", async ({ page }) => {
  await page.goto(`${SIGNUP}/`);
  await fillRegister(page, uniqueEmail("common", test.info()));
  await page.getByLabel("Password").fill("iloveyou1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("This password is too common. Choose one that is harder to guess.")).toBeVisible();
});

test("sign-up guards: no session goes to register; an unverified one to the code page", async ({ page }) => {
  await page.goto(`${SIGNUP}/verification-code`);
  await expect(page).toHaveURL(`${SIGNUP}/`);
  await page.goto(`${SIGNUP}/next-steps`);
  await expect(page).toHaveURL(`${SIGNUP}/`);

  const email = uniqueEmail("unverified", test.info());
  await fillRegister(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  await page.goto(`${SIGNUP}/next-steps`);
  await expect(page).toHaveURL(`${SIGNUP}/verification-code?twoFactorAuth=1`);
});

test("an integrator's own site can post a plain HTML sign-up form", async ({ page }) => {
  const email = uniqueEmail("integrator", test.info());
  // A page on another origin (about:blank here) with a plain form pointing at the sign-up host.
  await page.setContent(`
    <form method="post" action="${SIGNUP}/">
      <input name="name" value="Ira Integrator"><input name="email" value="${email}">
      <input name="mobile_number" value="021 555 0177"><input name="password" value="integrator passphrase">
      <button>Join</button>
    </form>`);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  expect((await codeFor(page, email)).length).toBe(6);
});
