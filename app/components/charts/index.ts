export { BarChart } from "./bar-chart";
export { LineChart } from "./line-chart";
export type { ChartProps } from "./chart-props";
