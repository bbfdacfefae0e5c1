import { expect, test, type APIResponse, type Page, type Response } from "@playwright/test";
import { BACKOFFICE, jsEnabled, SIGNUP, signIn, switcherButton } from "./helpers";
/** The search's hits (the plain switchers' selects, until a pointer comes over them, have options too). */
const hits = (page: Page) => page.getByRole("listbox", { name: "Members found" }).getByRole("option");

/**
 * Security headers (server/http/security-headers.ts) and caching. Any Content-Security-Policy violation the
 * browser reports while we click around fails the test: the policy must fit what the pages really do.
 */
const violations: string[] = [];

test.beforeEach(({ page }) => {
  violations.length = 0;
  page.on("console", (msg) => {
    if (/Refused to|Content Security Policy|Content-Security-Policy/i.test(msg.text())) violations.push(msg.text());
  });
});

test.afterEach(() => {
  expect(violations).toEqual([]);
});

function expectPageHeaders(res: Response | APIResponse | null) {
  const headers = res!.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toMatch(/form-action 'self' .*signup\.localhost:\*/);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["cache-control"]).toBe("private, no-store");
  // A demo over plain http (the e2e server runs with DEMO_MODE): no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  return csp;
}

/** The nonce in the header is the one on the page's scripts, and a fresh one each time. */
async function expectNonceOnScripts(page: Page, csp: string) {
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const html = await (await page.request.get(page.url())).text();
  expect(html).not.toContain(nonce); // another request, another nonce
  if (jsEnabled(test.info())) {
    // Browsers hide the attribute from the DOM; the property keeps it.
    const nonces = await page.locator("script").evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
    expect(nonces.length).toBeGreaterThan(0);
    for (const n of nonces) expect(n).toBe(nonce);
  }
}

test("login page: policy, nonce and no caching", async ({ page }) => {
  const res = await page.goto(`${BACKOFFICE}/login`);
  const csp = expectPageHeaders(res);
  await expectNonceOnScripts(page, csp);
  // A wrong password re-renders the form (an action with JS, a document without).
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/do not match|incorrect|invalid/i).first()).toBeVisible();
});

test("sign-up app and toasts: the policy holds, a toast's life needs no style attribute", async ({ page }) => {
  expectPageHeaders(await page.goto(`${SIGNUP}/`));
  await expect(page.getByRole("heading", { name: "Choose your gym" })).toBeVisible();

  await page.goto(`${BACKOFFICE}/forgot-password`);
  await page.getByLabel("E-mail").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Send the link" }).click();
  const toast = page.locator(".toast[data-life]");
  await expect(toast).toBeVisible();
  expect(await toast.evaluate((el) => getComputedStyle(el).animationDuration)).toBe("10s");
  expect(await toast.getAttribute("style")).toBeNull();

  if (jsEnabled(test.info())) {
    // canvas-confetti draws in a Worker made from a blob: URL; the policy lets it.
    const ran = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const worker = new Worker(URL.createObjectURL(new Blob(["postMessage(1)"])));
          worker.onmessage = () => resolve(true);
          worker.onerror = () => resolve(false);
        }),
    );
    expect(ran).toBe(true);
  }
});

test("dashboard and a member page: headers, then search, switchers and charts run under the policy", async ({ page }) => {
  await signIn(page);
  expectPageHeaders(await page.reload());
  if (jsEnabled(test.info())) await switcherButton(page, "Organisation"); // hydrated

  const box = page.getByPlaceholder("Search", { exact: true });
  if (jsEnabled(test.info())) {
    await box.fill("morgan");
    await expect(hits(page).first()).toBeVisible();
    await box.fill("");
  } else {
    await box.fill("morgan");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?/);
    await page.goto(`${BACKOFFICE}/dashboard`);
  }

  // The gym switcher, there and back (the choice is kept on the user).
  const switchGym = async (gym: string) => {
    if (jsEnabled(test.info())) {
      await (await switcherButton(page, "Gym")).click();
      await page.getByRole("menuitem", { name: gym }).click();
    } else {
      await page.getByLabel("Gym", { exact: true }).selectOption({ label: gym });
      await page.getByRole("button", { name: "Switch" }).nth(1).click();
    }
    await expect(page.getByText(`Demo Fitness · ${gym}`)).toBeVisible();
  };
  await switchGym("Demo Fitness Ponsonby");
  await switchGym("Demo Fitness Central");

  await page.goto(`${BACKOFFICE}/members?status=active&gym=all`);
  const link = page.getByRole("table").locator("tbody tr").first().getByRole("link").first();
  await link.click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  expectPageHeaders(await page.reload());
  await expect(page.locator("svg").first()).toBeVisible();
  await page
    .getByRole("link", { name: /Activity/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/activity/);
});

test("Remix data requests are private, unsniffable and unframeable; built assets stay cached", async ({ page }) => {
  await signIn(page);
  const data = await page.request.get(`${BACKOFFICE}/dashboard.data`);
  expect(data.status()).toBe(200);
  expect(data.headers()["cache-control"]).toBe("private, no-store");
  expect(data.headers()["x-content-type-options"]).toBe("nosniff");
  expect(data.headers()["x-frame-options"]).toBe("DENY");
  expect(data.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  // A built script the dashboard names, read from the page as sent (the DOM may be mid-hydration).
  const html = await (await page.request.get(`${BACKOFFICE}/dashboard`)).text();
  const script = html.match(/\/build\/[^"'\s]+\.js/)?.[0];
  expect(script).toBeTruthy();
  const asset = await page.request.get(`${BACKOFFICE}${script}`);
  expect(asset.headers()["cache-control"]).toContain("immutable");
});
