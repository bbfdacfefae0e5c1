import type { Me } from "../../lib/session.server";
import type { IconName } from "./icons";

/**
 * The sidebar, as data: each entry has a name, an icon, a target route, an active check and a
 * should-render check (SPEC §2). Entries link directly or are groups that open when toggled or when a
 * child is active. Pages that arrive with later issues answer 404 until then.
 */
export interface NavLinkEntry {
  name: string;
  icon: IconName;
  to: string;
  isActive: (pathname: string) => boolean;
  shouldRender: (me: Me) => boolean;
  /** Shows the unread-messages badge. */
  badge?: "unread";
}
export interface NavGroupEntry {
  name: string;
  icon: IconName;
  children: NavLinkEntry[];
  shouldRender: (me: Me) => boolean;
}
export type NavEntry = NavLinkEntry | NavGroupEntry;

const under = (path: string) => (pathname: string) => pathname === path || pathname.startsWith(`${path}/`);
const always = () => true;
/** Calendar, recurring schedules and messaging are switched on per organisation, not by role. */
export const hasCalendarAndMessaging = (me: Me) => Boolean(me.current_organisation?.calendar_and_messaging);
/** As the API decides it (server/core/current-user.ts): the UI never derives roles itself. */
export const isOrganisationAdmin = (me: Me) => me.is_organisation_admin;

export const NAV: NavEntry[] = [
  { name: "Dashboard", icon: "dashboard", to: "/dashboard", isActive: under("/dashboard"), shouldRender: always },
  // The front desk (issue 32): for staff who may check members in at the current gym.
  { name: "Check-in", icon: "checkin", to: "/check-in", isActive: under("/check-in"), shouldRender: (me) => me.permissions.includes("visits.write") },
  {
    name: "Calendar",
    icon: "calendar",
    to: "/calendar",
    isActive: (p) => under("/calendar")(p) || under("/recurring-schedules")(p),
    shouldRender: hasCalendarAndMessaging,
  },
  // Group classes (issue 34): every organisation may run them, so not behind calendar and messaging.
  { name: "Classes", icon: "classes", to: "/classes", isActive: under("/classes"), shouldRender: (me) => me.permissions.includes("classes.read") },
  { name: "Messages", icon: "messages", to: "/messages", isActive: under("/messages"), shouldRender: hasCalendarAndMessaging, badge: "unread" },
  { name: "Members", icon: "members", to: "/members", isActive: under("/members"), shouldRender: always },
  // Payments are money: for those who may see money in the current gym (server/core/permissions.ts).
  { name: "Payments", icon: "payments", to: "/payments", isActive: under("/payments"), shouldRender: (me) => me.permissions.includes("money.read") },
  { name: "Visits", icon: "visits", to: "/visits", isActive: under("/visits"), shouldRender: always },
  { name: "Offerings", icon: "offerings", to: "/offerings", isActive: under("/offerings"), shouldRender: always },
  {
    name: "Organisation",
    icon: "organisation",
    shouldRender: isOrganisationAdmin,
    children: [
      { name: "Staff", icon: "staff", to: "/staff", isActive: under("/staff"), shouldRender: always },
      { name: "Gyms", icon: "gyms", to: "/gyms", isActive: under("/gyms"), shouldRender: always },
      { name: "Settings", icon: "settings", to: "/organisation/settings", isActive: under("/organisation/settings"), shouldRender: always },
      { name: "Calculate Pro Rata", icon: "calculator", to: "/calculate-pro-rata", isActive: under("/calculate-pro-rata"), shouldRender: always },
      { name: "Reconciliation", icon: "payments", to: "/reconciliation", isActive: under("/reconciliation"), shouldRender: always },
      // Integrators (issue 33): API keys and outgoing webhooks.
      { name: "Developers", icon: "settings", to: "/organisation/developers", isActive: under("/organisation/developers"), shouldRender: always },
    ],
  },
];

export const isGroup = (e: NavEntry): e is NavGroupEntry => "children" in e;

/**
 * Sections only some staff may enter (SPEC §2 navigation guards), by the same checks that hide their sidebar
 * entries. Anyone else is sent to the dashboard.
 */
const GUARDED_SECTIONS: { paths: string[]; may: (me: Me) => boolean }[] = [
  { paths: ["/organisation/settings", "/reconciliation", "/organisation/developers"], may: isOrganisationAdmin },
  { paths: ["/calendar", "/recurring-schedules", "/messages"], may: hasCalendarAndMessaging },
];

const guardedSection = (pathname: string) => GUARDED_SECTIONS.find((s) => s.paths.some((p) => under(p)(pathname)));

/** Whether the path lies in a section that some staff may not enter. */
export const isGuardedSection = (pathname: string) => Boolean(guardedSection(pathname));

/** Where a member of staff who may not enter the path's section goes (the dashboard), or null. */
export function guardSection(pathname: string, me: Me): string | null {
  const section = guardedSection(pathname);
  return section && !section.may(me) ? "/dashboard" : null;
}
