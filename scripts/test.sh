#!/usr/bin/env bash
# The whole test suite: typecheck, lint, vitest (units and the API on PGlite, and on PostgreSQL too when
# DATABASE_URL is set), then the end-to-end flows in Debian's Chromium with JavaScript on and off.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== typecheck"; npx tsc
echo "== lint"; npx eslint .
echo "== vitest (PGlite)"; env -u DATABASE_URL npx vitest run
if [ -n "${DATABASE_URL:-}" ]; then
  echo "== vitest API suite (PostgreSQL)"; npx vitest run tests/api
fi
echo "== build"; npx remix build
echo "== fuzz (a short run: npm run fuzz for the full one)"; FUZZ_REQUESTS=400 FUZZ_SECONDS=60 npx tsx scripts/fuzz.ts
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing Debian's chromium"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium) or CHROMIUM_PATH." >&2; exit 1
  fi
fi
echo "== e2e (Chromium, JavaScript on and off)"; npx playwright test
