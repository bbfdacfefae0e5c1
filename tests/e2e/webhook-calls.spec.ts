import { expect, test } from "@playwright/test";
import { createSign } from "node:crypto";
import { SANDBOX_SIGNING_KEY_ID } from "../../server/core/providers/bank/sandbox";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { BACKOFFICE, jsEnabled, signIn } from "./helpers";

// Runs with JavaScript on and off (the two projects). Stripe's call is signed as Stripe signs, with the secret the
// e2e server was given (playwright.config.ts: made at random for the run), for Demo Fitness Central's Stripe account.
test("staff see the providers' calls, filter them, read one's raw body and replay it", async ({ page }) => {
  const eventId = `evt_e2e_${test.info().project.name}_${Date.now()}`;
  const body = JSON.stringify({
    id: eventId,
    object: "event",
    type: "payment_intent.succeeded",
    account: "acct_demo000000000001",
    data: { object: { id: `pi_e2e_${Date.now()}`, object: "payment_intent", status: "succeeded" } },
  });
  const sent = await page.request.post(`${BACKOFFICE}/api/webhooks/stripe`, {
    data: body,
    headers: { "content-type": "application/json", "stripe-signature": stripeSignature(body, process.env.E2E_STRIPE_WEBHOOK_SECRET!, new Date()) },
  });
  expect(sent.status()).toBe(200);
  const forged = await page.request.post(`${BACKOFFICE}/api/webhooks/stripe`, { data: body, headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" } });
  expect(forged.status()).toBe(401);
  // Akahu's call, signed with the sandbox Akahu's key, for a payment we never made, from a member of Demo Fitness (organisation 1).
  const itemId = `payment_e2e_${test.info().project.name}_${Date.now()}`;
  const akahuBody = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state: "o1:u1", item_id: itemId, status: "SENT" });
  const akahu = await page.request.post(`${BACKOFFICE}/api/webhooks/akahu`, {
    data: akahuBody,
    headers: { "content-type": "application/json", "x-akahu-signature": createSign("sha256").update(akahuBody).end().sign(process.env.E2E_AKAHU_SANDBOX_SIGNING_KEY!, "base64"), "x-akahu-signing-key": String(SANDBOX_SIGNING_KEY_ID) },
  });
  expect(akahu.status()).toBe(200);

  await signIn(page);
  await page.goto(`${BACKOFFICE}/webhooks`);
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  const stripe = page.getByRole("region", { name: "Stripe" });
  await expect(stripe.getByText(`${BACKOFFICE}/api/webhooks/stripe`)).toBeVisible();
  await expect(stripe.getByText(/Set \(from the server's environment\)/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Akahu" }).getByText(/installation's own key/)).toBeVisible();
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/webhooks.png", fullPage: true });

  await page.goto(`${BACKOFFICE}/webhook-calls`);
  await page.getByLabel("Provider").selectOption("akahu");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/provider=akahu/);
  await expect(page.getByRole("row").filter({ hasText: "PAYMENT.UPDATE" }).filter({ hasText: `No payment of ours is ${itemId}` })).toBeVisible();

  await page.goto(`${BACKOFFICE}/webhook-calls`);
  await page.getByLabel("Provider").selectOption("stripe");
  await page.getByLabel("Status").selectOption("ignored");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/provider=stripe&status=ignored/);
  const row = page.getByRole("row").filter({ hasText: eventId });
  await expect(row).toContainText("payment_intent.succeeded");
  await expect(row).toContainText("No payment of ours");
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/webhook-calls.png", fullPage: true });
  await row.getByRole("link").click();

  await expect(page.getByRole("heading", { level: 1, name: /^Stripe call \d+$/ })).toBeVisible();
  await expect(page.getByText(`"id": "${eventId}"`)).toBeVisible();
  await expect(page.getByText(/stripe-signature: t=\d+,v1=/)).toBeVisible();
  const original = page.url().split("/").pop();
  await page.getByRole("button", { name: "Replay" }).click();
  await expect(page.getByText("Replayed", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `call ${original}` })).toBeVisible();
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/webhook-call.png", fullPage: true });

  // A range that ends before it starts is an error on its field; the chosen values stay.
  await page.goto(`${BACKOFFICE}/webhook-calls?provider=stripe&from=2026-02-01&to=2026-01-01`);
  await expect(page.getByText("The end date must be on or after the start date")).toBeVisible();
  await expect(page.getByLabel("From")).toHaveValue("2026-02-01");
  await expect(page.getByLabel("Provider")).toHaveValue("stripe");
  // Cleared, the fields are empty again (with JavaScript too, where the page is not loaded afresh).
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/webhook-calls$/);
  await expect(page.getByLabel("From")).toHaveValue("");
  await expect(page.getByLabel("Provider")).toHaveValue("");
});

test("at the back office's 1366 wide, a batch's long result is cut to two lines in the list and whole on the call's page", async ({ page }) => {
  // GoCardless sends events in batches; the call's result names each one: this one's runs to some 1,500 characters.
  const tag = `${test.info().project.name}${Date.now()}`;
  const events = Array.from({ length: 40 }, (_, i) => ({ id: `EV${tag}x${i}`, resource_type: "payments", action: "confirmed", links: { payment: `PM${tag}X${i}`, organisation: "OR0000DEMO1" } }));
  const body = JSON.stringify({ events });
  const sent = await page.request.post(`${BACKOFFICE}/api/webhooks/gocardless`, {
    data: body,
    headers: { "content-type": "application/json", "webhook-signature": gocardlessSignature(body, process.env.E2E_GOCARDLESS_WEBHOOK_SECRET!) },
  });
  expect(sent.status()).toBe(200);

  await signIn(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${BACKOFFICE}/webhook-calls?provider=gocardless`);
  const row = page.getByRole("row").filter({ hasText: `No payment of ours is PM${tag}X0.` });
  await expect(row).toBeVisible();
  // Two lines of result and a link: it was a column a word wide and a row thousands of pixels tall.
  expect((await row.boundingBox())!.height).toBeLessThan(120);
  expect((await row.locator("td[data-label='Result']").boundingBox())!.width).toBeGreaterThan(300);
  await expect(row.locator("[data-result]")).toHaveAttribute("title", new RegExp(`No payment of ours is PM${tag}X39\\.$`));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/webhook-calls-1366.png" });

  await row.getByRole("link", { name: /^The whole result of call \d+$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^GoCardless call \d+$/ })).toBeVisible();
  await expect(page.getByText(`No payment of ours is PM${tag}X39.`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
});

test("a member of staff who may not see the organisation's money is refused the webhook pages", async ({ page }) => {
  await signIn(page, "trainer@example.com");
  const res = await page.goto(`${BACKOFFICE}/webhook-calls`);
  expect(res?.status()).toBe(403);
});
