#!/usr/bin/env bash
# The whole test suite: typecheck, lint, the dependency rules (decision 0049), vitest (units and the API on PGlite,
# and on PostgreSQL too when DATABASE_URL is set), the mutations (scripts/mutate.ts), then the end-to-end flows in
# Debian's Chromium with JavaScript on and off.
#
# It leaves the working tree as it found it: the end-to-end server's database (tmp/e2e-pglite) always goes, and
# Playwright's test-results/ (the failed tests' screenshots and error context) stays only when the end-to-end run
# failed. The end-to-end server takes a free port (playwright.config.ts; E2E_PORT chooses one), so two checkouts
# can run this at once.
set -euo pipefail
cd "$(dirname "$0")/.."

e2e_failed=0
cleanup() {
  rm -rf tmp/e2e-pglite
  rmdir tmp 2>/dev/null || true
  if [ "$e2e_failed" = 1 ]; then
    echo "test-results/ kept: screenshots and error context of the failed end-to-end tests." >&2
  else
    rm -rf test-results
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# @remix-run/dev's command line loads its Vite plugin, and so Vite's deprecated CommonJS entry, for every
# command, the classic compiler's build too, which never uses Vite (README, "Build warnings").
export VITE_CJS_IGNORE_WARNING=1

echo "== typecheck"; npx tsc
echo "== lint"; npx eslint .
echo "== dependency rules"; npx depcruise server app domain --config .dependency-cruiser.cjs
echo "== OpenAPI document: valid, and the committed document and client current (npm run openapi)"; npx tsx scripts/openapi.ts --check
echo "== vitest (PGlite)"; env -u DATABASE_URL npx vitest run
if [ -n "${DATABASE_URL:-}" ]; then
  echo "== vitest API suite (PostgreSQL)"; npx vitest run tests/api
fi
echo "== mutations (each safety proof must fail when its guard is broken; the race on PostgreSQL only)"; npx tsx scripts/mutate.ts
if [ -n "${DATABASE_URL:-}" ]; then
  echo "== crash trial (a short run: npm run crash-trial for the full one)"; CRASH_KILLS=15 CRASH_SUBSCRIPTIONS=400 CRASH_WEEKS=6 npx tsx scripts/crash-trial.ts
  echo "== webhook kill trial (a short run: npm run webhook-kill-trial for the full one)"; KILL_KILLS=5 KILL_EVENTS=300 npx tsx scripts/webhook-kill-trial.ts
fi
echo "== build"; npx remix build
if [ -n "${DATABASE_URL:-}" ]; then
  echo "== restart trial (two processes behind HAProxy, each restarted under load; npm run restart-trial)"; RESTART_USERS=4 RESTART_SECONDS=3 npx tsx scripts/restart-trial.ts
  echo "== backup and restore check (npm run backup -- --check)"
  backup_db="gym_backup_ci_$$"; backup_url="${DATABASE_URL%/*}/$backup_db"; backup_dir=$(mktemp -d)
  psql "$DATABASE_URL" -qc "create database $backup_db"
  DATABASE_URL="$backup_url" npx tsx scripts/seed.ts --members 200 >/dev/null
  DATABASE_URL="$backup_url" BACKUP_DIR="$backup_dir" npx tsx scripts/backup.ts --check || { psql "$DATABASE_URL" -qc "drop database $backup_db with (force)"; exit 1; }
  psql "$DATABASE_URL" -qc "drop database $backup_db with (force)"; rm -rf "$backup_dir"
fi
echo "== fuzz (a short run: npm run fuzz for the full one)"; FUZZ_REQUESTS=400 FUZZ_SECONDS=60 npx tsx scripts/fuzz.ts
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing Debian's chromium"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium) or CHROMIUM_PATH." >&2; exit 1
  fi
fi
echo "== e2e (Chromium, JavaScript on and off)"; npx playwright test || { e2e_failed=1; exit 1; }
