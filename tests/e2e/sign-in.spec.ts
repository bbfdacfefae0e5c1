import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, enterCode, joinLink, jsEnabled, lastMailTo, SIGNUP, signIn, submitLogin, uniqueEmail } from "./helpers";

test("staff sign in with the e-mailed code and land on the dashboard", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/`);
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, "admin@example.com");
  await expect(page).toHaveURL(/\/two-factor-authentication/);
  await enterCode(page, "admin@example.com");
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Alex Admin")).toBeVisible();
  await expect(page.getByText("Active memberships")).toBeVisible();
  await page.screenshot({ path: `test-results/dashboard-${test.info().project.name}.png`, fullPage: true });
});

test("a trusted browser skips the code next time", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, "admin@example.com");
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
});

test("a wrong password says so and keeps the e-mail", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, "admin@example.com", "not the password");
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("admin@example.com");
  // Without JavaScript the page is new and the password is not sent back into it.
  if (!jsEnabled(test.info())) await expect(page.getByLabel("Password")).toHaveValue("");
  await page.screenshot({ path: `test-results/login-error-${test.info().project.name}.png` });
});

test("a wrong code says so", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, "admin@example.com");
  await expect(page).toHaveURL(/\/two-factor-authentication/);
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Continue" }).click();
  // 000000 could be the real code one time in a million: then the dashboard is right too.
  await expect(page.getByText(/That code is not right|Dashboard/).first()).toBeVisible();
});

test("sign-in is throttled after five wrong passwords", async ({ page }) => {
  // An account of its own, so no other test is locked out.
  const email = await registerAccount(page, "throttle", "a long enough passphrase");

  await page.goto(`${BACKOFFICE}/login`);
  for (let i = 0; i < 5; i++) {
    await submitLogin(page, email, `wrong password ${i}`);
    await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  }
  await submitLogin(page, email, "a long enough passphrase");
  await expect(page.getByText(/Too many sign-in attempts\. Try again in 15 minutes\./)).toBeVisible();
});

test("too many wrong codes pause signing in, and the pages say so", async ({ page }) => {
  const email = await registerAccount(page, "codelock", "a long enough passphrase");
  const paused = /Too many wrong codes\. Signing in to this account is paused for \d+ minutes; we have e-mailed you about it\./;
  const enterWrong = async (code: string) => {
    await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Continue" }).click();
  };
  // Two sign-ins, five wrong codes each: the tenth pauses code entry for the account.
  let code = "";
  for (let round = 0; round < 2; round++) {
    await page.goto(`${BACKOFFICE}/login`);
    await submitLogin(page, email, "a long enough passphrase");
    await expect(page).toHaveURL(/\/two-factor-authentication/);
    code = await codeFor(page, email);
    for (let i = 0; i < 4; i++) {
      await enterWrong(code);
      await expect(page.getByText("That code is not right. Check the e-mail and try again.")).toBeVisible();
    }
    await enterWrong(code);
    await expect(page.getByText(round === 0 ? "Too many wrong codes. Send a new one." : paused)).toBeVisible();
  }
  // Now the right code is refused too, and signing in again says why instead of mailing a code.
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(paused)).toBeVisible();
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, email, "a long enough passphrase");
  await expect(page.getByText(paused)).toBeVisible();
  expect((await lastMailTo(page, email))?.subject).toBe("Sign-in paused after too many wrong codes");
});

/** An account of the test's own, made through the public sign-up form, so no demo account changes. */
async function registerAccount(page: Page, prefix: string, password: string) {
  const email = uniqueEmail(prefix, test.info());
  await page.goto(await joinLink(page));
  await page.getByLabel("Full name").fill(`${prefix} test`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Mobile number").fill("021 555 0199");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verification-code/);
  return email;
}

test("forgot and reset password", async ({ page }) => {
  const email = await registerAccount(page, "reset", "the first passphrase");
  await page.context().clearCookies();
  await page.goto(`${BACKOFFICE}/login`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(/If that e-mail address has an account/)).toBeVisible();

  const res = await page.request.get(`${BACKOFFICE}/dev/mail.json`);
  const mail = ((await res.json()) as { to: string; text: string }[]).find((m) => m.to === email)!;
  const link = mail.text.match(/(http\S+\/reset-password\?token=\S+)/)![1];
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();

  await page.getByLabel("New password").fill("password1");
  await page.getByLabel("Repeat the password").fill("password1");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("This password is too common. Choose one that is harder to guess.")).toBeVisible();

  const fresh = "the second passphrase";
  await page.getByLabel("New password").fill(fresh);
  await page.getByLabel("Repeat the password").fill(fresh);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Password saved")).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByText(/This link has expired or was already used/)).toBeVisible();

  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, email, "the first passphrase");
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  await submitLogin(page, email, fresh);
  await enterCode(page, email);
  // A member signed in on the back-office is carried to the sign-up flow: a form posted to the sign-up host,
  // by itself with JavaScript, with its button without.
  if (!jsEnabled(test.info())) {
    await expect(page).toHaveURL(`${BACKOFFICE}/session-handoff`);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  // A member who has only just registered goes on to their first unfinished step.
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);
  await expect(page.getByRole("heading", { name: "Add your photo" })).toBeVisible();
});

test("a handoff link from elsewhere signs nobody in", async ({ page, browser }) => {
  // Someone signs in to their own member account on the back-office and asks for a handoff token.
  const attacker = await browser.newContext({ javaScriptEnabled: false });
  const theirs = await attacker.newPage();
  const email = await registerAccount(theirs, "handoff", "the attacker's passphrase");
  await theirs.goto(`${BACKOFFICE}/login`);
  await submitLogin(theirs, email, "the attacker's passphrase");
  await enterCode(theirs, email);
  // (The back-office page that holds a token is never cached.)
  expect((await attacker.request.get(`${BACKOFFICE}/session-handoff`)).headers()["cache-control"]).toBe("no-store");
  const res = await attacker.request.post(`${BACKOFFICE}/api/session/handoff`, { headers: { "x-requested-with": "XMLHttpRequest" } });
  const { token } = ((await res.json()) as { data: { token: string } }).data;
  await attacker.close();

  // A link to the sign-up host with that token, followed by someone else, signs them in to nothing.
  await page.goto(`${SIGNUP}/session-handoff?${new URLSearchParams({ token })}`);
  await expect(page).toHaveURL(`${SIGNUP}/`);
  await expect(page.getByRole("heading", { name: "Choose your gym" })).toBeVisible();
  await page.goto(`${SIGNUP}/next-steps`);
  await expect(page).toHaveURL(`${SIGNUP}/`);

  // Nor does a form on another site that posts it, whether its page sends its origin or hides it (Origin: null).
  for (const referrer of ["origin", "no-referrer"]) {
    await page.route("http://evil.example/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<meta name="referrer" content="${referrer}"><form method="post" action="${SIGNUP}/session-handoff"><input type="hidden" name="token" value="${token}"><button>Win a prize</button></form>`,
      }),
    );
    await page.goto("http://evil.example/");
    await page.getByRole("button", { name: "Win a prize" }).click();
    await expect(page.getByText("Cross-site form posts are not accepted.")).toBeVisible();
    await page.unroute("http://evil.example/");
  }
  await page.goto(`${SIGNUP}/next-steps`);
  await expect(page).toHaveURL(`${SIGNUP}/`);
});

test("forgot password answers the same for an unknown address", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/forgot-password`);
  await page.getByLabel("E-mail").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByText(/If that e-mail address has an account/)).toBeVisible();
});

test("logout is a POST that ends the session", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  await page.goto(`${BACKOFFICE}/dashboard`);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
});


test("toasts show top-right, close, and close by themselves", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Logout" }).click();
  const toast = page.getByRole("status").filter({ hasText: "You have been signed out." });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
  expect(box.y).toBeLessThan(80);
  await page.screenshot({ path: `test-results/toast-${test.info().project.name}.png` });
  await toast.getByTitle("Close").click();
  await expect(toast).toBeHidden();

  // The next one closes by itself after its life (5 s), CSS-timed, so without JavaScript too.
  await submitLogin(page, "admin@example.com"); // this browser is trusted now: no code
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  // While the pointer rests on it, it stays; moved away, its timer runs out.
  await page.getByText("You have been signed out.").hover();
  await page.waitForTimeout(6_000);
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  await page.mouse.move(10, 600);
  await expect(page.getByText("You have been signed out.")).toBeHidden({ timeout: 8_000 });
});
