import { stringify } from "csv-stringify/sync";
import { formatCents } from "../../../domain/money";
import { FREQUENCY_LABELS } from "../../../domain/billing";
import type { MemberListRow } from "./list";

export const CSV_HEADER = ["ID", "Name", "E-mail", "Mobile", "Gym", "Offering", "Price", "Frequency", "Term", "Status", "Tags", "Last visit", "Visits", "Joined"];

/**
 * A cell a spreadsheet would run as a formula (=, @, a tab, or + and - not starting a number) is prefixed
 * with ' (OWASP "CSV injection"). Phone numbers such as +64 21 … and negative amounts stay as they are.
 */
function safe(value: string): string {
  return /^[=@\t\r]|^[+-](?![\d\s(])/.test(value) ? `'${value}` : value;
}

export function csvRows(rows: MemberListRow[]): string {
  return stringify(
    rows.map((m) => [
      String(m.id),
      m.name,
      m.email,
      m.mobile_number ?? "",
      m.gym?.name ?? "",
      m.membership?.offering ?? "",
      m.membership ? formatCents(m.membership.amount) : "",
      m.membership ? FREQUENCY_LABELS[m.membership.billing_frequency] : "",
      m.membership?.term ?? "",
      m.status?.label ?? "No membership",
      m.tags.join("; "),
      m.last_visit_at ?? "",
      String(m.visits_count),
      m.joined_at,
    ].map(safe)),
  );
}

export const csvHeader = () => stringify([CSV_HEADER]);
