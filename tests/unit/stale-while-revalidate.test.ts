import { describe, expect, it, vi } from "vitest";
import { createSwrCache } from "../../server/cache/stale-while-revalidate";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("stale-while-revalidate cache", () => {
  it("computes a missing entry once for concurrent readers", async () => {
    const cache = createSwrCache({ ttlMs: 1000, clock: () => 0 });
    const d = deferred<number>();
    const compute = vi.fn(() => d.promise);
    const a = cache.get("k", compute);
    const b = cache.get("k", compute);
    d.resolve(7);
    expect((await a).value).toBe(7);
    expect((await b).value).toBe(7);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it("keeps an entry for its own age limit when the reader gives one, and never when the cache is off", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, clock: () => now });
    const settled = vi.fn(async () => now);
    await cache.get("past", settled, { ttlMs: 60_000 });
    now = 59_999;
    expect((await cache.get("past", settled, { ttlMs: 60_000 })).value).toBe(0);
    expect(settled).toHaveBeenCalledTimes(1);
    now = 60_000;
    await cache.get("past", settled, { ttlMs: 60_000 });
    expect(settled).toHaveBeenCalledTimes(2); // a background refresh

    const off = createSwrCache({ ttlMs: 0, clock: () => now });
    const compute = vi.fn(async () => 1);
    await off.get("k", compute, { ttlMs: 60_000 });
    await off.get("k", compute, { ttlMs: 60_000 });
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it("serves a fresh entry, then the stale one while a single refresh runs", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, clock: () => now });
    await cache.get("k", async () => 1);
    now = 999;
    expect((await cache.get("k", async () => 2)).value).toBe(1);

    now = 1000;
    const d = deferred<number>();
    const refresh = vi.fn(() => d.promise);
    const stale = await cache.get("k", refresh);
    expect(stale).toEqual({ value: 1, asOf: new Date(0) });
    await cache.get("k", refresh);
    expect(refresh).toHaveBeenCalledTimes(1);
    d.resolve(3);
    await d.promise;
    await Promise.resolve();
    expect(await cache.get("k", async () => 4)).toEqual({ value: 3, asOf: new Date(1000) });
  });

  it("keeps the old figures when a refresh fails, and tries again on the next read", async () => {
    let now = 0;
    const onError = vi.fn();
    const cache = createSwrCache({ ttlMs: 10, clock: () => now, onError });
    await cache.get("k", async () => "old");
    now = 20;
    expect((await cache.get("k", () => Promise.reject(new Error("db down")))).value).toBe("old");
    await new Promise((r) => setTimeout(r, 0));
    expect(onError).toHaveBeenCalledOnce();
    const again = vi.fn(async () => "new");
    expect((await cache.get("k", again)).value).toBe("old");
    expect(again).toHaveBeenCalledOnce();
  });

  it("passes a first computation's failure to its readers and caches nothing", async () => {
    const cache = createSwrCache({ ttlMs: 1000, clock: () => 0 });
    await expect(cache.get("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect((await cache.get("k", async () => 5)).value).toBe(5);
  });

  it("drops entries by prefix, so the next read computes afresh", async () => {
    const cache = createSwrCache({ ttlMs: 1000, clock: () => 0 });
    await cache.get("org:1:gym:2", async () => "a");
    await cache.get("org:12:gym:3", async () => "b");
    cache.invalidate("org:1:");
    expect((await cache.get("org:1:gym:2", async () => "a2")).value).toBe("a2");
    expect((await cache.get("org:12:gym:3", async () => "b2")).value).toBe("b");
  });

  it("does not store a computation that an invalidation overtook", async () => {
    const cache = createSwrCache({ ttlMs: 1000, clock: () => 0 });
    const d = deferred<string>();
    const first = cache.get("k", () => d.promise);
    cache.invalidate("k");
    d.resolve("before the write");
    expect((await first).value).toBe("before the write");
    expect((await cache.get("k", async () => "after the write")).value).toBe("after the write");
  });

  it("keeps at most maxEntries, dropping the least recently read", async () => {
    const cache = createSwrCache({ ttlMs: 1000, maxEntries: 2, clock: () => 0 });
    await cache.get("a", async () => 1);
    await cache.get("b", async () => 2);
    await cache.get("a", async () => 0);
    await cache.get("c", async () => 3);
    expect(cache.size).toBe(2);
    expect((await cache.get("a", async () => 9)).value).toBe(1);
    expect((await cache.get("b", async () => 9)).value).toBe(9);
  });

  it("computes every time with a ttl of 0", async () => {
    const cache = createSwrCache({ ttlMs: 0 });
    expect((await cache.get("k", async () => 1)).value).toBe(1);
    expect((await cache.get("k", async () => 2)).value).toBe(2);
    expect(cache.size).toBe(0);
  });
});
