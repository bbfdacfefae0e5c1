/**
 * A small in-process cache for figures that are costly to compute and may be a little old: the dashboard's
 * membership figures, which scan every subscription of an organisation (hundreds of milliseconds at 100,000
 * members, against a page budget of 100 ms).
 *
 * - A fresh entry (younger than `ttlMs`) is served as is.
 * - A stale entry is served at once while one refresh runs in the background (stale-while-revalidate);
 *   a failed refresh keeps the old figures and is retried on the next read.
 * - A missing entry is computed once however many requests ask for it at the same time (single flight).
 * - `invalidate(prefix)` drops entries after a write that changes them; the next read computes afresh.
 * - At most `maxEntries` are kept; the least recently used goes first.
 * `ttlMs: 0` turns caching off: every read computes.
 */
export interface Cached<T> {
  value: T;
  /** When the value was computed. */
  asOf: Date;
}

interface Entry {
  value?: Cached<unknown>;
  pending?: Promise<Cached<unknown>>;
}

export interface SwrCache {
  /** `opts.ttlMs` overrides the cache's age limit for this key (0 still computes every time). */
  get<T>(key: string, compute: () => Promise<T>, opts?: { ttlMs?: number }): Promise<Cached<T>>;
  invalidate(prefix: string): void;
  readonly size: number;
}

export function createSwrCache(opts: { ttlMs: number; maxEntries?: number; clock?: () => number; onError?: (err: unknown) => void }): SwrCache {
  const { ttlMs, maxEntries = 1000, clock = Date.now, onError = (err) => console.error("cache refresh failed:", err) } = opts;
  const entries = new Map<string, Entry>();

  function run<T>(key: string, entry: Entry, compute: () => Promise<T>): Promise<Cached<T>> {
    const started = clock();
    const pending = compute().then(
      (value) => {
        const cached = { value, asOf: new Date(started) };
        // Only the latest run for a key that is still wanted is kept (an invalidation may have dropped it).
        if (entries.get(key) === entry && entry.pending === pending) {
          entry.value = cached;
          entry.pending = undefined;
        }
        return cached;
      },
      (err: unknown) => {
        if (entry.pending === pending) entry.pending = undefined;
        throw err;
      },
    );
    entry.pending = pending;
    return pending;
  }

  return {
    async get<T>(key: string, compute: () => Promise<T>, opts?: { ttlMs?: number }): Promise<Cached<T>> {
      const maxAge = ttlMs <= 0 ? 0 : (opts?.ttlMs ?? ttlMs);
      if (maxAge <= 0) return { value: await compute(), asOf: new Date(clock()) };
      let entry = entries.get(key);
      if (entry) {
        entries.delete(key); // re-insert: Map order is our recency order
        entries.set(key, entry);
      } else {
        entry = {};
        entries.set(key, entry);
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      const current = entry.value as Cached<T> | undefined;
      if (!current) return (entry.pending as Promise<Cached<T>> | undefined) ?? run(key, entry, compute);
      if (clock() - current.asOf.getTime() >= maxAge && !entry.pending) run(key, entry, compute).catch(onError);
      return current;
    },
    invalidate(prefix: string) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
