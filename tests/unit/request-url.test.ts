import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { requestUrl } from "../../server/http/remix-handler";

/** Issue 29 L7: the URL our pages and API see (and mail links from) takes nothing from X-Forwarded-Host unless the proxy is trusted. */
async function urlSeen(trustProxy: boolean, headers: Record<string, string>) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.get("*", (req, res) => {
    res.send(requestUrl(req));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  try {
    const { port } = server.address() as AddressInfo;
    // node:http, not fetch: fetch sets the Host header itself.
    return await new Promise<string>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/reset?x=1", headers }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
    });
  } finally {
    server.close();
  }
}

describe("the request's URL", () => {
  it("ignores X-Forwarded-Host, port included, with the proxy setting off", async () => {
    expect(await urlSeen(false, { host: "localhost:3000", "x-forwarded-host": "evil.example:6666" })).toBe("http://localhost:3000/reset?x=1");
    expect(await urlSeen(false, { host: "localhost", "x-forwarded-host": "localhost:6666" })).toBe("http://localhost/reset?x=1");
  });

  it("follows it behind a trusted proxy", async () => {
    expect(await urlSeen(true, { host: "127.0.0.1:3000", "x-forwarded-host": "gym.example:8443" })).toBe("http://gym.example:8443/reset?x=1");
    expect(await urlSeen(true, { host: "127.0.0.1:3000", "x-forwarded-host": "gym.example" })).toBe("http://gym.example:3000/reset?x=1");
  });
});
