import { expect, test } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { BACKOFFICE, jsEnabled, signIn } from "./helpers";

/**
 * Request bodies are limited while they stream in (server/http/body-limits.ts). The attack: a chunked body
 * of 150 MB, which has no Content-Length to refuse it by. Measured on a server of its own (its memory is
 * read from /proc), over plain HTTP: these tests run once, not per browser project.
 */
const MB = 1024 * 1024;
const ATTACK = 150 * MB;

let server: ChildProcess | undefined;
let base = "";
let dataDir = "";

const rssBytes = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server!.pid}/status`, "utf8"))![1]) * 1024;

async function freePort() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Sent {
  status: number;
  type: string;
  body: string;
  connection: string | undefined;
  /** Bytes the server made us produce: the generator is pulled only as the socket takes them. */
  pulled: number;
}

/**
 * POSTs up to `total` bytes, chunked, stopping once the answer comes. With a declared length it sends the
 * headers only and waits for the answer (as a client asking `Expect: 100-continue` would).
 */
function post(pathname: string, contentType: string, total: number, declaredLength?: number): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let pulled = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const body = Readable.from(
      (function* () {
        while (pulled < total && !answered) {
          pulled += chunk.length;
          yield chunk;
        }
      })(),
    );
    const req = http.request(`${base}${pathname}`, {
      method: "POST",
      headers: {
        "content-type": contentType,
        origin: base,
        "sec-fetch-site": "same-origin",
        ...(declaredLength ? { "content-length": String(declaredLength) } : {}),
      },
    });
    req.on("response", (res) => {
      answered = true;
      body.unpipe(req);
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"] ?? "", body: text, connection: res.headers.connection, pulled }));
    });
    // Writing after the server closed the connection fails on our side; the answer is what counts.
    req.on("error", (err) => (answered ? undefined : reject(err)));
    if (declaredLength) req.flushHeaders();
    else body.pipe(req);
  });
}

test.describe("a server of its own", () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from this pattern; none needed
  test.beforeAll(async ({}, info) => {
    test.skip(info.project.name !== "js", "plain HTTP, once");
    info.setTimeout(120_000);
    dataDir = await mkdtemp(path.join(tmpdir(), "body-limits-"));
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DEMO_MODE: "1",
        PORT: String(port),
        PGLITE_DIR: dataDir,
        DATABASE_URL: "",
        SESSION_SECRET: "body-limits-session-secret-0123456789",
        TOAST_SECRET: "body-limits-toast-secret-0123456789ab",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on("data", (d: Buffer) => d.toString().includes("Gym Membership on") && resolve());
      server!.once("exit", (code) => reject(new Error(`server exited (${code})`)));
    });
  });

  test.afterAll(async () => {
    // Wait for the server to finish closing its database before removing the directory under it:
    // removing it while PGlite still flushes raced (ENOTEMPTY).
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  test("a chunked 150 MB body to the API is cut off near 64 KB with a JSON 413", async () => {
    const before = rssBytes();
    const sent = await post("/api/login", "application/json", ATTACK);
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ error: "payload_too_large", message: expect.any(String) });
    // The server read 64 KB and stopped; what we pulled beyond that sits in the sockets' kernel buffers.
    expect(sent.pulled).toBeLessThan(16 * MB);
    expect(rssBytes() - before).toBeLessThan(40 * MB);
    expect(sent.connection).toBe("close");
    console.log(`API: pulled ${(sent.pulled / MB).toFixed(1)} MB of 150; server RSS +${((rssBytes() - before) / MB).toFixed(1)} MB`);
  });

  test("a chunked 150 MB body to a page action gets a short 413 page", async () => {
    const before = rssBytes();
    const sent = await post("/login", "application/x-www-form-urlencoded", ATTACK);
    expect(sent.status).toBe(413);
    expect(sent.type).toMatch(/text\/html/);
    expect(sent.body).toContain("Too large");
    expect(sent.pulled).toBeLessThan(16 * MB);
    expect(rssBytes() - before).toBeLessThan(40 * MB);
    console.log(`page: pulled ${(sent.pulled / MB).toFixed(1)} MB of 150; server RSS +${((rssBytes() - before) / MB).toFixed(1)} MB`);
  });

  test("a declared Content-Length over the limit is refused before a byte of the body is sent", async () => {
    for (const pathname of ["/login", "/api/login"]) {
      const sent = await post(pathname, "application/x-www-form-urlencoded", 8 * MB, 8 * MB);
      expect(sent.pulled).toBe(0);
      expect(sent.status).toBe(413);
      expect(sent.connection).toBe("close");
    }
  });

  test("a body under the limit is read as before", async () => {
    const sent = await post("/api/login", "application/json", 0);
    expect(sent.status).toBe(422); // no e-mail nor password: the API read the (empty) body and answered
  });
});

test("a normal sign-in and a 5 MB photo still go through; 11 MB does not", async ({ page }) => {
  const sharp = (await import("sharp")).default;
  // Noise barely compresses: about 5 MB as an uncompressed PNG.
  const png = await sharp({ create: { width: 1300, height: 1300, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(png.length).toBeGreaterThan(4.8 * MB);
  expect(png.length).toBeLessThan(10 * MB);
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members?status=active&gym=all&page=${jsEnabled(test.info()) ? 2 : 3}`);
  await page.getByRole("table").locator("tbody tr").first().getByRole("link").first().click();
  await page.getByLabel(/Add a photo|Change photo/).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: png });
  // With JavaScript choosing the file sends it; without, Upload does.
  if (!jsEnabled(test.info())) await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Photo updated")).toBeVisible();

  const tooBig = await page.request.post(`${page.url()}/photo`, {
    multipart: { file: { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(11 * MB) } },
    headers: { origin: BACKOFFICE, referer: page.url() },
  });
  expect(tooBig.status()).toBe(413);
  // Without JavaScript this is the page the person sees: the limit, and the way back to the member.
  const said = await tooBig.text();
  expect(said).toContain("This form accepts up to 10 MB");
  expect(said).toContain(`<a href="${new URL(page.url()).pathname}">Go back</a>`);
});
