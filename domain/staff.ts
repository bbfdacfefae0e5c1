/**
 * Staff (SPEC §3 Staff, §6; issue 15): the roles a staff member holds, their labels, and the calendar colours they may
 * be shown in. One place for each, shared by the API and the pages.
 */
export const STAFF_ROLES = ["admin", "personal_trainer"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * What a staff member is, as the API answers and takes it: an organisation admin ("admin", every gym), a personal
 * trainer at some gyms ("personal_trainer"), or -1, a list of roles gym by gym (SPEC §6).
 */
export type StaffKind = StaffRole | -1;
export const PER_GYM = -1;

/** SPEC §3 "Gym membership role labels": admin is Admin, personal_trainer Personal Trainer, anything else --. */
export function roleLabel(role: unknown): string {
  return role === "admin" ? "Admin" : role === "personal_trainer" ? "Personal Trainer" : "--";
}

/** The label format is name, a colon, then the role: "Newmarket: Personal Trainer". */
export const gymRoleLabel = (name: string, role: unknown) => `${name}: ${roleLabel(role)}`;

/** A trainer's colour in the calendar (SPEC §9: green unless chosen), with the shade the pages draw it in. */
export const CALENDAR_COLOURS = {
  green: "#16a34a",
  blue: "#2563eb",
  purple: "#7c3aed",
  pink: "#db2777",
  red: "#dc2626",
  orange: "#ea580c",
  yellow: "#ca8a04",
  teal: "#0d9488",
  grey: "#4b5563",
} as const;
export type CalendarColour = keyof typeof CALENDAR_COLOURS;

/** Where a staff member stands: invited and not yet signed up, working, switched off, or removed. */
export type StaffStatus = "invited" | "active" | "deactivated" | "removed";
export const STAFF_STATUS_LABELS: Record<StaffStatus, string> = { invited: "Invited", active: "Active", deactivated: "Deactivated", removed: "Removed" };
