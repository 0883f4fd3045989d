#!/usr/bin/env bash
# Load test of the server's write path with wrk: GET /health (the HTTP stack's ceiling on this machine),
# POST /v1/timers (one timer per request) and POST /v1/timers/batch (1,000 timers per request).
#
# Each round starts a fresh server from server/target/tickwheel.jar, warms it up, then runs the three loads back to
# back (so they share the machine's conditions of that half-minute), then stops the server. Nothing is deleted in
# between, so each load runs on top of the timers created before it: column pending@0 shows how many (after the
# warm-up, typically 3-4 million for the POST load). The summary prints
# every round and the median of the rounds. Timers are due in 1 h: nothing fires during a run.
#
# Usage: bench/wrk/run.sh [--store memory|rocksdb|redis] [--rounds 3] [--duration 10s] [--warmup 10s] [--port 8089]
#                         [--connections 64] [--batch-connections 8] [--batch-size 1000] [--jar PATH] [--split]
# --split measures the batch load on a second fresh server warmed with batches only, so the POST load runs on top of
# its own warm-up's timers (about half a million) rather than also the batch warm-up's millions.
# --store redis starts a private redis-server (no persistence, port = --port + 1000, its files in the temporary
# directory) and empties it before every round; the machine's shared Redis is never touched. Its CPU time per
# request (per timer for the batch) is printed too (column redis-us/tmr; 0 for the other stores).
# Env:   JAVA_OPTS (extra JVM flags for the server), WRK (default: wrk)
# Needs: wrk on the PATH, and the jar: mvn -q -DskipTests package (at the repository root).
set -euo pipefail

SPLIT=0 JAR= STORE=memory ROUNDS=3 DURATION=10s WARMUP=10s PORT=8089 CONNS=64 BCONNS=8 BSIZE=1000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --store) STORE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --connections) CONNS=$2; shift 2 ;;
    --batch-connections) BCONNS=$2; shift 2 ;;
    --batch-size) BSIZE=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --split) SPLIT=1; shift ;;
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

WORK=$(mktemp -d /tmp/tickwheel-wrk.XXXXXX)
SERVER_PID=
REDIS_PID=
REDIS_PORT=$((PORT + 1000))
stop_redis() {
  if [[ -n "$REDIS_PID" ]]; then
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
    REDIS_PID=
  fi
}
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}
trap 'stop_server; stop_redis; rm -rf "$WORK"' EXIT

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

# CPU time the server process (or the given pid: the private redis-server) has used so far (user + system), ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/${1:-$SERVER_PID}/stat"; }
TCK=$(getconf CLK_TCK)

# run NAME DURATION CONNECTIONS [wrk args...] -> prints "req/s p50 p99 server-cpu-us-per-request
# redis-cpu-us-per-request errors" (redis: 0 without --store redis)
# (the server's CPU time per request is much steadier than req/s on a machine shared with other work)
run() {
  local name=$1 dur=$2 conns=$3; shift 3
  local c0 c1 r0=0 r1=0
  c0=$(cpu_ticks)
  if [[ -n "$REDIS_PID" ]]; then r0=$(cpu_ticks "$REDIS_PID"); fi
  "$WRK" -t1 -c"$conns" -d"$dur" --latency "$@" >"$WORK/$name.txt" 2>&1 || true
  c1=$(cpu_ticks)
  if [[ -n "$REDIS_PID" ]]; then r1=$(cpu_ticks "$REDIS_PID"); fi
  awk -v ticks=$((c1 - c0)) -v rticks=$((r1 - r0)) -v tck="$TCK" '
    / requests in / { n = $1 }
    /Requests\/sec:/ { rps = $2 }
    /^ +50%/ { p50 = $2 }
    /^ +99%/ { p99 = $2 }
    /Non-2xx or 3xx responses:/ { bad = $5 }
    /Socket errors:/ { sock = $0 }
    END { printf "%s %s %s %.1f %.1f %s\n", rps, p50, p99, (n > 0 ? ticks * 1e6 / tck / n : 0),
          (n > 0 ? rticks * 1e6 / tck / n : 0),
          (bad == "" ? 0 : bad) (sock == "" ? "" : " (" sock ")") }
  ' "$WORK/$name.txt"
}

