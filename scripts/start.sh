#!/usr/bin/env bash
# Installs what is needed and runs the whole console on the embedded database:
# the service on 127.0.0.1:8081 (SQLite in .keyhold/) and the BFF with the built
# console on http://127.0.0.1:8080.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

install_deps
build_web

export KEYHOLD_DATA_DIR="${KEYHOLD_DATA_DIR:-$ROOT/.keyhold}"
SERVICE_PORT="${SERVICE_PORT:-8081}"
BFF_PORT="${BFF_PORT:-8080}"

log "starting the service on 127.0.0.1:$SERVICE_PORT (data in $KEYHOLD_DATA_DIR)"
# Each part runs through node directly, not a pnpm script, so that stopping this script stops both.
# The BFF reaches the service over loopback and passes the browser's address on: believe it there.
(cd service && PORT=$SERVICE_PORT KEYHOLD_TRUSTED_PROXIES="${KEYHOLD_TRUSTED_PROXIES:-127.0.0.1}" exec node --conditions=@keyhold/source --import tsx src/server.ts) &
service_pid=$!
trap 'kill $service_pid ${bff_pid:-} 2>/dev/null || true' EXIT INT TERM
wait_for_url "http://127.0.0.1:$SERVICE_PORT/api/status"

log "starting the console on 127.0.0.1:$BFF_PORT"
(cd bff && PORT=$BFF_PORT KEYHOLD_UPSTREAM_URL="http://127.0.0.1:$SERVICE_PORT" exec node --conditions=@keyhold/source --import tsx src/server.ts) &
bff_pid=$!
wait_for_url "http://127.0.0.1:$BFF_PORT/healthz"

cat <<MSG

  Keyhold is running: http://127.0.0.1:$BFF_PORT
  Sign in with the admin access token in: $KEYHOLD_DATA_DIR/admin-token
  (for example: cat "$KEYHOLD_DATA_DIR/admin-token")
  Stop with Ctrl+C.

MSG

# Stop when either part stops.
wait -n $service_pid $bff_pid
