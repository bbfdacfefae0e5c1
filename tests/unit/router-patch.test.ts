/**
 * The route-matching patches (decisions 0038 and 0054) are the code the server runs: Remix's server runtime `require`s
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
    expect(source).toContain("if (byPath.has(key)) return copyMatches(byPath.get(key));");
  });

  it("remembers a pathname's matches, and each caller gets its own copy", () => {
    const routes = [{ id: "root", path: "/", children: [{ id: "member", path: "members/:id" }] }];
    const first = router.matchRoutes(routes, "/members/42")!;
    (first[1].params as Record<string, string>).id = "changed by a caller";
    const again = router.matchRoutes(routes, "/members/42")!;
    expect(again[1].params.id).toBe("42");
    expect(again[1].route).toBe(first[1].route);
    expect(again).not.toBe(first);
    expect(router.matchRoutes(routes, "/nowhere")).toBeNull();
    expect(router.matchRoutes(routes, "/nowhere")).toBeNull();
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

describe("Remix's server render builds its routes once per build", () => {
  // Resolved the way @remix-run/react's server entry resolves them (its CommonJS build requires both).
  const remixReact = createRequire(require.resolve("@remix-run/react"));

  it("@remix-run/react's RemixServer keeps the server routes of a build's manifest", () => {
    const source = readFileSync(remixReact.resolve("./server.js"), "utf8");
    expect(source).toContain("let routes$1 = serverRoutesOf(manifest.routes, routeModules, context.future, context.isSpaMode);");
  });

  it("react-router-dom's createStaticRouter converts a routes array once", () => {
    const file = remixReact.resolve("react-router-dom/server");
    expect(file).toMatch(/react-router-dom\/server\.js$/);
    const { createStaticRouter } = remixReact(file) as typeof import("react-router-dom/server");
    const routes = [{ id: "root", path: "/", children: [{ id: "login", path: "login" }] }];
    const context = { basename: "/", location: { pathname: "/login" }, matches: [], loaderData: {}, actionData: null, errors: null } as never;
    const a = createStaticRouter(routes, context);
    const b = createStaticRouter(routes, context);
    expect(b.routes).toBe(a.routes);
    expect(createStaticRouter([...routes], context).routes).not.toBe(a.routes);
  });
});
