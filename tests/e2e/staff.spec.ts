import { expect, test } from "@playwright/test";
import {
  BACKOFFICE,
  enterCode,
  expectAccessible,
  joinLink,
  jsEnabled,
  lastMailTo,
  registerAndVerify,
  signIn,
  submitAndSettle,
  submitLogin,
  uniqueEmail,
} from "./helpers";

/** Staff (issue 15), with JavaScript on and off (the two projects). Each run invites a person of its own. */

test("invites a trainer who sets a password and signs in; deactivated, their session ends; removed, they are listed as removed", async ({ page, browser }) => {
  const email = uniqueEmail("trainer", test.info());
  await signIn(page);
  await page.goto(`${BACKOFFICE}/staff`);
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Demo Fitness Central: Personal Trainer" }).first()).toBeVisible();
  await expectAccessible(page);

  // No gym given a role: refused, with the address kept.
  const invite = () => page.getByRole("region", { name: "Invite a staff member" });
  await invite().getByLabel("E-mail", { exact: true }).fill(email);
  await invite().getByRole("button", { name: "Invite" }).click();
  await expect(invite().getByText("Select at least one gym")).toBeVisible();
  await expect(invite().getByLabel("E-mail", { exact: true })).toHaveValue(email);
  await expectAccessible(page);

  await invite().getByLabel("Demo Fitness Central").selectOption("personal_trainer");
  await invite().getByLabel("Calendar colour").selectOption("purple");
  await submitAndSettle(page, invite().getByRole("button", { name: "Invite" }));
  await expect(page.getByText("Invitation sent").last()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(email.replace(/[.]/g, "\\.")) })).toBeVisible();
  await expect(page.getByText("Invited", { exact: true })).toBeVisible();
  await expectAccessible(page);
  const staffPage = page.url();

  // The invitee, in a browser of their own: the e-mailed link, their name and a password, then sign in.
  const theirs = await browser.newContext({ javaScriptEnabled: jsEnabled(test.info()) });
  const trainer = await theirs.newPage();
  const link = (await lastMailTo(trainer, email))!.text.match(/(http\S+set-password\?token=\S+)/)![1];
  await trainer.goto(link);
  await trainer.getByLabel("Your name").fill("Tess Trainer");
  await trainer.getByLabel("New password").fill("tess trainer passphrase");
  await trainer.getByLabel("Repeat the password").fill("tess trainer passphrase");
  await trainer.getByRole("button", { name: "Save password" }).click();
  await expect(trainer).toHaveURL(/\/login/);
  await submitLogin(trainer, email, "tess trainer passphrase");
  await enterCode(trainer, email);
  await expect(trainer).toHaveURL(/\/dashboard$/);

  // The admin sees them active, turns their door access on, then deactivates them.
  await page.goto(staffPage);
  await expect(page.getByRole("heading", { level: 1, name: /Tess Trainer/ })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  const doors = () => page.getByRole("region", { name: "Door access" });
  await doors().getByLabel("Door access on").check();
  await submitAndSettle(page, doors().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Door access saved").last()).toBeVisible();
  await expect(doors().getByLabel("Door access on")).toBeChecked();
  await submitAndSettle(page, page.getByRole("button", { name: "Deactivate" }));
  await expect(page.getByText("Deactivated: they are signed out and cannot sign in").last()).toBeVisible();

  // Their session has ended: the next page is the sign-in page, and signing in is refused.
  await trainer.reload();
  await expect(trainer).toHaveURL(/\/login/);
  await submitLogin(trainer, email, "tess trainer passphrase");
  await expect(trainer.getByText("Your access has been switched off. Ask your organisation's admin to switch it back on.")).toBeVisible();
  await theirs.close();

  // Removal needs the box ticked; then they are under Removed.
  const remove = () => page.getByRole("region", { name: "Remove from staff" });
  await remove().getByRole("button", { name: "Remove" }).click();
  await expect(remove().getByText("Tick the box to confirm the removal")).toBeVisible();
  await remove().getByLabel("Yes, remove Tess Trainer").check();
  await submitAndSettle(page, remove().getByRole("button", { name: "Remove" }));
  await expect(page.getByText("Removed from your staff").last()).toBeVisible();
  await expect(page).toHaveURL(/\/staff\?status=removed$/);
  await expect(page.getByRole("row").filter({ hasText: email }).getByRole("link", { name: "Tess Trainer" })).toBeVisible();
});

