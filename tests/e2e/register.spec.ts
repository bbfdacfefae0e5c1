import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, codeFor, expectAccessible, joinLink, jsEnabled, lastMailTo, SIGNUP, signIn, uniqueEmail } from "./helpers";

async function fillRegister(page: Page, email: string, name = "Riley Register") {
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Mobile number").fill("021 555 0123");
  await page.getByLabel("Password").fill("my gym passphrase");
}

test("register through a gym's link, verify the e-mail, and go on to the photo step", async ({ page }) => {
  const email = uniqueEmail("riley", test.info());
  const link = await joinLink(page);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Join Demo Fitness Central" })).toBeVisible();
  await page.screenshot({ path: `test-results/register-${test.info().project.name}.png`, fullPage: true });
  // Not your gym: the list of gyms is one link away.
  await page.getByRole("link", { name: "Choose another" }).click();
  await expect(page.getByRole("heading", { name: "Choose your gym" })).toBeVisible();
  await page.goto(link);

  await fillRegister(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);

  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);
  await expect(page.getByRole("heading", { name: "Add your photo" })).toBeVisible();

  // Signed in, the register page sends the member on to their next step.
  await page.goto(link);
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);
});

test("without a gym in the link: choose the gym, register, and that gym's staff find the new member", async ({ page }) => {
  const project = test.info().project.name;
  const email = uniqueEmail("pia", test.info());
  const name = `Pia Ponsonby ${project}`;
  await page.setViewportSize({ width: 375, height: 812 });

  await page.goto(`${SIGNUP}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Choose your gym" })).toBeVisible();
  // Every gym, under its organisation's name: names only, nothing private.
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["Demo Fitness", "Harbour Strength"]);
  await expect(page.getByRole("link", { name: /^Demo Fitness|^Harbour Strength/ })).toHaveText([
    /Demo Fitness Central/,
    /Demo Fitness Newmarket/,
    /Demo Fitness Ponsonby/,
    /Harbour Strength Devonport/,
  ]);
  await expectAccessible(page, { bestPractice: true });
  await page.screenshot({ path: `test-results/chooser-375-${project}.png`, fullPage: true });

  await page.getByRole("link", { name: "Demo Fitness Ponsonby" }).click();
  await expect(page).toHaveURL(/\/\?gym=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Join Demo Fitness Ponsonby" })).toBeVisible();
  await expect(page.getByText("Create your account with Demo Fitness.")).toBeVisible();
  // The gym's logo, served from our own site under the page's Content-Security-Policy.
  const logo = page.getByRole("main").locator("img");
  await expect(logo).toHaveAttribute("src", "/demo/demo-fitness.svg");
  await expect.poll(() => logo.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page, { bestPractice: true });
  await page.screenshot({ path: `test-results/register-375-${project}.png`, fullPage: true });

  await fillRegister(page, email, name);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  // A demo says where its mail is read.
  await expect(page.getByText("This is a demo: nothing is really sent.")).toBeVisible();
  await expect(page.getByRole("link", { name: "/dev/mail" })).toHaveAttribute("href", "/dev/mail");
  await page.screenshot({ path: `test-results/code-375-${project}.png`, fullPage: true });
  const mail = await lastMailTo(page, email);
  expect(mail?.subject).toBe("Confirm your e-mail address");
  expect(mail?.text).toContain("Welcome to Demo Fitness Ponsonby, and thanks for signing up.");
  expect(mail?.text).not.toContain("try to sign in");
  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);

  // The demo admin, at the gym's back-office, finds the new member among Ponsonby's members.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members`);
  const filters = page.getByRole("form", { name: "Filter members" });
  await filters.getByLabel("Name, e-mail or mobile").fill(email);
  await filters.getByLabel("Gym").selectOption({ label: "Demo Fitness Ponsonby" });
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/gym=\d+/);
  const rows = page.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole("link", { name })).toBeVisible();
  await expect(rows.first()).toContainText(email);
});

