#!/usr/bin/env bash
# Touches per second and server CPU per touch, three ways, interleaved in each round on one fresh server:
#   single  POST /v1/timers/{id}/touch, wrk -c64 (touch.lua)
#   batch   POST /v1/timers/touch with 1,000 ids, wrk -c8 (touch-batch.lua)
#   ws      pipelined WebSocket touch commands, 8 sockets x 500 in flight (WsTouch.java)
# on KEYS pending timers k1..kKEYS (default 100,000: in-flight touches rarely meet on one id), created first, due in
# 1 h; every touch keeps them 1 h away. CPU per touch is the server's utime+stime (/proc) over the measured run
# divided by the touches answered.
#
# Usage: bench/wrk/touch.sh [--rounds 3] [--store rocksdb] [--keys 100000] [--port 18196] [--warmup 5] [--duration 10]
#        (run from the repository root after `mvn -q -DskipTests package`)
set -euo pipefail

ROUNDS=3 STORE=rocksdb KEYS=100000 PORT=18196 WARMUP=5 DURATION=10
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift 2 ;;
    --store) STORE=$2; shift 2 ;;
    --keys) KEYS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=server/target/tickwheel.jar
URL="http://127.0.0.1:$PORT"
WORK=$(mktemp -d /tmp/tickwheel-touch.XXXXXX)
PID=
trap '[[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
TCK=$(getconf CLK_TCK)
mkdir -p "$WORK/ws" && javac -d "$WORK/ws" -cp "$JAR" "$HERE/WsTouch.java"

cpu() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }

# run LOAD SECONDS: prints "touches/s touches"
run() {
  local load=$1 secs=$2 out
  case "$load" in
    single)
      out=$(wrk -t1 -c64 -d"${secs}s" -s "$HERE/touch.lua" "$URL" -- "$KEYS")
      awk '/Requests\/sec/ { r = $2 } / requests in / { n = $1 } END { print r, n }' <<<"$out" ;;
    batch)
      out=$(wrk -t1 -c8 -d"${secs}s" -s "$HERE/touch-batch.lua" "$URL" -- "$KEYS")
      awk '/Requests\/sec/ { r = $2 } / requests in / { n = $1 } END { print r * 1000, n * 1000 }' <<<"$out" ;;
    ws)
      out=$(java -cp "$JAR:$WORK/ws" WsTouch "$PORT" "$KEYS" "$secs" 8 500)
      awk -v s="$secs" '/touches/ { print $2, $2 * s; if ($4 != 0) print "ws errors: " $4 > "/dev/stderr" }' <<<"$out" ;;
  esac
}

echo "tickwheel touches: store=$STORE keys=$KEYS rounds=$ROUNDS, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-8s %12s %14s\n' round load touches/s cpu-us/touch
for r in $(seq 1 "$ROUNDS"); do
  rm -rf "$WORK/data"
  java -jar "$JAR" --store "$STORE" --data-dir "$WORK/data" --port "$PORT" >"$WORK/server.out" 2>&1 &
  PID=$!
  for _ in $(seq 1 300); do grep -q "tickwheel listening" "$WORK/server.out" && break; sleep 0.1; done
  for ((b = 0; b < KEYS; b += 1000)); do
    ids=$(seq $((b + 1)) $((b + 1000 < KEYS ? b + 1000 : KEYS)) | sed 's/.*/{"id":"k&","topic":"bench","delayMs":3600000,"payload":{"n":&}}/' | paste -sd,)
    curl -sf -o /dev/null -XPOST "$URL/v1/timers/batch" -H 'Content-Type: application/json' -d "{\"timers\":[$ids]}"
  done
  for load in single batch ws; do
    run "$load" "$WARMUP" >/dev/null
    c0=$(cpu)
    read -r rate n < <(run "$load" "$DURATION")
    c1=$(cpu)
    printf '%-6s %-8s %12.0f %14s\n' "$r" "$load" "$rate" \
      "$(awk -v t=$((c1 - c0)) -v n="$n" -v tck="$TCK" 'BEGIN { printf "%.2f", (n > 0 ? t * 1e6 / tck / n : 0) }')"
  done
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
done
