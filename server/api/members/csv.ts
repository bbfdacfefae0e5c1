import { stringify } from "csv-stringify/sync";
import { formatCents } from "../../../domain/money";
import { FREQUENCY_LABELS } from "../../../domain/billing";
import { describeError } from "../errors";
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

/**
 * The CSV export's body: the header and the first batch are read before anything is sent, so a failure
 * there answers an error (not a 200 with a header row only); a failure in a later batch errors the stream,
 * which aborts the response instead of ending it cleanly, so the download shows as failed, never as complete.
 */
export async function csvBody(batches: AsyncIterable<MemberListRow[]>): Promise<ReadableStream<Uint8Array>> {
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeader() + (first.done ? "" : csvRows(first.value))));
      if (first.done) controller.close();
    },
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(csvRows(next.value)));
      } catch (err) {
        console.error("[api] export failed mid-stream:", describeError(err));
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}
