#!/usr/bin/env bash
# The live suite: the console's flows in Chromium through a BFF in front of a real Infisical
# server, named by KEYHOLD_E2E_INFISICAL_URL and KEYHOLD_E2E_INFISICAL_TOKEN (an organisation-admin
# machine identity's access token). Outside `npm test`: it needs such a server.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ -z "${KEYHOLD_E2E_INFISICAL_URL:-}" ] || [ -z "${KEYHOLD_E2E_INFISICAL_TOKEN:-}" ]; then
  echo "Set KEYHOLD_E2E_INFISICAL_URL and KEYHOLD_E2E_INFISICAL_TOKEN to a running Infisical server (README: Infisical servers)." >&2
  exit 2
fi
install_deps
build_web
pnpm --filter @keyhold/contract build >/dev/null
cd e2e && exec pnpm exec playwright test -c playwright.infisical.config.ts "$@"
