import { useId, type ReactNode } from "react";
import type { ChartProps } from "./chart-props";
import { FiguresTable } from "./figures-table";
import { formatNumber } from "./scale";

/**
 * The SVG with its accessible name and description, and the figures as a visually hidden table.
 * role="img" makes the drawing one image to assistive technology; the table carries the numbers.
 */
export function ChartFrame({ props, width, height, children }: { props: ChartProps; width: number; height: number; children: ReactNode }) {
  const autoId = useId();
  const id = props.id ?? autoId;
  return (
    // Capped so that on a wide screen the chart (and its text) is not blown up past about 1.15×.
    <div className={`max-w-[500px] ${props.className ?? ""}`}>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full overflow-visible"
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{props.description}</desc>
        {children}
      </svg>
      <FiguresTable
        caption={props.title}
        labels={props.tableLabels ?? props.labels}
        data={props.data}
        format={props.format ?? formatNumber}
        labelHeading={props.labelHeading ?? "Label"}
        valueHeading={props.valueHeading ?? "Value"}
        emptyText={props.emptyText ?? "No figure"}
      />
    </div>
  );
}

/** Gridlines and tick labels of a value axis running up the left side. */
export function ValueAxis({
  ticks,
  y,
  x1,
  x2,
  format,
}: {
  ticks: number[];
  y: (v: number) => number;
  x1: number;
  x2: number;
  format: (v: number) => string;
}) {
  return (
    <g>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x1} x2={x2} y1={y(t)} y2={y(t)} className="stroke-slate-200" />
          <text x={x1 - 6} y={y(t)} dy="0.35em" textAnchor="end" className="fill-slate-600">
            {format(t)}
          </text>
        </g>
      ))}
    </g>
  );
}
