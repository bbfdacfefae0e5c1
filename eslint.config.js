import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "node_modules/**", "data/**", "test-results/**", "drizzle/**", "tmp/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Organisation data is reached through the request's Tenant (server/core/db/tenant.ts), never the raw handle.
    // Only the routes that work before there is an organisation (sign-in, sign-up, providers' webhooks, the sandbox
    // Branch's public short links, the sandbox providers' hosted pages, a trainer's calendar feed found by its token, an invitation answered by its link's token, a member's unsubscribe link found by its signed token) and the middleware that makes the Tenant may hold it.
    // Applies to every resource folder (routes, queries and commands) and the composition.
    files: ["server/**/*.ts"],
    ignores: [
      "server/session/**",
      "server/register/**",
      "server/webhooks/incoming.ts",
      "server/calendar/feed-routes.ts",
      "server/invitations/answer.ts",
      "server/member-mail/routes.ts",
      "server/deep-links/**",
      "server/signup/sandbox-pages.ts",
      "server/core/middleware.ts",
      "server/api/app.ts",
      "server/core/context.ts",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.property.name='deps'][property.name='db'], VariableDeclarator[init.property.name='deps'] > ObjectPattern > Property[key.name='db']",
          message: "Use the request's tenant (c.var.tenant.db): the raw database handle sees every organisation.",
        },
      ],
    },
  },
  {
    // Every CSV we write goes through server/core/csv.ts, which neutralises formula cells (decision 0046).
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: ["server/core/csv.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["csv-stringify", "csv-stringify/*"], message: "Write CSV through server/core/csv.ts (csvText / csvStream): it neutralises formula cells." }] }] },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  {
    files: ["server.js", "tests/e2e/**/*.mjs", "scripts/**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", Headers: "readonly", Request: "readonly", setTimeout: "readonly", fetch: "readonly" } },
  },
);
