/**
 * A class type's colour (#rrggbb) as a dot. An SVG fill, not a style attribute: the pages' content security policy
 * allows no inline styles, and a fill is drawn all the same with JavaScript off.
 */
export function ClassColour({ colour, size = 12 }: { colour: string; size?: number }) {
  const fill = /^#[0-9a-f]{6}$/i.test(colour) ? colour : "#64748b";
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 12 12" className="shrink-0">
      <circle cx="6" cy="6" r="6" fill={fill} />
    </svg>
  );
}
