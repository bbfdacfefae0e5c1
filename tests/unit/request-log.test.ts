import { describe, expect, it } from "vitest";
import { requestIdFrom } from "../../server/core/observability/context";
import { pagePatterns } from "../../server/core/observability/http";

/** The request log's route patterns and ids (issue 19): patterns, never paths; a proxy's id kept when sane. */
describe("request logging", () => {
  const routes = {
    root: { id: "root" },
    "routes/_staff": { id: "routes/_staff", parentId: "root" },
    "routes/_staff.members.$id": { id: "routes/_staff.members.$id", parentId: "routes/_staff", path: "members/:id" },
    "routes/_staff.members.$id._index": { id: "routes/_staff.members.$id._index", parentId: "routes/_staff.members.$id", index: true },
    "routes/_staff.members.$id.edit": { id: "routes/_staff.members.$id.edit", parentId: "routes/_staff.members.$id", path: "edit" },
    "routes/reset-password.$token": { id: "routes/reset-password.$token", parentId: "root", path: "reset-password/:token" },
    "routes/api.$": { id: "routes/api.$", parentId: "root", path: "api/*" },
  };
  const patternOf = pagePatterns(routes);

  it("names a page by its route pattern, so ids and tokens in the path never reach the log", () => {
    expect(patternOf("/members/123")).toBe("/members/:id");
    expect(patternOf("/members/123/edit")).toBe("/members/:id/edit");
    expect(patternOf("/reset-password/s3cr3t-t0ken")).toBe("/reset-password/:token");
    expect(patternOf("/nowhere/at/all")).toBeUndefined();
    // Remembered by the path's shape: another id, a uuid, the same pattern; and a miss stays a miss.
    expect(patternOf("/members/9/edit")).toBe("/members/:id/edit");
    expect(patternOf("/members/0b6f2c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f")).toBe("/members/:id");
    expect(patternOf("/nowhere/at/all")).toBeUndefined();
  });

  it("keeps a proxy's request id when it looks like one, and makes one otherwise", () => {
    expect(requestIdFrom("lb-7f3a9c21")).toBe("lb-7f3a9c21");
    expect(requestIdFrom("bad id with spaces")).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom("x".repeat(200))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
