#!/usr/bin/env bash
# Cancels of timers that are only on disk: fills a fresh server with 1,000,000 timers (ids k1..k1000000, due in
# 2 h), restarts it (so nothing is left in RocksDB's memtables or block cache), then runs DELETE of random ids with
# wrk for --rounds x 8 s, printing req/s and the server's CPU time. Every DELETE of a pending id makes the store
# read the timer by id (to drop its due-index entry): this measures cold point reads through the whole server.
#
# Usage: bench/wrk/cold-delete.sh [--jar server/target/tickwheel.jar] [--store rocksdb] [--port 18403] [--rounds 2]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
JAR="$HERE/../../server/target/tickwheel.jar" STORE=rocksdb PORT=18403 ROUNDS=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jar) JAR=$2; shift 2 ;;
    --store) STORE=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
URL="http://127.0.0.1:$PORT"
WORK=$(mktemp -d /tmp/tickwheel-cold.XXXXXX)
PID=
trap '[[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
start() {
  java ${JAVA_OPTS:-} -jar "$JAR" --store "$STORE" --data-dir "$WORK/data" --port "$PORT" --max-pending 100000000 \
    >"$WORK/server.out" 2>&1 &
  PID=$!
  until curl -sf "$URL/health" >/dev/null; do
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/server.out" >&2; exit 1; }
    sleep 0.1
  done
}
pending() { curl -s "$URL/v1/wheel" | sed -E 's/.*"pending":([0-9]+).*/\1/'; }
start
wrk -t1 -c1 -d600s -s "$HERE/fill-ids.lua" "$URL" >/dev/null 2>&1 &
FILL=$!
until [[ "$(pending)" -ge 1000000 ]]; do sleep 0.5; done
kill "$FILL"; wait "$FILL" 2>/dev/null || true
kill "$PID"; wait "$PID" 2>/dev/null || true
start
echo "store=$STORE pending after restart: $(pending), load average $(cut -d' ' -f1-3 /proc/loadavg)"
TCK=$(getconf CLK_TCK)
for r in $(seq 1 "$ROUNDS"); do
  c0=$(awk '{ print $14 + $15 }' "/proc/$PID/stat")
  out=$(wrk -t1 -c32 -d8s -s "$HERE/delete.lua" "$URL")
  c1=$(awk '{ print $14 + $15 }' "/proc/$PID/stat")
  echo "round $r: $(awk '/Requests\/sec/ { print $2 }' <<<"$out") DELETE/s, statuses $(grep -E '^(204|404|oth): ' <<<"$out" | tr '\n' ' ')," \
    "server CPU $(awk -v t=$((c1 - c0)) -v tck="$TCK" 'BEGIN { printf "%.1f", t / tck }') s"
done
