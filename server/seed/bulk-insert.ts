import { getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../core/db/client";
import { insertRows } from "../core/db/bulk";
import { rowsOf } from "../core/db/values";

/**
 * Bulk writes for the demo seed: a staging area that lets each of the database's statement triggers see a whole
 * table's load at once (see `Stage`), filled with server/core/db/bulk.ts's many-rows-per-statement inserts.
 */
export { insertAll, insertReturningIds } from "../core/db/bulk";

/**
 * Temporary copies of tables, written in pieces and then moved into their tables in one statement each.
 *
 * Why: the triggers that keep organisation_users' derived columns and the daily rollups (drizzle/0003–0011)
 * are built for the app's writes, a few rows at a time. Fired batch after batch in one long transaction,
 * every batch upserted the same rollup and membership rows again, each upsert leaving a row version the
 * next had to step over: a 100,000-member seed slowed quadratically, to half an hour and more. Moved in one
 * statement, each statement trigger aggregates its table's whole load once, and a membership moved after its
 * subscriptions and visits gets its derived columns from its own row triggers, as the app's writes would:
 * the triggers stay the one place their rules are written, and the data is what they make of it.
 *
 * The copies take the tables' defaults, so serial ids come from the tables' own sequences as rows are
 * staged: the same ids, in the same order, as writing the tables directly. They have no indexes, constraints
 * or triggers, and go at the end of the transaction.
 */
export class Stage {
  private constructor(
    private db: Db,
    private names: Map<PgTable, string>,
  ) {}

  static async create(db: Db, tables: PgTable[]) {
    const names = new Map(tables.map((t) => [t, `stage_${getTableName(t)}`]));
    for (const [table, name] of names) {
      await db.execute(sql`create temporary table ${sql.identifier(name)} (like ${table} including defaults) on commit drop`);
    }
    return new Stage(db, names);
  }

  /** Stages rows; with `returnIds`, gives the ids they will have in their table. */
  add<T extends PgTable>(table: T, rows: T["$inferInsert"][], opts: { returnIds?: boolean } = {}) {
    return insertRows(this.db, table, rows, { ...opts, into: this.nameOf(table) });
  }

  /**
   * Moves the staged rows into their table as one statement, in the order they were staged (a sequential scan
   * of a heap that was only appended to returns rows in the order they were written).
   * The table's foreign keys and secondary indexes are set aside for the move and made again from their own
   * definitions: a foreign key added back checks every row in one join, where row-by-row checks were two
   * thirds of the move, and an index built in one sort costs a fraction of millions of insertions into it.
   */
  private async move(table: PgTable) {
    const name = sql.identifier(this.nameOf(table));
    const relation = getTableName(table);
    const foreignKeys = rowsOf<{ name: string; definition: string }>(
      await this.db.execute(sql`select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = ${relation}::regclass and contype = 'f' order by conname`),
    );
    // Indexes behind a constraint (the primary key, unique constraints) stay.
    const indexes = rowsOf<{ name: string; definition: string }>(
      await this.db.execute(sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = ${relation}::regclass and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
        order by c.relname`),
    );
    for (const fk of foreignKeys) await this.db.execute(sql`alter table ${table} drop constraint ${sql.identifier(fk.name)}`);
    for (const index of indexes) await this.db.execute(sql`drop index ${sql.identifier(index.name)}`);
    await this.db.execute(sql`insert into ${table} select * from ${name}`);
    for (const index of indexes) await this.db.execute(sql.raw(index.definition));
    for (const fk of foreignKeys) await this.db.execute(sql`alter table ${table} add constraint ${sql.identifier(fk.name)} ${sql.raw(fk.definition)}`);
    await this.db.execute(sql`drop table ${name}`);
    // Statistics for what reads the table next in this transaction (foreign-key checks, triggers, the seed's own queries).
    await this.db.execute(sql`analyze ${table}`);
    this.names.delete(table);
  }

  /** Moves every staged table, in the order they were given to `create`. */
  async moveAll() {
    for (const table of [...this.names.keys()]) await this.move(table);
  }

  private nameOf(table: PgTable) {
    const name = this.names.get(table);
    if (!name) throw new Error(`demo seed: ${getTableName(table)} is not staged (or was moved already)`);
    return name;
  }
}
