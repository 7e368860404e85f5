#!/usr/bin/env bash
# Installs what is needed (pnpm, workspace dependencies, Debian's Chromium,
# PostgreSQL and Redis when missing) and runs every check and test suite: typecheck, lint,
# unit and integration tests (the service against SQLite and a throwaway
# PostgreSQL), the production build (checked by running its compiled output) and the
# Playwright suites in Chromium.
# Ends with one line: "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
t0=$SECONDS
out="$ROOT/.ci/out"
rm -rf "$out" && mkdir -p "$out"
failed_steps=()

step() { echo; log "$1 ($((SECONDS - t0))s)"; }
run_step() { # name, command...
  local name=$1; shift
  step "$name"
  if ! "$@"; then failed_steps+=("$name"); echo "step failed: $name"; fi
}

step "system packages"
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# The Playwright suites run in Chromium's headless shell (e2e/playwright.config.ts).
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql-15)
command -v redis-server >/dev/null || need+=(redis-server)
# nginx with the brotli module, for the console behind deploy/nginx.conf (e2e/tests/nginx.spec.ts).
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || need+=(libnginx-mod-http-brotli-static)
# Without the tools nothing can run: report the failure in the summary's form and stop.
give_up() { echo "$1"; node "$ROOT/.ci/summary.mjs" "$out" "$2"; exit 1; }
if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}" || give_up "could not install: ${need[*]}" "system packages"; fi

step "dependencies"
install_deps || give_up "dependency install failed" "dependencies"

# A throwaway PostgreSQL for the service suite and a Redis for the BFF's session
# store; both stopped on exit.
step "throwaway PostgreSQL and Redis"
source "$ROOT/scripts/postgres.sh"
source "$ROOT/scripts/redis.sh"
trap 'pg_stop; redis_stop' EXIT
if pg_start; then export KEYHOLD_TEST_DATABASE_URL=$PG_URL; else failed_steps+=("postgres"); fi
if redis_start; then export KEYHOLD_TEST_REDIS_URL=$REDIS_TEST_URL; else failed_steps+=("redis"); fi

run_step "typecheck" pnpm -r --if-present run typecheck
run_step "lint" bash -c 'pnpm exec eslint . --max-warnings=0 && pnpm exec biome ci .'

for pkg in contract service bff web bench; do
  run_step "tests: $pkg" pnpm --filter "@keyhold/$pkg" exec vitest run \
    --reporter=default --reporter=json --outputFile.json="$out/vitest-$pkg.json"
done

run_step "build" pnpm build
run_step "built output" node scripts/check-build.mjs
run_step "tests: e2e" env PLAYWRIGHT_JSON_OUTPUT_NAME="$out/e2e.json" \
  pnpm --filter @keyhold/e2e exec playwright test --reporter=list,json

step "summary"
node "$ROOT/.ci/summary.mjs" "$out" "${failed_steps[@]}"
