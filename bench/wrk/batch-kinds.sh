#!/usr/bin/env bash
# Create throughput of cron timers against once timers through POST /v1/timers/batch (bench/wrk/batch.lua with its
# "once" and "cron" body generators): the issue's bar is that a cron timer costs at most 1.5x a once timer.
#
# Each round measures both kinds, each on a fresh server (fresh data directory, or an emptied private Redis) warmed
# up with batches of the same kind, and prints timers/s and the server's CPU time per timer. The summary prints the
# median of the rounds and the ratio once/cron of the medians (throughput) and cron/once (CPU per timer).
#
# Usage: bench/wrk/batch-kinds.sh [--store rocksdb|redis|memory] [--rounds 3] [--duration 10s] [--warmup 5s]
#                                 [--port 8089] [--connections 8] [--batch-size 1000] [--jar PATH]
# Needs: wrk, (redis-server for --store redis), and the jar: mvn -q -DskipTests package (at the repository root).
set -euo pipefail

STORE=rocksdb ROUNDS=3 DURATION=10s WARMUP=5s PORT=8089 CONNS=8 BSIZE=1000 JAR=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --store) STORE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --connections) CONNS=$2; shift 2 ;;
    --batch-size) BSIZE=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
WRK=${WRK:-wrk}
URL="http://127.0.0.1:$PORT"
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -q -DskipTests package' first" >&2; exit 2; }
command -v "$WRK" >/dev/null || { echo "wrk not found" >&2; exit 2; }

WORK=$(mktemp -d /tmp/tickwheel-kinds.XXXXXX)
SERVER_PID= REDIS_PID=
REDIS_PORT=$((PORT + 1000))
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}
cleanup() {
  stop_server
  if [[ -n "$REDIS_PID" ]]; then kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

STORE_ARGS=()
if [[ "$STORE" == redis ]]; then
  command -v redis-server >/dev/null || { echo "redis-server not found" >&2; exit 2; }
  mkdir -p "$WORK/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis" \
    >"$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  for _ in $(seq 1 100); do
    redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  STORE_ARGS=(--redis "redis://127.0.0.1:$REDIS_PORT")
fi

start_server() {
  rm -rf "$WORK/data" && mkdir -p "$WORK/data"
  rm -f "$WORK/server.out"      # else the wait below may see the previous server's listening line
  if [[ -n "$REDIS_PID" ]]; then redis-cli -p "$REDIS_PORT" flushall >/dev/null; fi
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -jar "$JAR" --store "$STORE" --port "$PORT" --data-dir "$WORK/data" \
    "${STORE_ARGS[@]}" --max-pending 100000000 >"$WORK/server.out" 2>"$WORK/server.err" &
  SERVER_PID=$!
  for _ in $(seq 1 300); do
    grep -q "tickwheel listening" "$WORK/server.out" 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; exit 1; }
    sleep 0.1
  done
  echo "server did not start within 30 s" >&2
  exit 1
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
TCK=$(getconf CLK_TCK)

# one load: prints "timers/s cpu-us-per-timer"
load() {
  local kind=$1
  "$WRK" -t1 -c"$CONNS" -d"$WARMUP" -s "$HERE/batch.lua" "$URL" -- "$BSIZE" "$kind" >/dev/null
  local c0 c1 out rps
  c0=$(cpu_ticks)
  out=$("$WRK" -t1 -c"$CONNS" -d"$DURATION" -s "$HERE/batch.lua" "$URL" -- "$BSIZE" "$kind")
  c1=$(cpu_ticks)
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
  local non2xx
  non2xx=$(awk '/Non-2xx/ { print $NF }' <<<"$out")
  [[ -z "$non2xx" ]] || { echo "non-2xx answers: $non2xx" >&2; exit 1; }
  awk -v r="$rps" -v b="$BSIZE" -v c=$((c1 - c0)) -v t="$TCK" -v d="${DURATION%s}" \
    'BEGIN { tps = r * b; printf "%.0f %.2f\n", tps, (tps > 0 ? c / t * 1e6 / (tps * d) : 0) }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

printf "store %s, batches of %s, %s per load, %s connections\n" "$STORE" "$BSIZE" "$DURATION" "$CONNS"
printf "%-6s %-5s %12s %12s\n" round kind timers/s cpu-us/tmr
for r in $(seq 1 "$ROUNDS"); do
  for kind in once cron; do
    start_server
    read -r tps cpu < <(load "$kind")
    stop_server
    printf "%-6s %-5s %12s %12s\n" "$r" "$kind" "$tps" "$cpu"
    echo "$tps" >>"$WORK/$kind.tps"
    echo "$cpu" >>"$WORK/$kind.cpu"
  done
done
ONCE=$(median <"$WORK/once.tps") CRON=$(median <"$WORK/cron.tps")
ONCE_CPU=$(median <"$WORK/once.cpu") CRON_CPU=$(median <"$WORK/cron.cpu")
printf "median once %s timers/s (%s cpu-us/tmr), cron %s timers/s (%s cpu-us/tmr)\n" "$ONCE" "$ONCE_CPU" "$CRON" "$CRON_CPU"
awk -v o="$ONCE" -v c="$CRON" -v oc="$ONCE_CPU" -v cc="$CRON_CPU" \
  'BEGIN { printf "cost of a cron timer / a once timer: %.2fx by throughput, %.2fx by server CPU\n", o / c, cc / oc }'
