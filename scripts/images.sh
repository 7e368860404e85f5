#!/usr/bin/env bash
# Builds Keyhold's container images from the repository root:
#   keyhold-service (service/Dockerfile), keyhold-bff (bff/Dockerfile), keyhold-console (web/Dockerfile)
# with Docker when it is there, otherwise with podman (see container_tools in lib.sh).
# Usage: pnpm images [service] [bff] [console]      (default: all three; KEYHOLD_IMAGE_TAG, default latest)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

TAG=${KEYHOLD_IMAGE_TAG:-latest}
declare -A dockerfiles=([service]=service/Dockerfile [bff]=bff/Dockerfile [console]=web/Dockerfile)
container_tools

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(service bff console)
for name in "${names[@]}"; do
  file=${dockerfiles[$name]:-}
  [ -n "$file" ] || { echo "unknown image: $name (service, bff or console)" >&2; exit 1; }
  log "building keyhold-$name:$TAG from $file with $ENGINE"
  "${BUILD[@]}" -f "$file" -t "keyhold-$name:$TAG" .
done
