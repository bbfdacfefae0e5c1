import { formatCents } from "../../domain/money";
import { FREQUENCY_LABELS } from "../../domain/billing";
import { csvDate, csvDateTime, csvStream, NZ_DATE, NZ_TIME } from "../core/csv";
import type { MemberListRow } from "./list";

export const CSV_HEADER = ["ID", "Name", "E-mail", "Mobile", "Gym", "Offering", "Price", "Frequency", "Term", "Status", "Tags", NZ_TIME("Last visit"), "Visits", NZ_DATE("Joined")];

export function memberCsvRow(m: MemberListRow): string[] {
  return [
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
      csvDateTime(m.last_visit_at),
      String(m.visits_count),
      // A day, as the member's page shows it: an imported member's joining time is not known.
      csvDate(m.joined_at),
    ];
}

/** The members export's body (../core/csv.ts csvStream). */
export function csvBody(batches: AsyncIterable<MemberListRow[]>): Promise<ReadableStream<Uint8Array>> {
  return csvStream(batches, CSV_HEADER, memberCsvRow);
}

