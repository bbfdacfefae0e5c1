import { expect, test, type Page } from "@playwright/test";
import { BACKOFFICE, signIn } from "./helpers";

/**
 * The wide screens at a desk (1280 px) and on a phone (375 px): screenshots written to test-results/screens/
 * for a person to look at (they are not compared with anything), and the layout facts behind them checked.
 * At 1280 px no table scrolls sideways and no cell cuts its text off; at 375 px the page does not scroll
 * sideways, the tables' rows are stacked cards each cell of which says what it is, and the gym switcher
 * shows the whole gym name.
 */

const WIDTHS = { desk: 1280, phone: 375 } as const;

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${test.info().project.name}-${name}.png`, fullPage: true, animations: "disabled" });
}

/** Tables (or their scrolling wrappers) wider than their box, and cells whose content overflows them. */
function clipped(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const table of document.querySelectorAll("main table")) {
      const box = table.parentElement!;
      if (box.scrollWidth > box.clientWidth + 1) out.push(`${table.querySelector("caption")?.textContent ?? "table"} scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
      for (const cell of table.querySelectorAll("td, th")) {
        for (const el of [cell, ...cell.querySelectorAll("*")]) {
          if (el.classList.contains("sr-only")) continue; // clipped on purpose: for screen readers only
          // Cut on purpose (a webhook call's long ids and result): the whole text is in its title and on the record's own page.
          if (el.hasAttribute("data-clipped") && el.getAttribute("title") === el.textContent?.trim()) continue;
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== "visible") out.push(`cut off: ${el.textContent?.trim()}`);
        }
      }
    }
    return out;
  });
}

/** At phone width: how each table lays its cells out, and whether each cell names its column. */
function phoneLayout(page: Page) {
  return page.evaluate(() => ({
    pageWidth: document.documentElement.scrollWidth,
    tables: [...document.querySelectorAll("main table")].map((table) => {
      const cells = [...table.querySelectorAll("tbody td")];
      return {
        // Headers a sighted person sees: only the sort links, as a "Sort by" bar.
        headers: [...table.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().width > 1).map((th) => th.getAttribute("data-sort")),
        tableCells: cells.filter((td) => getComputedStyle(td).display === "table-cell").length,
        unlabelled: cells.filter((td) => !td.getAttribute("data-label")).length,
      };
    }),
  }));
}

/** A member whose page has a failed or pending payment with a note (a grace period has one). */
async function memberWithPayments(page: Page) {
  await page.goto(`${BACKOFFICE}/members?status=grace_period&gym=all`);
  const link = page.getByRole("table").locator("tbody tr").first().getByRole("link").first();
  return (await link.getAttribute("href"))!;
}

for (const [size, width] of Object.entries(WIDTHS)) {
  test(`screens at ${width} px: members list, a member, offerings, organisation settings, gyms, the dashboard, search, a dead link`, async ({ page }) => {
    await signIn(page);
    const member = await memberWithPayments(page);
    await page.setViewportSize({ width, height: 900 });

    for (const [name, path] of [
      ["members", "/members"],
      ["member", member],
      ["offerings", "/offerings"],
      ["organisation-settings", "/organisation/settings"],
      ["gyms", "/gyms"],
      ["staff", "/staff"],
    ] as const) {
      await page.goto(`${BACKOFFICE}${path}`);
      await expect(page.getByRole("table").first()).toBeVisible();
      await shoot(page, `${name}-${size}`);
      if (size === "desk") {
        expect.soft(await clipped(page)).toEqual([]);
      } else {
        const layout = await phoneLayout(page);
        expect.soft(layout.pageWidth).toBeLessThanOrEqual(width);
        const sorts = name === "members" ? ["name", "last_visit", "joined"] : [];
        for (const t of layout.tables) expect.soft(t).toEqual({ headers: sorts, tableCells: 0, unlabelled: 0 });
      }
    }

    await page.goto(`${BACKOFFICE}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await shoot(page, `dashboard-${size}`);
    // The gym switcher names the whole gym: a menu button once JavaScript runs, a select before.
    const names = await page.locator("header").evaluate((header) =>
      [...header.querySelectorAll("button[aria-haspopup] span, select")].map((el) => {
        if (el instanceof HTMLSelectElement) {
          // A select cuts its text at its own width: it must be as wide as it would be with room to spare.
          const width = el.getBoundingClientRect().width;
          const saved = el.style.cssText;
          el.style.maxWidth = "none";
          el.style.width = "max-content";
          const natural = el.getBoundingClientRect().width;
          el.style.cssText = saved;
          return { text: el.selectedOptions[0]?.text ?? "", fits: width + 1 >= natural };
        }
        return { text: el.textContent, fits: el.scrollWidth <= el.clientWidth + 1 };
      }),
    );
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect.soft(n, n.text ?? "").toMatchObject({ fits: true });
    expect.soft(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.goto(`${BACKOFFICE}/search?q=morgan`);
    await shoot(page, `search-${size}`);
    await page.goto(`${BACKOFFICE}/no-such-page`);
    await shoot(page, `not-found-${size}`);
  });
}
