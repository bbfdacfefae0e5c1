import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { PORT } from "../../playwright.config";

export const BACKOFFICE = `http://localhost:${PORT}`;
export const SIGNUP = `http://signup.localhost:${PORT}`;
export const PASSWORD = "demo-gym-pass";

export const jsEnabled = (info: TestInfo) => info.project.name === "js";

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Checks the page (or the part `include` selects) with axe against WCAG 2.2 AA, and best practice when asked, failing
 * with each finding as "rule: targets". With JavaScript only: axe runs as a script in the page, and the markup it
 * checks is the same server-rendered HTML without it.
 */
export async function expectAccessible(page: Page, opts: { include?: string; bestPractice?: boolean } = {}) {
  if (!jsEnabled(test.info())) return;
  // From the top: a row scrolled under the sticky top bar would count as a target the bar overlaps, a finding about
  // where the page happens to be scrolled.
  await page.evaluate(() => window.scrollTo(0, 0));
  // A toast caught in its fade (tailwind.css, toast-life) is half transparent, and axe finds its text too faint: held
  // at full opacity while axe runs, so it is still checked, then left to run out from where it was.
  const held = await page.evaluateHandle(() =>
    document
      .getAnimations()
      .filter((a) => (a as CSSAnimation).animationName === "toast-life" && a.playState !== "finished")
      .map((a) => {
        const hold = { animation: a, time: a.currentTime, running: a.playState === "running" };
        a.pause();
        a.currentTime = 0;
        return hold;
      }),
  );
  try {
    let axe = new AxeBuilder({ page }).withTags(opts.bestPractice ? [...WCAG, "best-practice"] : WCAG);
    if (opts.include) axe = axe.include(opts.include);
    const { violations } = await axe.analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `axe on ${page.url()}`,
    ).toEqual([]);
  } finally {
    await held
      .evaluate((holds) => {
        for (const { animation, time, running } of holds) {
          animation.currentTime = time;
          if (running) animation.play();
        }
      })
      // A page that went elsewhere meanwhile has no toasts left to let go; its own error, if any, is the one to see.
      .catch(() => undefined);
    await held.dispose().catch(() => undefined);
  }
}

/** A unique address per test run and project, so flows that create accounts can run again. */
export const uniqueEmail = (prefix: string, info: TestInfo) => `${prefix}.${info.project.name}.${Date.now()}@example.org`;

/** A gym's sign-up link (/?gym=uuid), as the gym would hand it out; its uuid read from the public list of gyms. */
export async function joinLink(page: Page, gym = "Demo Fitness Central") {
  // The API answers on every host; Node (unlike the browser) does not resolve signup.localhost.
  const res = await page.request.get(`${BACKOFFICE}/api/public/gyms`);
  expect(res.ok()).toBeTruthy();
  const found = ((await res.json()).data as { uuid: string; name: string }[]).find((g) => g.name === gym);
  if (!found) throw new Error(`no gym named ${gym}`);
  return `${SIGNUP}/?gym=${found.uuid}`;
}

/** The newest e-mail to `to`, read from the demo outbox as a newcomer would. */
export async function lastMailTo(page: Page, to: string) {
  const res = await page.request.get(`${BACKOFFICE}/dev/mail.json`);
  expect(res.ok()).toBeTruthy();
  const mails = (await res.json()) as { to: string; subject: string; text: string }[];
  return mails.find((m) => m.to === to);
}

/** Every e-mail to `to` in the demo outbox, newest first: for a mail that a job sends beside others (their order is not fixed). */
export async function mailsTo(page: Page, to: string) {
  const res = await page.request.get(`${BACKOFFICE}/dev/mail.json`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { to: string; subject: string; text: string }[]).filter((m) => m.to === to);
}

/** The newest sign-in or confirmation code e-mailed to `to` (a receipt's number, R-000123, is not a code). */
export async function codeFor(page: Page, to: string) {
  const mail = (await mailsTo(page, to)).find((m) => /^(Your sign-in code|Confirm your e-mail address)$/.test(m.subject));
  const code = mail?.text.match(/Your code is (\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

export async function submitLogin(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function enterCode(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: /Enter your code|Check your e-mail/ })).toBeVisible();
  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
}

/** Signs a staff user in through the pages, code included. */
export async function signIn(page: Page, email = "admin@example.com", password = PASSWORD) {
  await page.goto(`${BACKOFFICE}/login`);
  await submitLogin(page, email, password);
  await enterCode(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A newcomer registers on a sign-up link (the demo's main gym's unless told), on a phone, and enters the e-mailed code. */
export async function registerAndVerify(page: Page, name: string, email: string, link?: string) {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(link ?? (await joinLink(page)));
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Mobile number").fill("021 555 0123");
  await page.getByLabel("Password").fill("my gym passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/verification-code`);
  await page.getByLabel("Code").fill(await codeFor(page, email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${SIGNUP}/take-photo`);
}

/**
 * Clicks a form's submit button and waits until what it started has settled: the post, the redirect and the page's
 * new data, with or without JavaScript. A toast from an earlier save may still be showing; after this, the newest is
 * this save's.
 */
export async function submitAndSettle(page: Page, button: Locator) {
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), button.click()]);
  await page.waitForLoadState("networkidle");
  // With JavaScript the post is the router's, not a page load, and networkidle was reached long before: it resolves at
  // once. Wait for the router to finish too (the post's redirect, the loaders' revalidation, the new location), or a
  // control ticked next is drawn afresh under the test's hand when the new location remounts its form.
  await page.waitForFunction(() => {
    const router = (
      window as unknown as { __remixRouter?: { state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> } } }
    ).__remixRouter;
    return (
      !router ||
      (router.state.navigation.state === "idle" && router.state.revalidation === "idle" && [...router.state.fetchers.values()].every((f) => f.state === "idle"))
    );
  });
}

/**
 * A switcher as Headless UI's menu button, which is loaded when a pointer comes over the plain select (decision 0052):
 * with JavaScript only, and also the sign that the page has hydrated.
 */
export async function switcherButton(page: Page, label: "Organisation" | "Gym") {
  const button = page.getByRole("button", { name: new RegExp(`^${label}:`) });
  await page.getByLabel(label, { exact: true }).or(button).hover();
  await expect(button).toBeVisible();
  return button;
}

/**
 * Chooses a member with a page's member picker (SPEC §2's "Search for a member"): with JavaScript the global search's
 * dropdown (once the page has hydrated and swapped the form for it), without it the GET form's "Find" and its links.
 */
export async function pickMember(page: Page, info: TestInfo, label: string, query: string, name: string) {
  if (jsEnabled(info)) {
    await expect(page.getByRole("button", { name: "Find", exact: true })).toHaveCount(0);
    // Headless UI's Combobox, loaded when the box takes focus (decision 0052): then the box is a combobox, each hit an option.
    const combobox = page.getByRole("combobox", { name: label });
    await page.getByRole("searchbox", { name: label }).or(combobox).focus();
    await expect(combobox).toBeFocused();
    await combobox.fill(query);
    await page
      .getByRole("listbox", { name: "Members found" })
      .getByRole("option", { name: new RegExp(`^${name}\\b`) })
      .click();
  } else {
    await page.getByRole("searchbox", { name: label }).fill(query);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page.getByRole("list", { name: "Members found" }).getByRole("link", { name }).click();
  }
  await expect(page).toHaveURL(/member=\d+/);
}
