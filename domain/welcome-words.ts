import type { AccessDecision } from "./access";
import { formatCalendarDay } from "./calendar-day";
import { formatCents } from "./money";

/**
 * A new membership in words: the welcome page and the welcome e-mail say the same. Its own module, free of
 * time-zone code, because the welcome page ships it to the browser.
 */
export function doorInWords(access: Pick<AccessDecision, "allowed" | "reason">, state: string, startDay: string | null): string {
  if (access.allowed) return "Your door access is on. Open the app at the door to get in, or give your name at the front desk.";
  if (state === "upcoming") return `Your door access starts on ${startDay ? formatCalendarDay(startDay) : "your start day"}.`;
  return `Door access: ${access.reason}`;
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
