#!/usr/bin/env bash
# Development from sources: the service on 127.0.0.1:8081 and the BFF on 127.0.0.1:8080, each
# restarted when a file it imports changes (node --watch with tsx), and Vite's dev server with hot
# reload on http://127.0.0.1:5173, which proxies /api and /bff to the BFF. Data in .keyhold/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

install_deps

export KEYHOLD_DATA_DIR="${KEYHOLD_DATA_DIR:-$ROOT/.keyhold}"
# Workspace packages from their TypeScript sources (see "Production build" in the README).
run_ts=(node --watch --conditions=@keyhold/source --import tsx)

log "starting the service on 127.0.0.1:8081 (data in $KEYHOLD_DATA_DIR)"
(cd service && PORT=8081 KEYHOLD_TRUSTED_PROXIES="${KEYHOLD_TRUSTED_PROXIES:-127.0.0.1}" exec "${run_ts[@]}" src/server.ts) &
service_pid=$!
trap 'kill $service_pid ${bff_pid:-} ${web_pid:-} 2>/dev/null || true' EXIT INT TERM
wait_for_url "http://127.0.0.1:8081/healthz"

log "starting the BFF on 127.0.0.1:8080"
(cd bff && PORT=8080 KEYHOLD_UPSTREAM_URL="http://127.0.0.1:8081" exec "${run_ts[@]}" src/server.ts) &
bff_pid=$!
wait_for_url "http://127.0.0.1:8080/healthz"

log "starting Vite on http://127.0.0.1:5173"
(cd web && exec node_modules/.bin/vite) &
web_pid=$!

cat <<MSG

  Keyhold (development): http://127.0.0.1:5173
  Sign in with the admin access token in: $KEYHOLD_DATA_DIR/admin-token
  Stop with Ctrl+C.

MSG

wait -n $service_pid $bff_pid $web_pid
