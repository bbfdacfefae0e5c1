import { reportError } from "../observability/report";
import { stringify } from "csv-stringify/sync";

/**
 * A cell a spreadsheet would run as a formula (=, @, a tab, or + and - not starting a number) is prefixed
 * with ' (OWASP "CSV injection"). Phone numbers such as +64 21 … and negative amounts stay as they are.
 */
export function safe(value: string): string {
  return /^[=@\t\r]|^[+-](?![\d\s(])/.test(value) ? `'${value}` : value;
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
  const rows = (batch: T[]) => stringify(batch.map((r) => toCells(r).map(safe)));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(stringify([header]) + (first.done ? "" : rows(first.value))));
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
