/** Shared geometry for the SVG charts: a value axis with round ticks, and which category labels fit. */

export type Format = (value: number) => string;

/**
 * Chart text is in viewBox units, so it shrinks and grows with the chart. A phone shows a chart at about
 * 0.7 of its viewBox width, so text is drawn larger there; elsewhere the chart is kept near 1:1 (the
 * dashboard's columns and ChartFrame's max width see to that). Layout reserves room for the larger size.
 */
export const TEXT_SIZE = "text-[16px] sm:text-[13px]";
export const LAYOUT_FONT = 16;

// One formatter for every call: toLocaleString builds a new one each time (a chart formats dozens).
const numbers = new Intl.NumberFormat("en-NZ");
export const formatNumber: Format = (n) => numbers.format(n);

/** Ticks from 0 to at least `max` in round steps (1, 2, 2.5 or 5 × 10ⁿ), about `count` of them. */
export function niceTicks(max: number, { count = 4, integer = false } = {}): number[] {
  const top = max > 0 ? max : 1;
  const raw = top / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  let step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
  // Counts have no half-members: whole steps only.
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks: number[] = [];
  for (let v = 0; v < top + step; v += step) {
    ticks.push(v);
    if (v >= top) break;
  }
  return ticks;
}

/**
 * Which of `n` evenly spaced category labels to draw when only about `fit` fit across: every k-th,
 * counted back from the newest so the latest point is always labelled.
 */
export function labelledIndexes(n: number, fit: number): Set<number> {
  const every = Math.max(1, Math.ceil(n / Math.max(1, fit)));
  const shown = new Set<number>();
  for (let i = n - 1; i >= 0; i -= every) shown.add(i);
  return shown;
}

/** Rough width of SVG text at `size` px, for margins (digits and capitals are about 0.6 em). */
export const textWidth = (text: string, size: number) => text.length * size * 0.6;
