import { CALENDAR_COLOURS, type CalendarColour } from "../../../domain/staff";

/**
 * A class type's colour as Tailwind classes (the CSP allows no inline styles): class types take the calendar's own
 * colours (domain/staff.ts), stored as their #rrggbb. Written out whole so Tailwind finds every class.
 */
const CLASSES: Record<CalendarColour, { dot: string; edge: string }> = {
  green: { dot: "bg-green-600", edge: "border-green-600" },
  blue: { dot: "bg-blue-600", edge: "border-blue-600" },
  purple: { dot: "bg-violet-600", edge: "border-violet-600" },
  pink: { dot: "bg-pink-600", edge: "border-pink-600" },
  red: { dot: "bg-red-600", edge: "border-red-600" },
  orange: { dot: "bg-orange-600", edge: "border-orange-600" },
  yellow: { dot: "bg-yellow-600", edge: "border-yellow-600" },
  teal: { dot: "bg-teal-600", edge: "border-teal-600" },
  grey: { dot: "bg-gray-600", edge: "border-gray-600" },
};

export const colourName = (hex: string): CalendarColour =>
  (Object.entries(CALENDAR_COLOURS).find(([, h]) => h === hex.toLowerCase())?.[0] as CalendarColour | undefined) ?? "grey";
export const colourClasses = (hex: string) => CLASSES[colourName(hex)];
export const COLOUR_CHOICES = (Object.keys(CALENDAR_COLOURS) as CalendarColour[]).map((name) => ({
  value: CALENDAR_COLOURS[name],
  label: name[0].toUpperCase() + name.slice(1),
}));
