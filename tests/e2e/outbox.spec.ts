import { expect, test } from "@playwright/test";
import { BACKOFFICE, jsEnabled } from "./helpers";

// The demo's billing run at start-up tells the members whose payments failed, by e-mail and, where they allow it,
// by push: the sandbox OneSignal's notifications show under the e-mails (decision 0021).
test("the demo's outbox shows the push notifications the sandbox push service kept", async ({ page }) => {
  await expect
    .poll(
      async () => {
        await page.goto(`${BACKOFFICE}/dev/mail`);
        return page.getByRole("listitem").filter({ hasText: /^To user-\d+/ }).filter({ hasText: "/api/links/" }).count();
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Push notifications" })).toBeVisible();
  // The billing notices' pushes open the member's sign-up app (the calendar's pushes, about a session, open nothing).
  const push = page.getByRole("listitem").filter({ hasText: /^To user-\d+/ }).filter({ hasText: "/api/links/" }).first();
  await expect(push).toContainText(/Opens http:\/\/\S+\/api\/links\//);
  if (jsEnabled(test.info())) await page.screenshot({ path: "test-results/screens/outbox.png", fullPage: true });
});
