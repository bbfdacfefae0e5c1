import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
    env: { NODE_ENV: "test", TEST_SCRYPT_LOG2N: "12" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
});
