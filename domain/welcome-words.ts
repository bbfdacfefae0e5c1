import type { AccessDecision } from "./access";
import { formatCalendarDay } from "./calendar-day";
import { formatCents } from "./money";

/**
 * The door as a member's own pages see it (server/doors/member-door.ts): the membership's rule, and whether a door can
 * actually let them in: an active credential, and the door system connected at their gym.
 */
export interface MemberDoor extends Pick<AccessDecision, "allowed" | "reason"> {
  has_credentials: boolean;
  door_system: boolean;
}

/** Without a door that knows them, the rule letting them in means the front desk (their code and QR are on /membership). */
const byTheDoor = (d: MemberDoor) => d.has_credentials && d.door_system;
export const AT_THE_DESK = "Show your member code at the front desk to get in.";

/** The membership page's "Getting in" line. */
export function gettingInWords(door: MemberDoor): string {
  if (!door.allowed) return `Your door access is off: ${door.reason}`;
  return byTheDoor(door) ? "Your door access is on." : AT_THE_DESK;
}

/**
 * A new membership in words: the welcome page and the welcome e-mail say the same. Its own module, free of
 * time-zone code, because the welcome page ships it to the browser.
 */
export function doorInWords(door: MemberDoor, state: string, startDay: string | null): string {
  if (door.allowed)
    return byTheDoor(door)
      ? "Your door access is on. Open the app at the door to get in, or give your name at the front desk."
      : `${AT_THE_DESK} It is on your membership page.`;
  const from = startDay ? formatCalendarDay(startDay) : "your start day";
  if (state === "upcoming") return byTheDoor(door) ? `Your door access starts on ${from}.` : `From ${from}, show your member code at the front desk to get in.`;
  return `Door access: ${door.reason}`;
}

/** What a member joined, in one line: "Anytime 24/7: $19.99 weekly (12 months), from 27 Nov 2026". */
export function membershipInWords(m: {
  offering: { name: string };
  price: { amount: number; billing_frequency: string; frequency_label: string; term: string | null };
  start_date: string | null;
}): string {
  const how = m.price.billing_frequency === "one_off" ? "paid in full" : m.price.frequency_label.toLowerCase();
  return `${m.offering.name}: ${formatCents(m.price.amount)} ${how}${m.price.term ? ` (${m.price.term})` : ""}${
    m.start_date ? `, from ${formatCalendarDay(m.start_date)}` : ""
  }`;
}
