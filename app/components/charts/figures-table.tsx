import type { Format } from "./scale";

/**
 * Every figure of a chart as a table, visually hidden: the SVG is one image to a screen reader, so the
 * numbers it draws are given here as text.
 */
export function FiguresTable({
  caption,
  labels,
  data,
  format,
  labelHeading,
  valueHeading,
  emptyText,
}: {
  caption: string;
  labels: string[];
  data: (number | null)[];
  format: Format;
  labelHeading: string;
  valueHeading: string;
  emptyText: string;
}) {
  // The wrapper is what hides: a table ignores sr-only's 1px width and would widen the page.
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{labelHeading}</th>
            <th scope="col">{valueHeading}</th>
          </tr>
        </thead>
        <tbody>
          {labels.map((label, i) => (
            <tr key={`${label}-${i}`}>
              <th scope="row">{label}</th>
              <td>{data[i] == null ? emptyText : format(data[i])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
