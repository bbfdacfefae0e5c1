import { reportError } from "./observability/report";
import { stringify } from "csv-stringify/sync";
import { formatLocal, localDay } from "../../domain/dates";

/**
 * The one place every CSV we write goes through (exports, the import's rejected rows): each cell a spreadsheet
 * could read as a formula gets a leading ' (OWASP "CSV injection"). That is any cell whose first non-blank
 * character is =, +, -, @ (or their full-width forms), a tab, CR or LF — so `-1+2`, `+(`, `- x` and phone numbers
 * such as +64 21 … are all neutralised — except a cell that is wholly a plain decimal number (`-12.50`, `42`):
 * a spreadsheet reads that as a number, never a formula, so money columns keep their negative amounts as numbers.
 */
export function safe(value: string): string {
  if (/^-?\d+(\.\d+)?$/.test(value)) return value;
  return /^[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n]/.test(value) ? `'${value}` : value;
}

/**
 * Dates in an export are Auckland's, as the pages show them, written the way spreadsheets read a date without being
 * told (ISO order, no "T", no zone) and people read one: an instant as `2026-09-30 10:52`, a day as `2026-09-30`. The
 * column's name says it is New Zealand time (NZ_TIME, NZ_DATE). Empty for no date.
 */
export const csvDateTime = (at: Date | string | null | undefined) => (at == null ? "" : formatLocal(at, "yyyy-MM-dd HH:mm"));
export const csvDate = (at: Date | string | null | undefined) => (at == null ? "" : localDay(at));
/** "Joined (NZ date)", "Made (NZ time)": an export's date columns named for the clock they are on. */
export const NZ_DATE = (name: string) => `${name} (NZ date)`;
export const NZ_TIME = (name: string) => `${name} (NZ time)`;

/** Rows as CSV text, every cell made safe: the only way a CSV is written. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return stringify(rows.map((cells) => cells.map(safe)));
}

/**
 * The CSV export's body: the header and the first batch are read before anything is sent, so a failure
 * there answers an error (not a 200 with a header row only); a failure in a later batch errors the stream,
 * which aborts the response instead of ending it cleanly, so the download shows as failed, never as complete.
 * Any list (members, payments, visits): the header, then each batch's rows, every cell made safe.
 */
export async function csvStream<T>(batches: AsyncIterable<T[]>, header: string[], toCells: (row: T) => string[]): Promise<ReadableStream<Uint8Array>> {
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  const encoder = new TextEncoder();
  const rows = (batch: T[]) => csvText(batch.map(toCells));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvText([header]) + (first.done ? "" : rows(first.value))));
      if (first.done) controller.close();
    },
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(rows(next.value)));
      } catch (err) {
        reportError("[api] export failed mid-stream", err);
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/** The headers of a CSV export named for its list and day (payments-2026-11-26.csv). */
export const csvAttachment = (name: string, at: Date) => ({
  "Content-Type": "text/csv; charset=utf-8",
  "Content-Disposition": `attachment; filename="${name}-${localDay(at)}.csv"`,
});
