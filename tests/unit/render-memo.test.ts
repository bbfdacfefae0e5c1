import { PassThrough } from "node:stream";
import { createElement, useId } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServerMemo } from "../../app/components/server-memo";
import { renderMemoized, renderMemoSize } from "../../app/lib/render-memo.server";

let renders = 0;
function Figures({ values }: { values: number[] }) {
  renders++;
  return createElement("ul", null, ...values.map((v) => createElement("li", { key: v }, "n = ", v)));
}
const figures = (values: number[]) => createElement(Figures, { values });

function WithUseId() {
  return createElement("p", { id: useId() }, "labelled");
}

/** A page rendered as entry.server renders one: streamed, whole. */
function streamed(element: React.ReactElement) {
  return new Promise<string>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        const body = new PassThrough();
        let html = "";
        body.on("data", (chunk: Buffer) => (html += chunk.toString()));
        body.on("end", () => resolve(html));
        pipe(body);
      },
      onShellError: reject,
    });
  });
}

describe("renderMemoized", () => {
  it("renders once per distinct input and gives the same markup as a plain render", () => {
    renders = 0;
    const a = renderMemoized("figures", [1, 2], figures);
    const again = renderMemoized("figures", [1, 2], figures);
    expect(renders).toBe(1);
    expect(again).toBe(a);
    // React's text separators are kept, so the browser hydrates the same nodes it would have rendered.
    expect(a).toBe(renderToString(figures([1, 2])));
    expect(a).toContain("<li>n = <!-- -->1</li>");
    const other = renderMemoized("figures", [3], figures);
    expect(renders).toBe(3);
    expect(other).toContain("n = <!-- -->3");
  });

  it("works inside the page's streaming render, which carries on as if nothing happened", async () => {
    const page = (memo: boolean) =>
      createElement(
        "main",
        null,
        createElement(WithUseId),
        memo ? createElement(ServerMemo<number[]>, { name: "inside", input: [4, 5], render: figures }) : createElement("div", null, figures([4, 5])),
        createElement(WithUseId),
      );
    // The same document as rendering the piece in place, ids of the page's own useId included.
    expect(await streamed(page(true))).toBe(await streamed(page(false)));
  });

  it("refuses a piece that uses useId (its ids would not be the browser's)", () => {
    expect(() => renderMemoized("ids", 1, () => createElement(WithUseId))).toThrow(/useId/);
  });

  it("keeps at most 500 entries, dropping the least recently used", () => {
    const first = renderMemoized("lru", [-1], figures);
    for (let i = 0; i < 600; i++) {
      renderMemoized("lru", [i], figures);
      if (i % 100 === 0) renderMemoized("lru", [-1], figures); // kept warm
    }
    expect(renderMemoSize()).toBe(500);
    renders = 0;
    expect(renderMemoized("lru", [-1], figures)).toBe(first);
    renderMemoized("lru", [0], figures);
    expect(renders).toBe(1); // [-1] was still there; [0] had been dropped
  });
});
