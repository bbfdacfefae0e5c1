import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, jsEnabled, signIn } from "./helpers";

// The shared axe check (helpers.ts, expectAccessible) holds a fading toast at full opacity while axe runs: caught
// mid-fade, the toast's half-transparent text is a colour-contrast finding, and the checks that met one were flaky.

/** The toast's life animation (tailwind.css, toast-life): where it is and whether it runs. */
const life = (page: Page) =>
  page.evaluate(() => {
    const a = document.getAnimations().find((x) => (x as CSSAnimation).animationName === "toast-life")!;
    return { time: Number(a.currentTime), state: a.playState };
  });
const setLife = (page: Page, time: number, state: "paused" | "running") =>
  page.evaluate(
    ([time, state]) => {
      const a = document.getAnimations().find((x) => (x as CSSAnimation).animationName === "toast-life")!;
      if (state === "paused") a.pause();
      else a.play();
      a.currentTime = time;
    },
    [time, state] as const,
  );

test("a toast caught mid-fade is checked at full opacity, then left as it was", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "axe and the Web Animations API run in the page's JavaScript");
  await signIn(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("You have been signed out.")).toBeVisible();

  // Stopped in its fade (the last 5% of its 5 s): axe alone finds the faded text too faint.
  await setLife(page, 4850, "paused");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(violations.map((v) => v.id)).toContain("color-contrast");
  await expectAccessible(page);
  expect(await life(page)).toEqual({ time: 4850, state: "paused" });

  // Running: held while axe runs, then running again from where it was.
  await setLife(page, 1000, "running");
  await expectAccessible(page);
  const after = await life(page);
  expect(after.state).toBe("running");
  expect(after.time).toBeGreaterThanOrEqual(1000);
  expect(after.time).toBeLessThan(4750);
});
