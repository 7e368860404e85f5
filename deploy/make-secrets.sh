#!/usr/bin/env sh
# Writes the secrets deploy/compose.yaml reads, once, into deploy/secrets/ (kept out of git and of
# every image): the service's root key, PostgreSQL's and Redis's passwords, and the two URLs that
# carry them. The folder is 0700; the files are world-readable inside it because the containers
# read them as their own unprivileged users. Existing files are kept: back them up (see README).
set -eu
cd "$(dirname "$0")"
mkdir -p secrets && chmod 0700 secrets
cd secrets
write() { # name, content
  if [ -e "$1" ]; then echo "kept    deploy/secrets/$1"; return; fi
  printf '%s\n' "$2" >"$1" && chmod 0444 "$1" && echo "written deploy/secrets/$1"
}
write root_key "$(openssl rand -base64 32)"
write postgres_password "$(openssl rand -hex 24)"
write redis_password "$(openssl rand -hex 24)"
write database_url "postgres://keyhold:$(cat postgres_password)@postgres:5432/keyhold"
write redis_url "redis://:$(cat redis_password)@redis:6379"
write redis.conf "requirepass $(cat redis_password)"
