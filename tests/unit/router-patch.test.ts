/**
 * The router patch (decision 0038) is the code the server runs: Remix's server runtime `require`s
 * `@remix-run/router`, so this loads it the same way (its CommonJS build, the file the patch changes) and checks
 * both the patched source and what it does. `postinstall` fails the install if the patch does not apply exactly.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const file = require.resolve("@remix-run/router");
const router = require(file) as typeof import("@remix-run/router");

describe("the @remix-run/router patch", () => {
  it("is in the file the server loads", () => {
    expect(file).toMatch(/router\.cjs\.js$/);
    const source = readFileSync(file, "utf8");
    expect(source).toContain("let branches = rankedBranches.get(routes);");
    expect(source).toContain("function compilePathUncached(path, caseSensitive, end)");
  });

  it("remembers a routes array's ranked branches", () => {
    const routes = [{ id: "a", path: "/a" }];
    expect(router.matchRoutes(routes, "/a")?.[0].route.id).toBe("a");
    // The server never changes a routes array; unpatched, a route added afterwards would match.
    routes.push({ id: "b", path: "/b" });
    expect(router.matchRoutes(routes, "/b")).toBeNull();
    expect(router.matchRoutes([...routes], "/b")?.[0].route.id).toBe("b");
  });

  it("still matches what the unpatched router matches", () => {
    const routes = [
      {
        id: "root",
        path: "/",
        children: [
          { id: "member", path: "members/:id" },
          { id: "members", path: "members" },
        ],
      },
    ];
    expect(router.matchRoutes(routes, "/members/42")?.map((m) => [m.route.id, m.params.id])).toEqual([
      ["root", "42"],
      ["member", "42"],
    ]);
    expect(router.matchPath("/members/:id", "/members/7")?.params).toEqual({ id: "7" });
    expect(router.matchPath("/members/:id", "/members/7")?.params).toEqual({ id: "7" });
  });
});
