import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { PHOTO_BODY_LIMIT } from "../../server/members/photo";
import { BodyTooLarge, DEFAULT_BODY_LIMIT, bodyLimitFor, limitedBody } from "../../server/http/body-limits";

describe("bodyLimitFor", () => {
  it("allows a photo's size only on the photo uploads, page (with or without .data) and API", () => {
    expect(bodyLimitFor("/members/12/photo")).toBe(PHOTO_BODY_LIMIT);
    expect(bodyLimitFor("/members/12/photo.data")).toBe(PHOTO_BODY_LIMIT);
    expect(bodyLimitFor("/api/members/12/profile-picture")).toBe(PHOTO_BODY_LIMIT);
    for (const path of ["/login", "/api/login", "/members/12/edit", "/members/12/photo/x", "/x/members/12/photo", "/api/members/12/profile-picture.data"]) {
      expect(bodyLimitFor(path)).toBe(DEFAULT_BODY_LIMIT);
    }
  });
});

/** A request body of `total` bytes in 16 KB chunks, counting how many were produced. */
function fakeRequest(total: number) {
  const counter = { pulled: 0 };
  const chunk = Buffer.alloc(16 * 1024, "a");
  const req = Readable.from(
    (function* () {
      while (counter.pulled < total) {
        counter.pulled += chunk.length;
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
  return { req: req as unknown as IncomingMessage, counter };
}

describe("limitedBody", () => {
  it("passes a body under the limit through whole", async () => {
    const { req } = fakeRequest(48 * 1024);
    let refused = false;
    const text = await new Response(limitedBody(req, 64 * 1024, () => (refused = true))).text();
    expect(text.length).toBe(48 * 1024);
    expect(refused).toBe(false);
  });

  it("fails past the limit and stops pulling the source", async () => {
    const { req, counter } = fakeRequest(150 * 1024 * 1024);
    let refusedAt: number | undefined;
    const reading = new Response(limitedBody(req, 64 * 1024, (err) => (refusedAt = err.limit))).text();
    await expect(reading).rejects.toBeInstanceOf(BodyTooLarge);
    expect(refusedAt).toBe(64 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counter.pulled).toBeLessThan(256 * 1024);
  });
});
