#!/usr/bin/env bash
# The images check (not part of npm test): builds the three images (pnpm images), runs them together
# on a private container network (service ← BFF ← nginx with the console), and checks that each
# answers its health endpoint, that its HEALTHCHECK command passes (run from the image, in the
# container's network), that it runs as a user other than root; then prints each image's size and
# what it adds to node:20-bookworm-slim.
# Usage: bash scripts/images-check.sh [--no-build]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

[ "${1:-}" = "--no-build" ] || bash scripts/images.sh
container_tools
TAG=${KEYHOLD_IMAGE_TAG:-latest}
BASE=docker.io/library/node:20-bookworm-slim

run_id=keyhold-check-$$
work=$(mktemp -d)
cleanup() {
  for c in service bff console; do $ENGINE rm -f "$run_id-$c" >/dev/null 2>&1 || true; done
  $ENGINE network rm "$run_id" >/dev/null 2>&1 || true
  $ENGINE volume rm "$run_id-data" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
check() { # description, command...
  local what=$1; shift
  if "$@"; then printf '  ok    %s\n' "$what"; else printf '  FAIL  %s\n' "$what"; failures=$((failures + 1)); fi
}
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
status_of() { node -e 'fetch(process.argv[1],{headers:{"x-csrf":"1","accept-encoding":"br"}}).then(r=>console.log(r.status, r.headers.get("content-encoding")??"-"),()=>console.log("0 -"))' "$1"; }

# The root key reaches the service as a file, as a secret would: readable, never in the image.
openssl rand -base64 32 >"$work/root_key"
chmod 0444 "$work/root_key"
$ENGINE network create "$run_id" >/dev/null
$ENGINE volume create "$run_id-data" >/dev/null

start() { # name, alias, port inside, extra run arguments...
  local name=$1 alias=$2 inner=$3; shift 3
  local port; port=$(free_port)
  # The engine's own chatter (podman without systemd complains about health timers) is shown only
  # when the container does not start.
  "${RUN[@]}" -d --name "$run_id-$name" --network "$run_id" --network-alias "$alias" \
    -p "127.0.0.1:$port:$inner" "$@" >/dev/null 2>"$work/$name.err" || { cat "$work/$name.err" >&2; return 1; }
  echo "$port"
}

# Runs the image's own HEALTHCHECK command in a container of the same image sharing the running
# container's network, which is what the engine does inside it.
healthcheck_passes() { # container, image
  local -a probe
  mapfile -d '' -t probe < <($ENGINE image inspect -f '{{json .Config.Healthcheck.Test}}' "$2" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s);if(t[0]!=="CMD")process.exit(1);for(const a of t.slice(1))process.stdout.write(a+"\0")})')
  [ ${#probe[@]} -gt 0 ] && "${RUN[@]}" --rm --network "container:$1" "$2" "${probe[@]}" 2>"$work/probe.err" ||
    { cat "$work/probe.err" >&2; return 1; }
}

not_root() { # container
  local pid uid user
  pid=$($ENGINE inspect -f '{{.State.Pid}}' "$1")
  uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
  user=$($ENGINE inspect -f '{{.Config.User}}' "$1")
  echo "        user $user, process uid $uid"
  [ -n "$user" ] && [ "${user%%:*}" != 0 ] && [ "${user%%:*}" != root ] && [ "$uid" != 0 ]
}

answers() { # url, expected status [expected encoding]
  local got; got=$(status_of "$1")
  echo "        GET $1 → $got"
  [ "${got%% *}" = "$2" ] && { [ -z "${3:-}" ] || [ "${got#* }" = "$3" ]; }
}

log "service"
svc_port=$(start service service 8081 -v "$run_id-data:/data" \
  -v "$work/root_key:/run/secrets/root_key:ro" -e KEYHOLD_ROOT_KEY_FILE=/run/secrets/root_key "keyhold-service:$TAG")
wait_for_url "http://127.0.0.1:$svc_port/healthz" || $ENGINE logs "$run_id-service"
check "service /healthz answers" answers "http://127.0.0.1:$svc_port/healthz" 200
check "service /readyz answers (SQLite in the /data volume, migrations applied)" answers "http://127.0.0.1:$svc_port/readyz" 200
check "service HEALTHCHECK passes" healthcheck_passes "$run_id-service" "keyhold-service:$TAG"
check "service runs as a user other than root" not_root "$run_id-service"

log "BFF, in front of the service"
bff_port=$(start bff bff 8080 -e KEYHOLD_UPSTREAM_URL=http://service:8081 "keyhold-bff:$TAG")
wait_for_url "http://127.0.0.1:$bff_port/healthz" || $ENGINE logs "$run_id-bff"
check "BFF /healthz answers" answers "http://127.0.0.1:$bff_port/healthz" 200
check "BFF /readyz answers (the service is ready)" answers "http://127.0.0.1:$bff_port/readyz" 200
check "BFF serves the console itself, brotli" answers "http://127.0.0.1:$bff_port/" 200 br
check "BFF HEALTHCHECK passes" healthcheck_passes "$run_id-bff" "keyhold-bff:$TAG"
check "BFF runs as a user other than root" not_root "$run_id-bff"

log "console (nginx), in front of the BFF"
console_port=$(start console console 8080 "keyhold-console:$TAG")
wait_for_url "http://127.0.0.1:$console_port/" || $ENGINE logs "$run_id-console"
check "nginx serves the console, brotli" answers "http://127.0.0.1:$console_port/" 200 br
check "nginx passes /bff/ to the BFF (no session: 401)" answers "http://127.0.0.1:$console_port/bff/session" 401
check "nginx HEALTHCHECK passes" healthcheck_passes "$run_id-console" "keyhold-console:$TAG"
check "nginx runs as a user other than root" not_root "$run_id-console"

log "sizes"
base_size=$($ENGINE image inspect -f '{{.Size}}' "$BASE")
printf '  %-24s %10s %14s\n' image size "above the base"
for name in service bff console; do
  size=$($ENGINE image inspect -f '{{.Size}}' "keyhold-$name:$TAG")
  printf '  %-24s %7.1f MB %11.1f MB\n' "keyhold-$name:$TAG" "$(bc -l <<<"$size/1000000")" "$(bc -l <<<"($size-$base_size)/1000000")"
done
printf '  %-24s %7.1f MB\n' "${BASE#docker.io/library/}" "$(bc -l <<<"$base_size/1000000")"

echo
if [ "$failures" -gt 0 ]; then echo "images check: $failures failed"; exit 1; fi
echo "images check: all passed"
