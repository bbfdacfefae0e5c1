import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/** The one database handle type: PGlite and node-postgres both give a PgDatabase over the same schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
