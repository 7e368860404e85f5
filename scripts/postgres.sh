# Starts a throwaway PostgreSQL 15 cluster on a free loopback port (sourced).
# Sets PG_URL to its admin database and defines pg_stop.
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

pg_start() {
  PGDATA_DIR=$(mktemp -d /tmp/keyhold-pg.XXXXXX)
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  local run=()
  if [ "$(id -u)" = 0 ]; then chown postgres: "$PGDATA_DIR"; run=(runuser -u postgres --); fi
  "${run[@]}" "$PGBIN/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null || return 1
  "${run[@]}" "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -l "$PGDATA_DIR/log" -o "-h 127.0.0.1 -p $port -k $PGDATA_DIR -c fsync=off" -w start >/dev/null || return 1
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  PG_RUN=("${run[@]}")
  echo "PostgreSQL on 127.0.0.1:$port"
}

pg_stop() {
  [ -n "${PGDATA_DIR:-}" ] || return 0
  "${PG_RUN[@]}" "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PGDATA_DIR"
}