test("changes a staff member's roles gym by gym and their calendar colour, keeping values after an error", async ({ page }) => {
  const email = uniqueEmail("pergym", test.info());
  await signIn(page);
  await page.goto(`${BACKOFFICE}/staff`);
  const invite = page.getByRole("region", { name: "Invite a staff member" });
  await invite.getByLabel("E-mail", { exact: true }).fill(email);
  await invite.getByLabel("Name (they can give it themselves when invited)").fill("Gabe Gyms");
  await invite.getByLabel("Demo Fitness Ponsonby").selectOption("admin");
  await invite.getByLabel("E-mail them an invitation").uncheck();
  await submitAndSettle(page, invite.getByRole("button", { name: "Invite" }));
  await expect(page.getByText("Staff member added").last()).toBeVisible();

  const details = () => page.getByRole("region", { name: "Details and roles" });
  await details().getByLabel("Name", { exact: true }).fill("");
  await details().getByLabel("Demo Fitness Central").selectOption("personal_trainer");
  await details().getByRole("button", { name: "Save" }).click();
  await expect(details().getByText("Value is required")).toBeVisible();
  await expect(details().getByLabel("Demo Fitness Central")).toHaveValue("personal_trainer");
  await details().getByLabel("Name", { exact: true }).fill("Gabe Gyms");
  await details().getByLabel("Calendar colour").selectOption("teal");
  await submitAndSettle(page, details().getByRole("button", { name: "Save" }));
  await expect(page.getByText("Staff member saved").last()).toBeVisible();
  const where = page.getByRole("region", { name: "Where they work" });
  await expect(where.getByText("Demo Fitness Central: Personal Trainer")).toBeVisible();
  await expect(where.getByText("Demo Fitness Ponsonby: Admin")).toBeVisible();
  await expect(details().getByLabel("Calendar colour")).toHaveValue("teal");

  // Tidy: the demo keeps its own staff only.
  await page.getByRole("region", { name: "Remove from staff" }).getByLabel("Yes, remove Gabe Gyms").check();
  await submitAndSettle(page, page.getByRole("region", { name: "Remove from staff" }).getByRole("button", { name: "Remove" }));
});

test("invites someone another organisation holds: they join only when they accept, and nothing of theirs shows before", async ({ page, browser }) => {
  // A member of Harbour Strength, with an account of their own (decision 0048).
  const email = uniqueEmail("elsewhere", test.info());
  const theirs = await browser.newContext({ javaScriptEnabled: jsEnabled(test.info()) });
  const person = await theirs.newPage();
  await registerAndVerify(person, "Hana Harbour", email, await joinLink(person, "Harbour Strength Devonport"));

  await signIn(page);
  await page.goto(`${BACKOFFICE}/staff`);
  const invite = page.getByRole("region", { name: "Invite a staff member" });
  await invite.getByLabel("E-mail", { exact: true }).fill(email);
  await invite.getByLabel("Demo Fitness Central").selectOption("personal_trainer");
  await submitAndSettle(page, invite.getByRole("button", { name: "Invite" }));
  await expect(page.getByText("Invitation sent").last()).toBeVisible();
  await expect(page).toHaveURL(/\/staff\?status=invited$/);
  const waiting = page.getByRole("region", { name: "Waiting for an answer" });
  await expect(waiting.getByText(email)).toBeVisible();
  await expect(waiting.getByText(/Demo Fitness Central: Personal Trainer · the link works until/)).toBeVisible();
  // Their account's name is theirs to share: not shown until they accept.
  await expect(page.getByText("Hana Harbour")).toHaveCount(0);
  await expectAccessible(page);

  // They answer from the e-mailed link.
  const link = (await lastMailTo(person, email))!.text.match(/(http\S+invitation\?token=\S+)/)![1];
  await person.goto(link);
  await expect(person.getByRole("heading", { name: "Join Demo Fitness?" })).toBeVisible();
  await expect(person.getByText("has invited you to join them as Personal Trainer")).toBeVisible();
  await person.getByRole("button", { name: "Accept and join" }).click();
  await expect(person.getByText("Welcome to Demo Fitness").last()).toBeVisible();
  // The link works once.
  await person.goto(link);
  await expect(person.getByRole("alert")).toContainText("expired, been answered or been withdrawn");
  await theirs.close();

  await page.goto(`${BACKOFFICE}/staff`);
  await expect(page.getByRole("row").filter({ hasText: email }).getByRole("link", { name: "Hana Harbour" })).toBeVisible();
});
