import { parse } from "csv-parse";

/**
 * The rows of an import's file, streamed by csv-parse (issue 15: 100,000 rows without holding them all): the header,
 * then each data row with its number as a spreadsheet shows it (the header is row 1). A byte-order mark, blank lines
 * and rows shorter or longer than the header are taken as they come; the row's cells are read by position.
 */
export const MAX_IMPORT_ROWS = 200_000;
export const MAX_IMPORT_BYTES = 40 * 1024 * 1024;

export interface CsvRow {
  row: number;
  cells: string[];
}

const parser = () => parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true });

/** Feeds `content` to the parser a piece at a time, so the parser's own buffers stay small. */
async function* records(content: string): AsyncGenerator<string[]> {
  const p = parser();
  const CHUNK = 256 * 1024;
  const feed = (async () => {
    for (let i = 0; i < content.length; i += CHUNK) {
      if (!p.write(content.slice(i, i + CHUNK))) await new Promise((r) => p.once("drain", r));
    }
    p.end();
  })();
  feed.catch(() => p.destroy());
  for await (const record of p) yield record as string[];
  await feed;
}

/** The header row, trimmed. */
export async function headerOf(content: string): Promise<string[]> {
  for await (const r of records(content)) return r.map((h) => h.trim());
  return [];
}

/** Every data row after the header, from the `skip`-th on (a resumed import). */
export async function* dataRows(content: string, skip = 0): AsyncGenerator<CsvRow> {
  let index = -1;
  for await (const cells of records(content)) {
    index++;
    if (index === 0 || index <= skip) continue;
    yield { row: index + 1, cells };
  }
}

/** Rows in batches of `size`. */
export async function* batchesOf<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const r of rows) {
    batch.push(r);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
