/**
 * A value made the first time it is asked for, once. The live providers load their SDKs through it: the four SDKs
 * a server on the sandboxes never calls (GoCardless, Akahu, OneSignal, Kisi) come to some 70 MB of memory loaded.
 * A failed load is tried again next time.
 */
export function lazily<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    made ??= make().catch((err: unknown) => {
      made = null;
      throw err;
    });
    return made;
  };
}
