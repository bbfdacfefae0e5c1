import { describe, expect, it } from "vitest";
import { deferScripts } from "../../app/lib/defer-scripts.server";

describe("deferScripts (sign-up pages fetch their scripts after the first paint)", () => {
  const page =
    '<!DOCTYPE html><html><head><style nonce="n">b{}</style></head><body><main>Join</main><script nonce="n">restoreScroll()</script>' +
    '<link rel="modulepreload" href="/build/entry.client.js"/><script nonce="n">window.__remixContext={}</script>' +
    '<script nonce="n" type="module" async="">import("/build/entry.client.js");</script></body></html>' +
    '<script nonce="n">window.__remixContext.streamController.enqueue("x")</script>';

  it("keeps the content and the scroll script in place, and puts Remix's block (its data scripts after </body> too) in an inert template", () => {
    const out = deferScripts(page, "n");
    expect(out.startsWith('<!DOCTYPE html><html><head><style nonce="n">b{}</style></head><body><main>Join</main><script nonce="n">restoreScroll()</script><template>')).toBe(true);
    const template = out.slice(out.indexOf("<template>"), out.indexOf("</template>"));
    expect(template).toContain('<link rel="modulepreload" href="/build/entry.client.js"/>');
    expect(template).toContain("window.__remixContext={}");
    expect(template).toContain("streamController.enqueue");
    expect(template.indexOf("__remixContext={}")).toBeLessThan(template.indexOf("streamController"));
    // The loader that puts it back carries the nonce, and the document still ends properly.
    expect(out).toMatch(/<\/template><script nonce="n">\(\(\)=>\{.*requestAnimationFrame.*<\/script><\/body><\/html>$/);
    expect(out.match(/<\/body>/g)).toHaveLength(1);
  });

  it("leaves a page without Remix's scripts as it is", () => {
    const bare = "<html><body><p>Not found</p></body></html>";
    expect(deferScripts(bare, "n")).toBe(bare);
  });
});