test("a link naming no gym we know shows the list of gyms, as a 404", async ({ page }) => {
  const res = await page.goto(`${SIGNUP}/?gym=3f1c7d5e-0000-4000-8000-000000000000`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Choose your gym" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("This sign-up link is not for a gym we know. Choose your gym from the list.");
  await expect(page.getByRole("link", { name: "Demo Fitness Central" })).toBeVisible();
});

test("register refuses a taken e-mail and keeps what was typed", async ({ page }) => {
  await page.goto(await joinLink(page));
  await fillRegister(page, "member@example.com");
  if (jsEnabled(test.info())) {
    // With JavaScript the address is checked as soon as you leave the field. The sign-up pages load their script
    // after the page is usable, so leaving the field before it has arrived checks nothing: leave it again until it does.
    // What the page did is kept for the failure message: the check's answers and anything the console reported.
    const seen: string[] = [];
    page.on("console", (m) => (m.type() === "error" || m.type() === "warning") && seen.push(`console: ${m.text().slice(0, 200)}`));
    page.on("response", (r) => r.url().endsWith("/api/unique-email") && seen.push(`unique-email: ${r.status()}`));
    await expect(async () => {
      await expect(page.getByLabel("E-mail"), "the typed address survives hydration").toHaveValue("member@example.com", { timeout: 500 });
      await page.getByLabel("E-mail").focus();
      await page.getByLabel("Mobile number").focus();
      await expect(page.getByText(/already exists/), seen.join("; ")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("An account with this e-mail address already exists. Sign in instead.")).toBeVisible();
  // Still the same gym's form.
  await expect(page.getByRole("heading", { name: "Join Demo Fitness Central" })).toBeVisible();
  await expect(page.getByLabel("Full name")).toHaveValue("Riley Register");
  await expect(page.getByLabel("Mobile number")).toHaveValue("021 555 0123");
  if (!jsEnabled(test.info())) await expect(page.getByLabel("Password")).toHaveValue("");
  // The way on: sign in instead, the address carried over (issue 31).
  await page.getByRole("link", { name: "Sign in instead" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/sign-in?email=member%40example.com`);
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("member@example.com");
});

test("register refuses a common password", async ({ page }) => {
  await page.goto(await joinLink(page));
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
  await page.goto(await joinLink(page));
  await fillRegister(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  await page.goto(`${SIGNUP}/next-steps`);
  await expect(page).toHaveURL(`${SIGNUP}/verification-code?twoFactorAuth=1`);
});

test("an integrator's own site can post a plain HTML sign-up form for its gym", async ({ page }) => {
  const email = uniqueEmail("integrator", test.info());
  const gym = new URL(await joinLink(page, "Harbour Strength Devonport")).searchParams.get("gym");
  // A page on another origin (about:blank here) with a plain form pointing at the sign-up host.
  await page.setContent(`
    <form method="post" action="${SIGNUP}/">
      <input name="name" value="Ira Integrator"><input name="email" value="${email}">
      <input name="mobile_number" value="021 555 0177"><input name="password" value="integrator passphrase">
      <input type="hidden" name="gym" value="${gym}">
      <button>Join</button>
    </form>`);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  expect((await lastMailTo(page, email))?.text).toContain("Welcome to Harbour Strength Devonport");
});

test("an integrator's form that names no gym comes back to the list of gyms, saying why", async ({ page }) => {
  const email = uniqueEmail("nogym", test.info());
  await page.setContent(`
    <form method="post" action="${SIGNUP}/">
      <input name="name" value="Nia Nogym"><input name="email" value="${email}">
      <input name="mobile_number" value="021 555 0178"><input name="password" value="integrator passphrase">
      <button>Join</button>
    </form>`);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page.getByRole("heading", { name: "Choose your gym" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("Choose the gym you are joining first, then fill in the form again.");
  expect(await lastMailTo(page, email)).toBeUndefined();
});
