import { expect, test } from "@playwright/test";
import { BACKOFFICE, enterCode, jsEnabled, SIGNUP, signIn, submitLogin } from "./helpers";

test("not signed in: a staff page sends you to sign in, and back after", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/dashboard`);
  await expect(page).toHaveURL(`${BACKOFFICE}/login?redirect=%2Fdashboard`);
  await submitLogin(page, "admin@example.com");
  await enterCode(page, "admin@example.com");
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
});

test("only same-origin paths are followed after sign-in", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/login?redirect=${encodeURIComponent("//evil.example/steal")}`);
  await submitLogin(page, "admin@example.com");
  await enterCode(page, "admin@example.com");
  await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
});

test("staff on a guest page go to the dashboard", async ({ page }) => {
  await signIn(page);
  for (const path of ["/login", "/forgot-password", "/welcome", "/", "/legal/privacy-policy", "/contact-us"]) {
    await page.goto(`${BACKOFFICE}${path}`);
    await expect(page).toHaveURL(`${BACKOFFICE}/dashboard`);
  }
});

test("a session that has not passed the code goes to the code page", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, "admin@example.com");
  await expect(page).toHaveURL(/\/two-factor-authentication/);
  await page.goto(`${BACKOFFICE}/dashboard`);
  await expect(page).toHaveURL(`${BACKOFFICE}/two-factor-authentication`);
});

test("a member on a staff page goes to the sign-up flow", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, "member@example.com");
  await enterCode(page, "member@example.com");
  // The back-office posts the session over to the sign-up host: by itself with JavaScript, with a button without.
  if (!jsEnabled(test.info())) {
    await expect(page).toHaveURL(`${BACKOFFICE}/session-handoff`);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  // Morgan's membership stands: they land on their membership page, not the welcome of the day they joined (issue 31).
  await expect(page).toHaveURL(`${SIGNUP}/membership`);
  await expect(page.getByRole("heading", { name: "Hi Morgan" })).toBeVisible();
});

test("the code page without a session goes to sign in", async ({ page }) => {
  await page.goto(`${BACKOFFICE}/two-factor-authentication`);
  await expect(page).toHaveURL(`${BACKOFFICE}/login`);
});

test("guest pages need no sign-in", async ({ page }) => {
  for (const [path, heading] of [
    ["/welcome", "Welcome"],
    ["/legal/privacy-policy", "Privacy policy"],
    ["/contact-us", "Contact us"],
    ["/forgot-password", "Forgot your password?"],
  ]) {
    await page.goto(`${BACKOFFICE}${path}`);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  }
  await page.goto(`${BACKOFFICE}/set-password`);
  await expect(page.getByText(/needs the link from your e-mail/)).toBeVisible();
});

test("host split: each app's routes answer 404 on the other host, unknown hosts get 404", async ({ page }) => {
  let res = await page.goto(`${SIGNUP}/forgot-password`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  // The one exception: /login on the sign-up host is the members' sign-in (issue 31).
  res = await page.goto(`${SIGNUP}/login`);
  await expect(page).toHaveURL(`${SIGNUP}/sign-in`);
  res = await page.goto(`${SIGNUP}/dashboard`);
  expect(res?.status()).toBe(404);
  res = await page.goto(`${BACKOFFICE}/verification-code`);
  expect(res?.status()).toBe(404);
  res = await page.goto(`${BACKOFFICE}/no-such-page`);
  expect(res?.status()).toBe(404);
  res = await page.goto(`http://elsewhere.localhost:${new URL(BACKOFFICE).port}/login`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("cross-site form posts are refused", async ({ page }) => {
  const res = await page.request.post(`${BACKOFFICE}/login`, {
    form: { email: "admin@example.com", password: "demo-gym-pass" },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
});
