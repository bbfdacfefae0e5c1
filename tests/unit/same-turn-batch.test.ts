import { describe, expect, it } from "vitest";
import { sameTurnBatch } from "../../server/db/same-turn-batch";

describe("sameTurnBatch", () => {
  it("sends what is asked in one turn, per key, as one run, and answers each in order", async () => {
    const runs: [string, number[]][] = [];
    const read = sameTurnBatch<string, number, number>(async (key, inputs) => {
      runs.push([key, inputs]);
      return inputs.map((n) => n * 10);
    });
    const answers = await Promise.all([read("a", 1), read("b", 2), read("a", 3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(runs).toEqual([
      ["a", [1, 3]],
      ["b", [2]],
    ]);
    // Asked after the batch went out: a batch of its own, never an earlier answer.
    expect(await read("a", 4)).toBe(40);
    expect(runs).toHaveLength(3);
  });

  it("a failed run fails every read in it, and the next turn starts afresh", async () => {
    let fail = true;
    const read = sameTurnBatch<string, number, number>(async (_key, inputs) => {
      if (fail) throw new Error("database down");
      return inputs;
    });
    const results = await Promise.allSettled([read("k", 1), read("k", 2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await read("k", 5)).toBe(5);
  });

  it("a run that throws before answering, or answers the wrong number, fails its reads and nothing else", async () => {
    const throwsAtOnce = sameTurnBatch<string, number, number>(((_key: string, _inputs: number[]) => {
      throw new Error("bad statement");
    }) as unknown as (key: string, inputs: number[]) => Promise<number[]>);
    await expect(throwsAtOnce("k", 1)).rejects.toThrow("bad statement");
    const short = sameTurnBatch<string, number, number>(async () => [1]);
    const results = await Promise.allSettled([short("k", 1), short("k", 2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
