import { z } from "zod";

/** PostgreSQL's `integer`, the type of our ids: a larger number can name no row, and the database refuses to compare it. */
export const PG_INT_MAX = 2_147_483_647;

/** A row id from a form or a query: a positive integer within PostgreSQL's integer range, else `message`. */
export const databaseId = (message: string) => z.coerce.number({ invalid_type_error: message }).int(message).positive(message).max(PG_INT_MAX, message);
