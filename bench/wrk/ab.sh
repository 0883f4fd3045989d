#!/usr/bin/env bash
# Interleaved A/B of server jars under one wrk load: for each round, each jar in turn gets a fresh server, a warm-up
# of the same load, then the measured load; prints req/s and the server's CPU time per request (from /proc), which
# is steadier than req/s on a shared machine. Compare medians of the same minutes, never runs from different times.
#
# Usage: bench/wrk/ab.sh [--load post|batch] [--rounds 3] [--store memory] [--port 18195] [--warmup 8s]
#                        [--duration 10s] JAR...
# e.g.   bench/wrk/ab.sh --load post --rounds 3 /tmp/before.jar server/target/tickwheel.jar
# Env:   JAVA_OPTS (extra JVM flags for the servers), WRK (default: wrk)
set -euo pipefail

LOAD=post ROUNDS=3 STORE=memory PORT=18195 WARMUP=8s DURATION=10s
while [[ $# -gt 0 ]]; do
  case "$1" in
    --load) LOAD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --store) STORE=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --*) echo "unknown option: $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -ge 1 ]] || { echo "usage: $0 [options] JAR..." >&2; exit 2; }
[[ "$STORE" != redis ]] || { echo "--store redis is not supported here (use run.sh)" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
WRK=${WRK:-wrk}
URL="http://127.0.0.1:$PORT"
case "$LOAD" in
  post) ARGS=(-c64 -s "$HERE/post.lua" "$URL") ;;
  batch) ARGS=(-c8 -s "$HERE/batch.lua" "$URL" -- 1000) ;;
  *) echo "--load must be post or batch" >&2; exit 2 ;;
esac
WORK=$(mktemp -d /tmp/tickwheel-ab.XXXXXX)
PID=
trap '[[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
TCK=$(getconf CLK_TCK)

echo "tickwheel A/B: load=$LOAD store=$STORE rounds=$ROUNDS, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-40s %12s %14s\n' round jar req/s cpu-us/req
for r in $(seq 1 "$ROUNDS"); do
  for jar in "$@"; do
    rm -rf "$WORK/data"
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:-} -jar "$jar" --store "$STORE" --data-dir "$WORK/data" --port "$PORT" \
      --max-pending 100000000 >"$WORK/server.out" 2>&1 &
    PID=$!
    for _ in $(seq 1 300); do grep -q "tickwheel listening" "$WORK/server.out" && break; sleep 0.1; done
    "$WRK" -t1 -d"$WARMUP" "${ARGS[@]}" >/dev/null
    c0=$(awk '{ print $14 + $15 }' "/proc/$PID/stat")
    out=$("$WRK" -t1 -d"$DURATION" "${ARGS[@]}")
    c1=$(awk '{ print $14 + $15 }' "/proc/$PID/stat")
    kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
    rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
    n=$(awk '/ requests in / { print $1 }' <<<"$out")
    printf '%-6s %-40s %12s %14s\n' "$r" "$jar" "$rps" \
      "$(awk -v t=$((c1 - c0)) -v n="$n" -v tck="$TCK" 'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / tck / n : 0) }')"
  done
done
