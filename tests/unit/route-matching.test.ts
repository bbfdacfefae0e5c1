import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The server loads @remix-run/router's CommonJS build, which patches/ changes to remember ranked branches and
// compiled paths (decision 0003). Matching must answer as before, for the same tree asked again and again.
const require = createRequire(import.meta.url);
const routerFile = require.resolve("@remix-run/router");
const { matchRoutes } = require("@remix-run/router") as typeof import("@remix-run/router");

const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "index", index: true },
      { id: "staff", children: [{ id: "dashboard", path: "dashboard" }, { id: "member", path: "members/:id" }, { id: "edit", path: "members/:id/edit" }] },
      { id: "optional", path: "reports/:year?" },
      { id: "splat", path: "*" },
    ],
  },
];
const ids = (path: string) => matchRoutes(routes, path)?.map((m) => m.route.id);

describe("route matching (patched @remix-run/router)", () => {
  it("is the patched build", () => expect(readFileSync(routerFile, "utf8")).toContain("gym-membership patch"));

  it("matches the same tree the same way every time", () => {
    for (let i = 0; i < 3; i++) {
      expect(ids("/")).toEqual(["root", "index"]);
      expect(ids("/dashboard")).toEqual(["root", "staff", "dashboard"]);
      expect(ids("/DASHBOARD/")).toEqual(["root", "staff", "dashboard"]);
      expect(matchRoutes(routes, "/members/42")?.at(-1)?.params).toEqual({ id: "42" });
      expect(ids("/members/42/edit")).toEqual(["root", "staff", "edit"]);
      expect(matchRoutes(routes, "/reports/2026")?.at(-1)?.params).toEqual({ year: "2026" });
      expect(ids("/reports")).toEqual(["root", "optional"]);
      expect(matchRoutes(routes, "/no/such/page")?.at(-1)?.params).toEqual({ "*": "no/such/page" });
    }
  });

  it("sees a new tree as new", () => {
    const other = [{ id: "only", path: "only" }];
    expect(matchRoutes(other, "/only")?.map((m) => m.route.id)).toEqual(["only"]);
    expect(matchRoutes(other, "/dashboard")).toBeNull();
  });
});
