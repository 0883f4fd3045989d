#!/usr/bin/env bash
# Server CPU per creating operation on the command path, three ways, interleaved in each round on one fresh server:
#   ws     WebSocket `schedule` commands, 64 in flight on one socket (Node `ws`, bench/node/ws-schedules.mjs)
#   post   one POST /v1/timers each, wrk -t1 -c64 (post.lua)
#   batch  POST /v1/timers/batch with 1,000 timers, wrk -t1 -c8 (batch.lua); CPU per timer
# every timer new and due in 1 h (nothing fires during a run). Per store (rocksdb: a fresh data directory; redis: a
# private redis-server on a free loopback port, no persistence), per round: a fresh server, then each load warms up
# for WARMUP seconds, then each runs DURATION seconds measured. CPU per operation is the server JVM's utime+stime (/proc)
# from an idle server before the run until it is idle again after it (so RocksDB's flushes and compactions of what the
# load wrote count for that load, not for the next), divided by the operations answered 2xx, all its threads (event
# loop, store, compaction, GC, JIT); the
# part of it spent by the JIT compiler threads is shown beside it (a fresh JVM still compiles the hot paths for tens
# of seconds on a busy 2-core machine: the warm-up runs every load before any is measured), and on redis the
# redis-server's CPU per operation. Under each row, the JVM's CPU per operation split by thread kind (event loops,
# the store's own threads, RocksDB's flushes and compactions, JIT, GC, the rest). The medians over the rounds come last.
#
# Usage: bench/wrk/commands.sh [--rounds 3] [--stores "rocksdb redis"] [--warmup 8] [--duration 8]
#          [--jar server/target/tickwheel.jar]
#        SERVER_JAVA_OPTS="..." adds JVM options to the server's (after -Xmx1g)
#        (from the repository root, after `mvn -q -DskipTests package` and `npm ci` in bench/node; needs wrk,
#         redis-server; hold the lock: flock /tmp/tickwheel-measure.lock bench/wrk/commands.sh)
set -euo pipefail

ROUNDS=3 STORES="rocksdb redis" WARMUP=8 DURATION=8 JAR=server/target/tickwheel.jar
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift 2 ;;
    --stores) STORES=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
