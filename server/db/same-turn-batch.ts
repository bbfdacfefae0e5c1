/**
 * Reads asked for in the same turn of the event loop, under the same key, sent to the database as one.
 * A page's loaders call the API side by side, so the reads they share a shape of (the dashboard's stats and
 * its monthly breakdown both sum the rollups) meet here and cost one round trip instead of one each.
 * Nothing waits for a batch to fill: it goes out as soon as the turn's other work is done (setImmediate),
 * and only reads asked for before it goes out join it, so each answer is as fresh as a read of its own.
 * The price: every read waits that one turn, even alone, and a failed statement fails every read in it.
 */
export function sameTurnBatch<K, In, Out>(run: (key: K, inputs: In[]) => Promise<Out[]>) {
  type Waiter = { input: In; resolve: (out: Out) => void; reject: (err: unknown) => void };
  const pending = new Map<K, Waiter[]>();

  function flush(key: K) {
    const waiters = pending.get(key)!;
    pending.delete(key);
    // Whatever goes wrong (a throw before the first await included) reaches every waiter, never the process.
    Promise.resolve()
      .then(() => run(key, waiters.map((w) => w.input)))
      .then((outs) => {
        if (!Array.isArray(outs) || outs.length !== waiters.length) throw new Error(`A batched read answered ${Array.isArray(outs) ? outs.length : "no list"} for ${waiters.length} reads.`);
        waiters.forEach((w, i) => w.resolve(outs[i]));
      })
      .catch((err: unknown) => waiters.forEach((w) => w.reject(err)));
  }

  return (key: K, input: In) =>
    new Promise<Out>((resolve, reject) => {
      let waiters = pending.get(key);
      if (!waiters) {
        pending.set(key, (waiters = []));
        setImmediate(flush, key);
      }
      waiters.push({ input, resolve, reject });
    });
}
