import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Tenant } from "./db/tenant";

/**
 * Rows newest first by (time, id), `batch` at a time by keyset: each batch starts after the last row of the one
 * before and is read in a short transaction of its own (`again`), so a streamed export holds neither the whole
 * range in memory nor a transaction open while a slow client downloads. `read` is given the "before the cursor"
 * condition (none for the first batch) and the batch size.
 */
export async function* newestFirst<R extends { id: number }>(
  t: Tenant,
  key: { at: PgColumn; id: PgColumn },
  timeOf: (row: R) => Date,
  read: (t: Tenant, before: SQL | undefined, limit: number) => PromiseLike<R[]>,
  batch: number,
): AsyncGenerator<R[]> {
  let cursor: { at: Date; id: number } | null = null;
  for (;;) {
    const before: SQL | undefined = cursor ? sql`(${key.at}, ${key.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id}::int)` : undefined;
    const rows: R[] = await t.again(async (t) => read(t, before, batch));
    if (!rows.length) return;
    yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    cursor = { at: timeOf(last), id: last.id };
  }
}
