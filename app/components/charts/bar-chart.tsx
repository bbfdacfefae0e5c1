import { ChartFrame, ValueAxis } from "./chart-frame";
import type { ChartProps } from "./chart-props";
import { LAYOUT_FONT, TEXT_SIZE, formatNumber, labelledIndexes, niceTicks, textWidth } from "./scale";

const WIDTH = 440;
const COLUMNS_HEIGHT = 240;

/**
 * A bar chart drawn as SVG on the server. Vertical bars suit a sequence (months); horizontal bars suit
 * categories whose names may be long (each name sits above its bar, so it gets the full width).
 * The viewBox makes it scale with its container.
 */
export function BarChart({ orientation = "vertical", ...props }: ChartProps & { orientation?: "vertical" | "horizontal" }) {
  const format = props.format ?? formatNumber;
  return orientation === "vertical" ? (
    <ChartFrame props={props} width={WIDTH} height={COLUMNS_HEIGHT}>
      <Columns {...props} format={format} />
    </ChartFrame>
  ) : (
    <ChartFrame props={props} width={WIDTH} height={rowsHeight(props.labels.length)}>
      <Rows {...props} format={format} />
    </ChartFrame>
  );
}

function Columns({ labels, data, format, formatAxis = format, integer }: ChartProps & { format: NonNullable<ChartProps["format"]> }) {
  const height = COLUMNS_HEIGHT;
  const max = Math.max(0, ...data.map((v) => v ?? 0));
  const ticks = niceTicks(max, { integer });
  const top = ticks[ticks.length - 1];
  const left = Math.max(...ticks.map((t) => textWidth(formatAxis(t), LAYOUT_FONT))) + 10;
  const band = (WIDTH - left - 4) / Math.max(1, data.length);
  // A label too wide for its band goes on two lines ("Nov" over "2026") before any are left out.
  const oneLine = Math.max(1, ...labels.map((l) => textWidth(l, LAYOUT_FONT))) <= band - 6;
  const lines = labels.map((l) => (oneLine || !l.includes(" ") ? [l] : [l.slice(0, l.indexOf(" ")), l.slice(l.indexOf(" ") + 1)]));
  const widestLine = Math.max(1, ...lines.flat().map((l) => textWidth(l, LAYOUT_FONT)));
  const plot = { x: left, y: 22, w: WIDTH - left - 4, h: height - 22 - (oneLine ? 28 : 44) };
  const barWidth = Math.min(56, band * 0.6);
  const y = (v: number) => plot.y + plot.h - (v / top) * plot.h;
  const shown = labelledIndexes(labels.length, Math.floor(plot.w / (widestLine + 8)));
  // Figures above the bars: in full when they fit their band, else in the axis's shorter form, else not at all.
  const fits = (f: (v: number) => string) => data.every((v) => v == null || textWidth(f(v), LAYOUT_FONT) <= band - 4);
  const valueText = fits(format) ? format : fits(formatAxis) ? formatAxis : null;

  return (
    <g className={TEXT_SIZE}>
      <ValueAxis ticks={ticks} y={y} x1={plot.x} x2={plot.x + plot.w} format={formatAxis} />
      {data.map((v, i) => {
        const cx = plot.x + band * i + band / 2;
        return (
          <g key={i}>
            {v != null && v > 0 ? (
              <rect x={cx - barWidth / 2} y={y(v)} width={barWidth} height={plot.y + plot.h - y(v)} rx={2} className="fill-brand-600" />
            ) : null}
            {v != null && valueText ? (
              <text x={cx} y={y(v) - 6} textAnchor="middle" className="fill-slate-900 font-medium">
                {valueText(v)}
              </text>
            ) : null}
            {shown.has(i) ? (
              <text x={cx} y={plot.y + plot.h + 20} textAnchor="middle" className="fill-slate-600">
                {lines[i].map((line, k) => (
                  <tspan key={k} x={cx} dy={k ? "1.25em" : undefined}>
                    {line}
                  </tspan>
                ))}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={plot.x} x2={plot.x + plot.w} y1={plot.y + plot.h} y2={plot.y + plot.h} className="stroke-slate-400" />
    </g>
  );
}

const ROW = 46;
const rowsHeight = (rows: number) => Math.max(1, rows) * ROW + 4;

function Rows({ labels, data, format }: ChartProps & { format: NonNullable<ChartProps["format"]> }) {
  const max = Math.max(0, ...data.map((v) => v ?? 0));
  return (
    <g className={TEXT_SIZE}>
      {data.map((v, i) => {
        const top = i * ROW;
        const width = max > 0 && v ? (v / max) * WIDTH : 0;
        const value = v == null ? "–" : format(v);
        return (
          <g key={i}>
            <text x={0} y={top + 15} className="fill-slate-700">
              {fit(labels[i], WIDTH - textWidth(value, LAYOUT_FONT) - 12)}
            </text>
            <text x={WIDTH} y={top + 15} textAnchor="end" className="fill-slate-900 font-semibold">
              {value}
            </text>
            <rect x={0} y={top + 24} width={WIDTH} height={14} rx={3} className="fill-slate-100" />
            {width > 0 ? <rect x={0} y={top + 24} width={Math.max(width, 3)} height={14} rx={3} className="fill-brand-600" /> : null}
          </g>
        );
      })}
    </g>
  );
}

/** A name cut to fit `room` (the whole name is in the figures table). */
function fit(label: string, room: number) {
  const chars = Math.floor(room / (LAYOUT_FONT * 0.6));
  return label.length <= chars ? label : `${label.slice(0, Math.max(1, chars - 1)).trimEnd()}…`;
}
