import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";

/**
 * End-to-end flows in Debian's Chromium (no browser download here), each run twice: JavaScript on and off.
 * The server is the production build on a fresh embedded database with the demo seeded.
 */

/**
 * The end-to-end server's port: E2E_PORT when set, otherwise one free now, so two checkouts can test at once.
 * Every worker process reads this file again; the pick is kept in E2E_PORT, which they inherit, so the runner,
 * the server and the tests (tests/e2e/helpers.ts) all use the same port.
 */
function e2ePort(): number {
  if (!process.env.E2E_PORT) {
    const probe = "const s=require('node:net').createServer();s.listen(0,()=>{process.stdout.write(String(s.address().port));s.close()})";
    process.env.E2E_PORT = execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }).trim();
  }
  return Number(process.env.E2E_PORT);
}

export const PORT = e2ePort();

/**
 * The webhook secrets of this run's server, made at random once (and kept in the environment, which the workers
 * inherit, as E2E_PORT is): the server is given them as explicit secrets, and the tests sign with them (the server's
 * embedded database cannot be read from outside it). Never constants (issue 29 H3).
 */
function e2eSecret(name: string, make: () => string): string {
  process.env[name] ??= make();
  return process.env[name]!;
}
const E2E_SECRETS = {
  STRIPE_WEBHOOK_SECRET: e2eSecret("E2E_STRIPE_WEBHOOK_SECRET", () => `whsec_${randomBytes(24).toString("base64url")}`),
  GOCARDLESS_WEBHOOK_SECRET: e2eSecret("E2E_GOCARDLESS_WEBHOOK_SECRET", () => randomBytes(24).toString("hex")),
  KISI_WEBHOOK_SECRET: e2eSecret("E2E_KISI_WEBHOOK_SECRET", () => randomBytes(24).toString("hex")),
  AKAHU_SANDBOX_SIGNING_KEY: e2eSecret("E2E_AKAHU_SANDBOX_SIGNING_KEY", () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
};

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // A pretend camera (a moving test pattern), allowed without asking: the take-photo page's live view.
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: "rm -rf tmp/e2e-pglite && node server.js",
    url: `http://localhost:${PORT}/login`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      NODE_ENV: "production",
      DEMO_MODE: "1",
      SEED_DEMO: "1",
      PORT: String(PORT),
      PGLITE_DIR: "tmp/e2e-pglite",
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      TOAST_SECRET: "e2e-toast-secret-0123456789abcdefgh",
      DATABASE_URL: "",
      ...E2E_SECRETS,
      // Outgoing webhooks go to the tests' own receivers on 127.0.0.1 (tests/e2e/webhooks-out.spec.ts): a demo's switch.
      WEBHOOKS_ALLOW_LOOPBACK: "1",
      // Every test signs up from 127.0.0.1; the real limit is covered by the API suite.
      SIGNUP_LIMIT_PER_HOUR: "1000",
      // The request log would print a line per request into the test output: warnings and errors only.
      LOG_LEVEL: "warn",
    },
  },
});
