# Starts a throwaway Redis on a free loopback port (sourced).
# Sets REDIS_TEST_URL and defines redis_stop.

redis_start() {
  REDIS_DIR=$(mktemp -d /tmp/keyhold-redis.XXXXXX)
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no --dir "$REDIS_DIR" \
    --daemonize yes --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" || return 1
  REDIS_TEST_URL="redis://127.0.0.1:$port"
  echo "Redis on 127.0.0.1:$port"
}

redis_stop() {
  [ -n "${REDIS_DIR:-}" ] || return 0
  if [ -f "$REDIS_DIR/redis.pid" ]; then
    local pid
    pid=$(cat "$REDIS_DIR/redis.pid")
    kill "$pid" 2>/dev/null
    # Redis removes its pid file on the way out; wait for that before removing the folder.
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$REDIS_DIR"
}
