import type { StatusColour } from "../../../domain/subscription";

/** SPEC §4's green / amber / red, with text dark enough for WCAG AA on each tint. */
export const COLOUR_CLASSES: Record<StatusColour, string> = {
  green: "bg-green-100 text-green-800 ring-green-600/30",
  amber: "bg-amber-100 text-amber-900 ring-amber-600/30",
  red: "bg-red-100 text-red-800 ring-red-600/30",
};

export function StatusBadge({ status }: { status: { label: string; colour: StatusColour } | null }) {
  if (!status) return <span className="whitespace-nowrap text-sm text-slate-600">No membership</span>;
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${COLOUR_CLASSES[status.colour]}`}>
      {status.label}
    </span>
  );
}
