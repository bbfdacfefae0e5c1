import { expect, test } from "@playwright/test";
import { startReceiver, verified } from "../api/webhook-receiver";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn } from "./helpers";

// Issue 33, "Webhooks out", at the back office's 1366 × 768, with JavaScript on and off (the two projects): an
// organisation admin adds an endpoint (a receiver here on 127.0.0.1: the e2e server allows loopback, as a demo may),
// sees its signing secret once, sends a test event, reads the delivery and resends it with the same webhook-id.
test.use({ viewport: { width: 1366, height: 768 } });

const shoot = (name: string) => `test-results/screens/${name}-${test.info().project.name}.png`;

test("an admin adds an endpoint, sees its secret once, sends a test event, reads the delivery and resends it", async ({ page }) => {
  const receiver = await startReceiver();
  const url = `${receiver.url}?run=${test.info().project.name}-${Date.now()}`;
  try {
    await signIn(page);
    await page.goto(`${BACKOFFICE}/organisation/developers/webhooks`);
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    const add = page.getByRole("region", { name: "Add endpoint" });
    await add.getByLabel("Endpoint URL").fill(url);
    await add.getByLabel(/Description/).fill("Our CRM");
    // Nothing chosen: refused on the events, the address kept.
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await expect(add.getByText("Choose at least one event")).toBeVisible();
    await expect(add.getByLabel("Endpoint URL")).toHaveValue(url);
    await add.getByRole("checkbox", { name: /^visit\.created/ }).check();
    await add.getByRole("checkbox", { name: /^member\.created/ }).check();
    await add.getByRole("button", { name: "Add endpoint" }).click();

    const secret = (await page.locator("[data-secret]").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByText("Copy it now: it is not shown again.")).toBeVisible();
    await page.screenshot({ path: shoot("webhooks-added"), fullPage: true });
    await expectAccessible(page);
    // Shown once: the list again does not have it.
    await page.goto(`${BACKOFFICE}/organisation/developers/webhooks`);
    await expect(page.locator("[data-secret]")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret.slice(6));
    const row = page.getByRole("row").filter({ hasText: url });
    await expect(row).toContainText("Enabled");
    await expect(row).toContainText("2");
    await page.screenshot({ path: shoot("webhooks-list"), fullPage: true });
    await row.getByRole("link", { name: url }).click();

    await expect(page.getByRole("heading", { level: 1, name: url })).toBeVisible();
    await expect(page.getByText("visit.created, member.created").or(page.getByText("member.created, visit.created"))).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event delivered", { exact: true })).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    const test1 = receiver.received[0];
    expect(verified(secret, test1)).toMatchObject({ type: "webhook.test", version: 1 });
    const deliveries = page.getByRole("region", { name: "Deliveries" });
    const delivered = deliveries.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(delivered).toContainText("Delivered");
    await expect(delivered).toContainText("200");
    await expect(delivered).toContainText(/\d+ ms/);
    await page.screenshot({ path: shoot("webhook-endpoint"), fullPage: true });
    await expectAccessible(page);
    await delivered.getByRole("link").click();

    await expect(page.getByRole("heading", { level: 1, name: "Delivery of webhook.test" })).toBeVisible();
    await expect(page.getByText(`webhook-id: ${test1.headers["webhook-id"]}`)).toBeVisible();
    await expect(page.getByText(/webhook-signature: v1,/)).toBeVisible();
    await expect(page.getByText('"type": "webhook.test"')).toBeVisible();
    await expect(page.getByText("Attempt 1", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByText("Resent event delivered", { exact: true })).toBeVisible();
    await expect(page.getByText("Attempt 2", { exact: true })).toBeVisible();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(test1.headers["webhook-id"]);
    expect(verified(secret, receiver.received[1])).toMatchObject({ type: "webhook.test" });
    await page.screenshot({ path: shoot("webhook-delivery"), fullPage: true });
    await expectAccessible(page);
    // On a phone the page does not scroll sideways: long ids and bodies wrap or scroll in their own boxes.
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1366, height: 768 });

    // Rotation: a new secret, once; the next test is signed with both.
    await page.getByRole("link", { name: url }).click();
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.locator("[data-secret]").textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole("button", { name: "Send test event" }).click();
    // (The first test's toast may still be up with JavaScript on: the receiver says when this one came.)
    await expect.poll(() => receiver.received.length).toBe(3);
    const third = receiver.received[2];
    expect(third.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verified(rotated, third)).toBeTruthy();
    expect(verified(secret, third)).toBeTruthy();

    // Removed (after ticking the box), it is gone from the list.
    await page.getByRole("button", { name: "Remove endpoint" }).click();
    await expect(page.getByText("Tick the box to confirm the removal.")).toBeVisible();
    await page.getByLabel(/Stop sending events to this endpoint/).check();
    await page.getByRole("button", { name: "Remove endpoint" }).click();
    await expect(page).toHaveURL(/\/organisation\/developers\/webhooks$/);
    await expect(page.getByRole("row").filter({ hasText: url })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test("an address inside our network is refused on its field, without a packet sent", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/organisation/developers/webhooks`);
  const add = page.getByRole("region", { name: "Add endpoint" });
  await add.getByLabel("Endpoint URL").fill("https://169.254.169.254/latest/meta-data");
  await add.getByRole("checkbox", { name: "Every event" }).check();
  if (jsEnabled(test.info())) await expect(add.getByRole("checkbox", { name: /^payment\.refunded/ })).toBeChecked();
  await add.getByRole("button", { name: "Add endpoint" }).click();
  await expect(add.getByText(/169\.254\.169\.254 is a private or reserved address/)).toBeVisible();
  await expect(add.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
});