# pending timers in the server now (GET /v1/wheel): each load is measured on top of those the loads before it created
pending() { curl -s "$URL/v1/wheel" | sed -E 's/.*"pending":([0-9]+).*/\1/'; }

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "tickwheel wrk bench: store=$STORE rounds=$ROUNDS split=$SPLIT duration=$DURATION connections=$CONNS" \
  "batch=${BSIZE}x$BCONNS conns, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-9s %12s %12s %9s %9s %12s %12s %10s  %s\n' round load req/s timers/s p50 p99 cpu-us/timer redis-us/tmr pending@0 \
  non-2xx
HEALTH=() POST=() BATCH=() HCPU=() PCPU=() BCPU=() PRCPU=() BRCPU=()
for r in $(seq 1 "$ROUNDS"); do
  start_server
  run warm-post "$WARMUP" "$CONNS" -s "$HERE/post.lua" "$URL" >/dev/null
  if [[ $SPLIT == 0 ]]; then
    run warm-batch "$WARMUP" "$BCONNS" -s "$HERE/batch.lua" "$URL" -- "$BSIZE" >/dev/null
  fi
  hn=$(pending)
  read -r h hp50 hp99 hcpu hrcpu hbad < <(run health "$DURATION" "$CONNS" "$URL/health")
  pn=$(pending)
  read -r p pp50 pp99 pcpu prcpu pbad < <(run post "$DURATION" "$CONNS" -s "$HERE/post.lua" "$URL")
  if [[ $SPLIT == 1 ]]; then
    stop_server
    start_server
    run warm-batch "$WARMUP" "$BCONNS" -s "$HERE/batch.lua" "$URL" -- "$BSIZE" >/dev/null
  fi
  bn=$(pending)
  read -r b bp50 bp99 bcpu brcpu bbad < <(run batch "$DURATION" "$BCONNS" -s "$HERE/batch.lua" "$URL" -- "$BSIZE")
  stop_server
  bt=$(awk -v b="$b" -v s="$BSIZE" 'BEGIN { printf "%.0f", b * s }')
  bcpu=$(awk -v c="$bcpu" -v s="$BSIZE" 'BEGIN { printf "%.2f", c / s }')
  brcpu=$(awk -v c="$brcpu" -v s="$BSIZE" 'BEGIN { printf "%.2f", c / s }')
  printf '%-6s %-9s %12s %12s %9s %9s %12s %12s %10s  %s\n' "$r" health "$h" "$h" "$hp50" "$hp99" "$hcpu" "$hrcpu" "$hn" "$hbad"
  printf '%-6s %-9s %12s %12s %9s %9s %12s %12s %10s  %s\n' "$r" post "$p" "$p" "$pp50" "$pp99" "$pcpu" "$prcpu" "$pn" "$pbad"
  printf '%-6s %-9s %12s %12s %9s %9s %12s %12s %10s  %s\n' "$r" batch "$b" "$bt" "$bp50" "$bp99" "$bcpu" "$brcpu" "$bn" "$bbad"
  HEALTH+=("$h") POST+=("$p") BATCH+=("$bt") HCPU+=("$hcpu") PCPU+=("$pcpu") BCPU+=("$bcpu") PRCPU+=("$prcpu")
  BRCPU+=("$brcpu")
done
printf 'median health req/s %s | POST timers/s %s | batch timers/s %s   (load average after: %s)\n' \
  "$(printf '%s\n' "${HEALTH[@]}" | median)" "$(printf '%s\n' "${POST[@]}" | median)" \
  "$(printf '%s\n' "${BATCH[@]}" | median)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'median server CPU us per request/timer: health %s | POST %s | batch %s\n' \
  "$(printf '%s\n' "${HCPU[@]}" | median)" "$(printf '%s\n' "${PCPU[@]}" | median)" \
  "$(printf '%s\n' "${BCPU[@]}" | median)"
if [[ -n "$REDIS_PID" ]]; then
  printf 'median redis-server CPU us per request/timer: POST %s | batch %s\n' \
    "$(printf '%s\n' "${PRCPU[@]}" | median)" "$(printf '%s\n' "${BRCPU[@]}" | median)"
fi
