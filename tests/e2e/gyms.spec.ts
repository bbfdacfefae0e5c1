import { expect, test } from "@playwright/test";
import { BACKOFFICE, expectAccessible, joinLink, registerAndVerify, signIn, submitAndSettle, uniqueEmail } from "./helpers";

/** A gym's settings (issue 15), with JavaScript on and off (the two projects). Each test leaves the demo as it was. */

test("edits a gym's bank account: a mismatched repeat is refused and keeps the values, the right one is saved masked", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/gyms`);
  await expect(page.getByRole("heading", { level: 1, name: "Gyms" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Demo Fitness Ponsonby" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Demo Fitness Ponsonby" })).toBeVisible();
  const account = page.getByRole("region", { name: "Bank account" });
  const before = await account.locator("dd").nth(1).textContent();
  expect(before).toMatch(/^\d{2}-••••-•••\d{4}-\d{2,3}$/);
  await expectAccessible(page);

  await page.getByRole("link", { name: "Edit" }).click();
  const section = () => page.getByRole("region", { name: "Bank account" });
  await section().getByLabel("New account number").fill("12-3140-0071234-00");
  await section().getByLabel("Repeat the account number").fill("12-3140-0071234-01");
  await section().getByRole("button", { name: "Save" }).click();
  await expect(section().getByText("The value must be equal to the other value")).toBeVisible();
  await expect(section().getByLabel("New account number")).toHaveValue("12-3140-0071234-00");
  await expect(section().getByLabel("Repeat the account number")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await section().getByLabel("Repeat the account number").fill("12-3140-0071234-00");
  await submitAndSettle(page, section().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Bank account saved").last()).toBeVisible();
  await expect(section().getByText("Members' payments go to 12-••••-•••1234-00.")).toBeVisible();

  // Back as it was: the seeded number, written out again.
  const seeded = "12-3140-0712345-01";
  await section().getByLabel("New account number").fill(seeded);
  await section().getByLabel("Repeat the account number").fill(seeded);
  await submitAndSettle(page, section().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Bank account saved").last()).toBeVisible();
});

test("a gym's credentials are write-only: saved, shown only as set, and removed", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: "Demo Fitness Newmarket" }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  const push = () => page.getByRole("region", { name: "Push notifications (OneSignal)" });
  await push().getByLabel("App id (not set)").fill("0b6c1a0e-1111-4a4a-9999-123456789abc");
  await push().getByLabel("REST API key (not set)").fill("a-push-key-that-stays-secret");
  await submitAndSettle(page, push().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Push notifications (OneSignal) saved").last()).toBeVisible();
  await expect(push().getByLabel("REST API key (set)")).toHaveValue("");
  expect(await page.content()).not.toContain("a-push-key-that-stays-secret");
  await push().getByLabel("Remove what is stored").check();
  await submitAndSettle(page, push().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Push notifications (OneSignal) saved").last()).toBeVisible();
  await expect(push().getByLabel("REST API key (not set)")).toBeVisible();
  await expectAccessible(page);
});

test("a gym's logo is uploaded, checked by its content, and shown on its sign-up page", async ({ page }) => {
  const sharp = (await import("sharp")).default;
  const logo = await sharp({ create: { width: 900, height: 300, channels: 4, background: { r: 30, g: 64, b: 175, alpha: 1 } } }).png().toBuffer();
  await signIn(page);
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: "Demo Fitness Newmarket" }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  const section = () => page.getByRole("region", { name: "Logo" });
  await section().getByLabel("New logo").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await section().getByRole("button", { name: "Save" }).click();
  await expect(section().getByText("Choose a JPEG, PNG or WebP image")).toBeVisible();
  await section().getByLabel("New logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
  await submitAndSettle(page, section().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Logo saved").last()).toBeVisible();
  const src = await section().getByRole("img").getAttribute("src");
  expect(src).toMatch(/^\/api\/public\/gyms\/[0-9a-f-]{36}\/logo\?v=[0-9a-f]{8}$/);
  const uuid = src!.split("/")[4];
  const image = await page.request.get(`${BACKOFFICE}${src}`);
  expect(image.headers()["content-type"]).toBe("image/webp");
  await page.goto(`http://signup.localhost:${new URL(BACKOFFICE).port}/?gym=${uuid}`);
  await expect(page.locator(`img[src="${src}"]`).first()).toBeVisible();
});

test("connects the sandbox card and direct-debit providers, and the sign-up app then offers direct debit there", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: "Demo Fitness Newmarket" }).click();
  const providers = () => page.getByRole("region", { name: "Payment providers" });
  for (const [row, provider] of [["Direct debit", "GoCardless"], ["Cards", "Stripe"]] as const) {
    await providers().locator("dd").filter({ has: page.getByRole("button") }).nth(row === "Cards" ? 0 : 1).getByRole("button").click();
    await expect(page.getByRole("heading", { level: 1, name: `Connect Demo Fitness Newmarket to ${provider}` })).toBeVisible();
    await expectAccessible(page);
    await submitAndSettle(page, page.getByRole("button", { name: "Connect account" }));
    await expect(page.getByText(`${provider} connected`).last()).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Demo Fitness Newmarket" })).toBeVisible();
  }
  await expect(providers()).toContainText(/Cards\s*Connected \(acct_sandbox[0-9a-f]{12}\)/);
  await expect(providers()).toContainText(/Direct debit\s*Connected \(OR_sandbox[0-9A-F]{10}\)/);

  // Cancelling on the provider's page connects nothing, and says so.
  await providers().getByRole("button").first().click();
  await submitAndSettle(page, page.getByRole("button", { name: "Cancel and go back" }));
  await expect(page.getByText("Stripe not connected").last()).toBeVisible();

  // A person joining at Newmarket is now offered direct debit.
  const email = uniqueEmail("newmarket.joiner", test.info());
  await page.goto(`${BACKOFFICE}/logout`);
  await page.context().clearCookies();
  await registerAndVerify(page, "Nora Newmarket", email, await joinLink(page, "Demo Fitness Newmarket"));
  const sharp = (await import("sharp")).default;
  const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#4a7" } }).png().toBuffer();
  await page.getByLabel("Take or choose a photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Use this photo" }).click();
  await expect(page.getByRole("img", { name: "Your photo as the gym will see it" })).toBeVisible();
  await page.getByRole("link", { name: "Looks good: continue" }).click();
  await expect(page.getByRole("link", { name: "Direct debit from your bank account" })).toBeVisible();
});
