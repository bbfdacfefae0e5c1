import { createElement, useId } from "react";
import { describe, expect, it } from "vitest";
import { renderMemoized, renderMemoSize } from "../../app/lib/render-memo.server";

let renders = 0;
function Figures({ values }: { values: number[] }) {
  renders++;
  const id = useId();
  return createElement("ul", { "aria-labelledby": id }, ...values.map((v) => createElement("li", { key: v }, "n = ", v)));
}

describe("renderMemoized", () => {
  it("renders once per distinct input and gives the same markup as a plain render", () => {
    renders = 0;
    const a = renderMemoized("figures", [1, 2], createElement(Figures, { values: [1, 2] }));
    const again = renderMemoized("figures", [1, 2], createElement(Figures, { values: [1, 2] }));
    expect(renders).toBe(1);
    expect(again).toBe(a);
    // React's text separators are kept, so the browser hydrates the same nodes it would have rendered.
    expect(a).toContain("<li>n = <!-- -->1</li>");
    const other = renderMemoized("figures", [3], createElement(Figures, { values: [3] }));
    expect(renders).toBe(2);
    expect(other).toContain("n = <!-- -->3");
  });

  it("keeps pieces of different names apart, with ids of their own", () => {
    const a = renderMemoized("left", [7], createElement(Figures, { values: [7] }));
    const b = renderMemoized("right", [7], createElement(Figures, { values: [7] }));
    expect(a.match(/aria-labelledby="([^"]+)"/)![1]).toMatch(/^:left-/);
    expect(b.match(/aria-labelledby="([^"]+)"/)![1]).toMatch(/^:right-/);
  });

  it("keeps at most 500 entries, dropping the least recently used", () => {
    const first = renderMemoized("lru", -1, createElement(Figures, { values: [-1] }));
    for (let i = 0; i < 600; i++) {
      renderMemoized("lru", i, createElement(Figures, { values: [i] }));
      if (i % 100 === 0) renderMemoized("lru", -1, createElement(Figures, { values: [-1] })); // kept warm
    }
    expect(renderMemoSize()).toBe(500);
    renders = 0;
    expect(renderMemoized("lru", -1, createElement(Figures, { values: [-1] }))).toBe(first);
    renderMemoized("lru", 0, createElement(Figures, { values: [0] }));
    expect(renders).toBe(1); // -1 was still there; 0 had been dropped
  });
});
