import { cachified, type Cache, type CacheEntry } from "@epic-web/cachified";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedFor } from "../db/prepared";
import { figures_cache } from "../db/schema";

/**
 * Costly figures kept for a while in the database (figures_cache, drizzle/0012), so every server process
 * serves the same entry. A write that changes what they count drops its organisation's entries by itself, in the
 * database, whoever makes it (triggers, drizzle/0041_figures_follow_writes.sql): no code drops them by hand. cachified decides freshness and computes
 * a missing or expired entry once per process however many ask at once. Keys start with the organisation's id.
 */
const readEntry = preparedFor((db) =>
  db
    .select({ entry: figures_cache.entry })
    .from(figures_cache)
    .where(eq(figures_cache.key, sql.placeholder("key")))
    .prepare("figures_cache_get"),
);

export type SharedFigures = Cache;

/**
 * The cache, read and written through `db`: a request's tenant transaction (row-level security keeps each
 * organisation to its own entries, drizzle/0013), so it is made per request, never once per process.
 */
export function sharedFigures(db: Db): SharedFigures {
  return {
    name: "figures_cache",
    async get(key) {
      const [row] = await readEntry(db).execute({ key });
      return (row?.entry as CacheEntry | undefined) ?? null;
    },
    async set(key, entry) {
      await db
        .insert(figures_cache)
        .values({ key, organisation_id: Number(key.split(":")[0]), entry })
        .onConflictDoUpdate({ target: figures_cache.key, set: { entry } });
    },
    async delete(key) {
      await db.delete(figures_cache).where(eq(figures_cache.key, key));
    },
  };
}

/** The value under `key`, at most `ttlMs` old: computed when missing or older (`ttlMs` 0: every time). */
export function keptFigures<T>(cache: SharedFigures, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
  if (ttlMs <= 0) return compute();
  return cachified({ cache, key, ttl: ttlMs, getFreshValue: compute });
}
