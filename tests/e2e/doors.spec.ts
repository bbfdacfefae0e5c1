import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, expectAccessible, jsEnabled, signIn, submitAndSettle } from "./helpers";

/** Doors (issue 15), with JavaScript on and off: the sandbox door system connected, a place linked, a door counting visits. */

/**
 * Each project works on a gym of its own: the two runs go at once, and one linking its gym's place while the other
 * saves that gym's doors made the other's saved door read back unchecked.
 */
const gymName = () => (jsEnabled(test.info()) ? "Demo Fitness Ponsonby" : "Demo Fitness Newmarket");

async function gymId(page: Page) {
  const res = await page.request.get(`${BACKOFFICE}/api/gyms`);
  const gyms = (await res.json()).data.data as { id: number; name: string }[];
  return gyms.find((g) => g.name === gymName())!.id;
}

test("connects the door system, links a gym's place, counts its front door, and a member at the door shows in the visits", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: gymName() }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Edit ${gymName()}` })).toBeVisible();
  // The door system is the organisation's: the other project's run may have connected it already.
  const connect = page.getByRole("region", { name: "Door system", exact: true });
  if (await connect.isVisible()) {
    await submitAndSettle(page, connect.getByRole("button", { name: "Connect" }));
    await expect(page.getByText("Door system connected").last()).toBeVisible();
  }
  const place = page.getByRole("region", { name: "Door system place" });
  await place.getByLabel("Place").selectOption({ label: gymName() });
  await submitAndSettle(page, place.getByRole("button", { name: "Link" }));
  await expect(page.getByText("Door system place linked").last()).toBeVisible();

  const visits = page.getByRole("region", { name: "Visits" });
  await visits.getByLabel("Count door openings as visits").check();
  await submitAndSettle(page, visits.getByRole("button", { name: "Save" }));
  const doors = page.getByRole("region", { name: "Doors" });
  await doors.getByLabel("Front door counts visits").check();
  await doors.getByLabel("Staff entrance counts visits").uncheck();
  await submitAndSettle(page, doors.getByRole("button", { name: "Save" }));
  await expect(page.getByText("Doors saved").last()).toBeVisible();
  await expect(doors.getByLabel("Front door counts visits")).toBeChecked();
  await expectAccessible(page);

  // At the sandbox door: the demo member has no door access there, so the door stays shut and a refused visit is recorded.
  await page.getByRole("link", { name: "Try a door in the sandbox door system" }).click();
  await expect(page.getByRole("heading", { name: `${gymName()}: someone at the door` })).toBeVisible();
  await page.getByLabel("Who is at the door (their e-mail)").fill("member@example.com");
  await page.getByLabel("Door", { exact: true }).selectOption({ label: "Front door" });
  await page.getByRole("button", { name: "Try the door" }).click();
  await expect(page.getByRole("status")).toHaveText("Front door stayed shut for member@example.com. The gym recorded a refused visit.");
  await expectAccessible(page);

  // The refused visit, at that gym, on /visits.
  await page.goto(`${BACKOFFICE}/visits?gym=${await gymId(page)}&result=refused`);
  await expect(page.getByRole("row").filter({ hasText: "Morgan Member" }).first()).toBeVisible();
  await page.goto(`${BACKOFFICE}/gyms`);
  await page.getByRole("link", { name: gymName() }).click();
  await expect(page.getByRole("region", { name: "Doors" }).getByText("Opening it counts as a visit")).toBeVisible();
});
