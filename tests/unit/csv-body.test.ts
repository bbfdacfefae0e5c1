import { describe, expect, it } from "vitest";
import { csvBody, CSV_HEADER } from "../../server/members/csv";
import type { MemberListRow } from "../../server/members/list";

const row = (id: number) =>
  ({ id, name: `member ${id}`, email: `m${id}@example.com`, mobile_number: null, gym: null, membership: null, status: null, tags: [], last_visit_at: null, visits_count: 0, joined_at: "2026-01-01" }) as unknown as MemberListRow;

async function* batches(failAt: number) {
  for (let i = 0; ; i++) {
    if (i === failAt) throw new Error("connection lost");
    if (i === 3) return;
    yield [row(i)];
  }
}

describe("csvBody: the export's stream", () => {
  it("streams the header and every batch, then ends", async () => {
    const text = await new Response(await csvBody(batches(-1))).text();
    expect(text.split("\n").filter(Boolean)).toHaveLength(4);
    expect(text.startsWith(CSV_HEADER.join(","))).toBe(true);
  });

  it("a failure in the first batch fails before anything is sent", async () => {
    await expect(csvBody(batches(0))).rejects.toThrow("connection lost");
  });

  it("a failure in a later batch errors the stream: the download cannot end as if complete", async () => {
    const silenced = console.error;
    console.error = () => {};
    try {
      const body = await csvBody(batches(2));
      await expect(new Response(body).text()).rejects.toThrow("connection lost");
    } finally {
      console.error = silenced;
    }
  });
});
