import type { Format } from "./scale";

/** What every chart takes. The SVG is drawn on the server; nothing here needs JavaScript in the browser. */
export interface ChartProps {
  /** Prefix of the ids tying the SVG to its title and description; default: React's useId. */
  id?: string;
  /** The chart's accessible name (the SVG's <title>) and the caption of its figures table. */
  title: string;
  /** What the chart shows, in a sentence or two (the SVG's <desc>). */
  description: string;
  /** One label per figure, drawn on the category axis. */
  labels: string[];
  /** The figures, in the order of `labels`; null where there is no figure. */
  data: (number | null)[];
  /** Formats a figure for its label and the table. Default: en-NZ number. */
  format?: Format;
  /** Formats value-axis ticks (a shorter form, such as $2.5K). Default: `format`. */
  formatAxis?: Format;
  /** Longer labels for the figures table (e.g. "Week of 16 Nov 2026"). Default: `labels`. */
  tableLabels?: string[];
  /** Column headings of the figures table. */
  labelHeading?: string;
  valueHeading?: string;
  /** Said for a null figure in the table. */
  emptyText?: string;
  /** Figures are counts: value-axis ticks are whole numbers. */
  integer?: boolean;
  className?: string;
}
