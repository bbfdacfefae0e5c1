import { describe, expect, it } from "vitest";
import { apiPath, ApiRequestError } from "../../app/lib/api.server";
import { idParam, pageQuery } from "../../app/lib/params.server";

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof Response || err instanceof ApiRequestError ? err.status : "other";
  }
  return "none";
};

describe("idParam: a route's id, or the 404 page", () => {
  it("accepts positive integers within PostgreSQL's integer range", () => {
    expect(idParam({ id: "1" }, "id")).toBe(1);
    expect(idParam({ id: "42" }, "id")).toBe(42);
    expect(idParam({ id: "2147483647" }, "id")).toBe(2147483647);
  });

  it.each([undefined, "", "0", "-1", "01", "+1", "1.0", "1e3", "2147483648", "99999999999", "x", "../organisations/2/switch?", "1/../2", " 1", "١"])(
    "refuses %j with 404",
    (raw) => {
      expect(status(() => idParam(raw === undefined ? {} : { id: raw }, "id"))).toBe(404);
    },
  );
});

describe("apiPath: every param one encoded segment", () => {
  it("encodes values so they cannot leave their segment", () => {
    expect(apiPath("/members/:id/profile-picture", { id: 12 })).toBe("/members/12/profile-picture");
    expect(apiPath("/members/:id/profile-picture", { id: "../organisations/2/switch?" })).toBe("/members/..%2Forganisations%2F2%2Fswitch%3F/profile-picture");
    expect(apiPath("/search/:q", { q: "a#b c" })).toBe("/search/a%23b%20c");
    // The URL parser does not resolve an encoded slash: the path stays under /members.
    expect(new URL(`/api${apiPath("/members/:id/photo", { id: "../organisations/2/switch?" })}`, "http://x").pathname).toBe("/api/members/..%2Forganisations%2F2%2Fswitch%3F/photo");
  });

  it.each(["", ".", ".."])("refuses the segment %j", (value) => {
    expect(status(() => apiPath("/members/:id", { id: value }))).toBe(404);
  });

  it("refuses a pattern whose params were not all given", () => {
    expect(status(() => apiPath("/members/:id"))).toBe(404);
  });

  it.each(["/members/../organisations/2/switch", "/members/%2e%2E/x", "/members?x=1", "/members#x", "members", "//evil.example/x", "/a\\b"])("refuses the literal %j", (literal) => {
    expect(status(() => apiPath(literal))).toBe(404);
  });
});

describe("pageQuery: a page number from the page's own link", () => {
  const page = (q: string) => pageQuery(new URL(`http://localhost/members/1?${q}`), "payments_page");
  it("takes whole numbers from 1, the largest clamped to the API's last page", () => {
    expect(page("payments_page=3")).toBe(3);
    expect(page("payments_page=2147483648")).toBe(100_000);
  });
  it.each(["", "payments_page=", "payments_page=x", "payments_page=0", "payments_page=-1", "payments_page=1.5", "payments_page=%00", "payments_page=1e400"])("reads %j as the first page", (q) => {
    expect(page(q)).toBe(1);
  });
});
