import { ChartFrame, ValueAxis } from "./chart-frame";
import type { ChartProps } from "./chart-props";
import { LAYOUT_FONT, TEXT_SIZE, formatNumber, labelledIndexes, niceTicks, textWidth } from "./scale";

const WIDTH = 440;
const HEIGHT = 240;

/**
 * A line chart with the area under it shaded, drawn as SVG on the server; scales with its container
 * through the viewBox. A null figure breaks the line. The newest figure is written at its point.
 */
export function LineChart(props: ChartProps) {
  const { labels, data, integer } = props;
  const format = props.format ?? formatNumber;
  const formatAxis = props.formatAxis ?? format;
  const max = Math.max(0, ...data.map((v) => v ?? 0));
  const ticks = niceTicks(max, { integer });
  const top = ticks[ticks.length - 1];
  const left = Math.max(...ticks.map((t) => textWidth(formatAxis(t), LAYOUT_FONT))) + 10;
  const lastIndex = data.length - 1;
  const lastValue = data[lastIndex];
  // Room on the right so the newest point's figure and label, centred on it, are not cut off.
  const right = Math.max(
    8,
    textWidth(labels[lastIndex] ?? "", LAYOUT_FONT) / 2,
    lastValue == null ? 0 : textWidth(format(lastValue), LAYOUT_FONT) / 2
  );
  const plot = { x: left, y: 24, w: WIDTH - left - right, h: HEIGHT - 24 - 28 };
  const x = (i: number) => (data.length > 1 ? plot.x + (i / (data.length - 1)) * plot.w : plot.x + plot.w / 2);
  const y = (v: number) => plot.y + plot.h - (v / top) * plot.h;
  const base = plot.y + plot.h;
  const widest = Math.max(1, ...labels.map((l) => textWidth(l, LAYOUT_FONT)));
  const shown = labelledIndexes(labels.length, Math.floor(plot.w / (widest + 12)) + 1);

  // Unbroken runs of figures: each is one line and one shaded area.
  const runs: number[][] = [];
  data.forEach((v, i) => {
    if (v == null) return;
    if (i > 0 && data[i - 1] != null) runs[runs.length - 1].push(i);
    else runs.push([i]);
  });
  const line = (run: number[]) => run.map((i, k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(data[i]!).toFixed(1)}`).join(" ");

  return (
    <ChartFrame props={props} width={WIDTH} height={HEIGHT}>
      <g className={TEXT_SIZE}>
        <ValueAxis ticks={ticks} y={y} x1={plot.x} x2={plot.x + plot.w} format={formatAxis} />
        {runs.map((run) => (
          <g key={run[0]}>
            <path d={`${line(run)} L${x(run[run.length - 1]).toFixed(1)},${base} L${x(run[0]).toFixed(1)},${base} Z`} className="fill-brand-500/10" />
            <path d={line(run)} fill="none" strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" className="stroke-brand-600" />
          </g>
        ))}
        {data.map((v, i) =>
          v == null ? null : (
            <circle key={i} cx={x(i)} cy={y(v)} r={i === lastIndex ? 4.5 : 3} strokeWidth={2} className="fill-white stroke-brand-600" />
          )
        )}
        {lastValue != null ? (
          <text x={x(lastIndex)} y={y(lastValue) - 10} textAnchor="middle" className="fill-slate-900 font-semibold">
            {format(lastValue)}
          </text>
        ) : null}
        <line x1={plot.x} x2={plot.x + plot.w} y1={base} y2={base} className="stroke-slate-400" />
        {labels.map((label, i) =>
          shown.has(i) ? (
            <text key={i} x={x(i)} y={HEIGHT - 8} textAnchor="middle" className="fill-slate-600">
              {label}
            </text>
          ) : null
        )}
      </g>
    </ChartFrame>
  );
}
