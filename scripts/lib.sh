# Shared helpers for the start and test scripts. Sourced, not run.
PNPM_VERSION=12.21.0
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi
}

# pnpm, at the version the lockfile was written with; installed through npm when missing.
ensure_pnpm() {
  if [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_VERSION" ]; then return; fi
  log "installing pnpm $PNPM_VERSION"
  if ! npm install -g "pnpm@$PNPM_VERSION" --no-fund --no-audit --loglevel=error 2>/dev/null; then
    npm install --prefix "$HOME/.local" -g "pnpm@$PNPM_VERSION" --no-fund --no-audit --loglevel=error
    export PATH="$HOME/.local/bin:$PATH"
  fi
}

# Workspace dependencies. better-sqlite3 compiles against Node's own headers when the
# machine has them, instead of downloading headers from nodejs.org.
install_deps() {
  ensure_pnpm
  if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
  log "installing workspace dependencies"
  (cd "$ROOT" && pnpm install --frozen-lockfile --reporter=silent)
}

apt_install() {
  log "installing Debian packages: $*"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq && as_root apt-get install -y -qq "$@" >/dev/null
}

build_web() {
  log "building the console"
  (cd "$ROOT" && pnpm --filter @keyhold/web build >/dev/null)
}

# Waits until a URL answers 2xx, or fails after about 30 seconds.
wait_for_url() {
  node -e '
    const url = process.argv[1];
    const deadline = Date.now() + 30_000;
    (async () => {
      while (Date.now() < deadline) {
        try { if ((await fetch(url)).ok) return; } catch {}
        await new Promise((r) => setTimeout(r, 200));
      }
      console.error(`no answer from ${url}`);
      process.exit(1);
    })();
  ' "$1"
}

# The container engine for Keyhold's images: Docker when an engine answers; otherwise podman through
# the container tools named by KEYHOLD_CONTAINER_TOOLS (a folder with make-node-base.sh, podman-build and
# podman-run: a locally made node:20-bookworm-slim base, builds and runs where there is no registry), or
# plain podman.
# Sets ENGINE (docker|podman), BUILD and RUN (arrays: the build and run commands).
container_tools() {
  local tools=${KEYHOLD_CONTAINER_TOOLS:-}
  local base=docker.io/library/node:20-bookworm-slim
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    ENGINE=docker; BUILD=(docker build); RUN=(docker run)
  elif [ -n "$tools" ] && [ -x "$tools/podman-build" ]; then
    if ! command -v podman >/dev/null || ! podman image exists "$base"; then
      log "making $base locally ($tools/make-node-base.sh)"
      as_root "$tools/make-node-base.sh"
    fi
    # Docker's image format keeps HEALTHCHECK (OCI's has no place for it).
    ENGINE=podman; BUILD=("$tools/podman-build" --format docker); RUN=("$tools/podman-run")
  elif command -v podman >/dev/null; then
    ENGINE=podman; BUILD=(podman build --format docker); RUN=(podman run)
  else
    echo "no Docker engine and no podman: install one of them" >&2
    return 1
  fi
}
