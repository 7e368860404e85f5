#!/usr/bin/env bash
# Installs what is needed and runs the benchmarks: each hot path against its floor, with a
# throwaway PostgreSQL and Redis for the cases that use them. `pnpm bench [case…]`.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
install_deps || exit 1
source "$ROOT/scripts/postgres.sh"
source "$ROOT/scripts/redis.sh"
need=()
[ -x "$PGBIN/postgres" ] || need+=(postgresql-15)
command -v redis-server >/dev/null || need+=(redis-server)
if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}" || exit 1; fi
trap 'pg_stop; redis_stop' EXIT
pg_start >/dev/null && export KEYHOLD_BENCH_DATABASE_URL=$PG_URL
redis_start >/dev/null && export KEYHOLD_BENCH_REDIS_URL=$REDIS_TEST_URL
pnpm --filter @keyhold/bench run bench "$@"