NODE_DIR=$(cd "$HERE/../node" && pwd)
[[ -d "$NODE_DIR/node_modules/ws" ]] || { echo "run npm ci in bench/node first" >&2; exit 2; }
WORK=$(mktemp -d /tmp/tickwheel-commands.XXXXXX)
PID= RPID=
cleanup() {
  [[ -n "$PID" ]] && kill "$PID" 2>/dev/null
  [[ -n "$RPID" ]] && kill "$RPID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
TCK=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cpu() { [[ -z "$1" ]] && { echo 0; return; }; awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# CPU ticks of the JVM's threads by kind, in the order of KINDS: the event loops, the store's own threads (RocksDB
# writer and readers: their names share the first 15 characters Linux keeps), RocksDB's flush and compaction threads,
# the JIT compilers (what warm-up still costs; the jit-us/op column), the garbage collector, the rest (Netty's and
# Vert.x's other threads, the JVM's own)
KINDS="loop store rocksdb-bg jit gc other"
by_kind() {
  local t
  for t in /proc/$1/task/*; do
    printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" "$(awk '{ print $14 + $15 }' "$t/stat" 2>/dev/null)"
  done | awk -F'\t' '$2 != "" {
    k = "other"
    if ($1 ~ /^vert\.x-eventloo/) k = "loop"
    else if ($1 ~ /^tickwheel-rocks/) k = "store"
    else if ($1 ~ /^rocksdb:/) k = "rocksdb-bg"
    else if ($1 ~ /^C[12] CompilerThre/) k = "jit"
    else if ($1 ~ /^(GC Thread|G1 )/) k = "gc"
    t[k] += $2
  } END { printf "%d %d %d %d %d %d\n", t["loop"], t["store"], t["rocksdb-bg"], t["jit"], t["gc"], t["other"] }'
}

# run LOAD SECONDS URL: prints "ops/s ops" (operations answered 2xx)
run() {
  local load=$1 secs=$2 url=$3 out
  case "$load" in
    ws)
      out=$(node "$NODE_DIR/ws-schedules.mjs" "$url" "$secs" 64)
      awk '/^schedules/ { print $2 / $4, $2; if ($6 != 0) print "ws errors: " $6 > "/dev/stderr" }' <<<"$out" ;;
    post)
      out=$(wrk -t1 -c64 -d"${secs}s" -s "$HERE/post.lua" "$url")
      grep -q 'non-2xx' <<<"$out" && grep 'non-2xx' <<<"$out" >&2
      awk '/Requests\/sec/ { r = $2 } / requests in / { n = $1 } /Non-2xx/ { bad = $NF } END { print r * (n - bad) / n, n - bad }' <<<"$out" ;;
    batch)
      out=$(wrk -t1 -c8 -d"${secs}s" -s "$HERE/batch.lua" "$url" -- 1000)
      grep -q 'non-2xx' <<<"$out" && grep 'non-2xx' <<<"$out" >&2
      awk '/Requests\/sec/ { r = $2 } / requests in / { n = $1 } /Non-2xx/ { bad = $NF } END { print r * 1000 * (n - bad) / n, (n - bad) * 1000 }' <<<"$out" ;;
  esac
}

# settle PID...: waits (at most 60 s) until the processes used under 2 % of a core over half a second
settle() {
  local a b i p
  for i in $(seq 1 120); do
    a=0; for p in "$@"; do a=$((a + $(cpu "$p"))); done
    sleep 0.5
    b=0; for p in "$@"; do b=$((b + $(cpu "$p"))); done
    (( (b - a) * 100 <= TCK )) && return 0
  done
  echo "the server did not settle in 60 s" >&2
}

us_per_op() { awk -v t="$1" -v n="$2" -v tck="$TCK" 'BEGIN { printf "%.2f", (n > 0 ? t * 1e6 / tck / n : 0) }'; }

echo "tickwheel command path: jar=$JAR stores=\"$STORES\" rounds=$ROUNDS warmup=${WARMUP}s duration=${DURATION}s," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-6s %-6s %10s %12s %12s %12s\n' store round load ops/s jvm-us/op jit-us/op redis-us/op
: >"$WORK/rows"
for store in $STORES; do
  for r in $(seq 1 "$ROUNDS"); do
    rm -rf "$WORK/data" "$WORK/redis" "$WORK/server.out" "$WORK/redis.out"
    mkdir -p "$WORK/redis"
    case "$store" in
      rocksdb) args=(--store rocksdb --data-dir "$WORK/data") ;;
      redis)
        RPORT=$(free_port)
        redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis" >"$WORK/redis.out" 2>&1 &
        RPID=$!
        for _ in $(seq 1 100); do grep -qs "Ready to accept" "$WORK/redis.out" && break; sleep 0.1; done
        grep -qs "Ready to accept" "$WORK/redis.out" || { cat "$WORK/redis.out" >&2; exit 1; }
        args=(--store redis --redis "redis://127.0.0.1:$RPORT") ;;
      *) echo "unknown store $store (rocksdb or redis)" >&2; exit 2 ;;
    esac
    java -Xmx1g ${SERVER_JAVA_OPTS:-} -jar "$JAR" --host 127.0.0.1 --port 0 "${args[@]}" >"$WORK/server.out" 2>&1 &
    PID=$!
    for _ in $(seq 1 600); do grep -qs "tickwheel listening" "$WORK/server.out" && break; sleep 0.1; done
    url=$(sed -n 's/.*tickwheel listening on \(http:[^ ]*\).*/\1/p' "$WORK/server.out" 2>/dev/null | head -1)
    [[ -n "$url" ]] || { cat "$WORK/server.out" >&2; exit 1; }
    for load in ws post batch; do          # warm-up: every load, WARMUP seconds each, before any is measured
      run "$load" "$WARMUP" "$url" >/dev/null
    done
    for load in ws post batch; do
      settle "$PID" $RPID
      c0=$(cpu "$PID") r0=$(cpu "$RPID") k0=$(by_kind "$PID")
      read -r rate n < <(run "$load" "$DURATION" "$url")
      settle "$PID" $RPID
      c1=$(cpu "$PID") r1=$(cpu "$RPID") k1=$(by_kind "$PID")
      jvm=$(us_per_op $((c1 - c0)) "$n") jt=$(us_per_op $(($(cut -d" " -f4 <<<"$k1") - $(cut -d" " -f4 <<<"$k0"))) "$n") red=$(us_per_op $((r1 - r0)) "$n")
      printf '%-8s %-6s %-6s %10.0f %12s %12s %12s\n' "$store" "$r" "$load" "$rate" "$jvm" "$jt" "$red"
      # threads which died during the load (none on the hot paths) drop out of k1: "other" may then come out low
      awk -v a="$k0" -v b="$k1" -v kinds="$KINDS" -v n="$n" -v tck="$TCK" 'BEGIN {
        split(a, x, " "); split(b, y, " "); split(kinds, k, " "); line = "  jvm-us/op by thread:"
        for (i = 1; i <= 6; i++) line = line sprintf(" %s %.2f", k[i], n > 0 ? (y[i] - x[i]) * 1e6 / tck / n : 0)
        print line }'
      echo "$store $load $rate $jvm $jt $red" >>"$WORK/rows"
    done
    kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
    if [[ -n "$RPID" ]]; then kill "$RPID"; wait "$RPID" 2>/dev/null || true; RPID=; fi
  done
done
echo "medians of $ROUNDS rounds:"
printf '%-8s %-6s %10s %12s %12s %12s\n' store load ops/s jvm-us/op jit-us/op redis-us/op
for store in $STORES; do
  for load in ws post batch; do
    med() { awk -v s="$store" -v l="$load" -v c="$1" '$1 == s && $2 == l { print $c }' "$WORK/rows" | sort -g \
      | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
    printf '%-8s %-6s %10.0f %12s %12s %12s\n' "$store" "$load" "$(med 3)" "$(med 4)" "$(med 5)" "$(med 6)"
  done
done
