#!/usr/bin/env bash
# Fire and recovery cost of cron timers against once timers (the issue's bar: a cron timer costs at most 1.5x a once
# timer "to create and to fire"; creation is bench/wrk/batch-kinds.sh).
#
# Each round measures both kinds, once then cron, each on fresh servers (fresh data directory, or an emptied private
# Redis), with no subscriber (the fire path alone: record the firing, remove or re-arm the timer):
#   fire:     N timers due at one second T (once: "at": T; cron: one 6-field expression "S M H * * *" in UTC that
#             matches T, so each fires and is re-armed for the next day), created through POST /v1/timers/batch in
#             batches of 1,000 ahead of T. The server's CPU (utime + stime from /proc/PID/stat) from one second before
#             T until GET /health shows firedTotal grown by N (polled every 100 ms), divided by N: CPU per firing.
#             "last ms" is T to the poll that saw the last firing (100 ms resolution).
#             With --warmup W (a multiple of 1000, default 0), W timers of the same kind fire on the same server
#             first (due at T - 8 s; cron ones re-armed for the next day), so the JIT's compilation of the fire path
#             is not counted in the measured firings' CPU.
#   recovery: N timers due in 1 h (once: delayMs; cron: the 60 hourly expressions "M * * * *" of batch.lua), then
#             kill -9 and a restart on the same data: wall time and server CPU from launch to its "recovered N timers"
#             line, minus the same for a start on an empty store measured just before (the JVM's own start).
# The summary prints the medians of the rounds and the ratios cron/once.
# --threads prints, after each fire measurement, the server's CPU seconds per thread over the measured firings
# (from /proc/PID/task/*/stat; digits in thread names folded, so "GC Thread#0" and "#1" add up as "GC Thread#N").
# --perf NAME records the threads whose name contains NAME (e.g. tickwheel-rocks, the RocksDB writer) with
# `perf record -g` over the measured firings into /tmp/fire-kinds-perf-KIND.data; with NAME "all", every thread.
# Java frames get names when the JVM writes its perf map: JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions
# -XX:+DumpPerfMapAtExit". Then e.g. perf report -i /tmp/fire-kinds-perf-cron.data --children --sort symbol.
#
# Usage: bench/wrk/fire-kinds.sh [--store rocksdb|redis|memory] [--rounds 3] [--timers 100000] [--port 8189]
#                                [--lead-s 20] [--warmup 0] [--jar PATH] [--threads] [--perf NAME]
# Needs: curl, (redis-server and redis-cli for --store redis), and the jar: mvn -q -DskipTests package.
set -euo pipefail

STORE=rocksdb ROUNDS=3 N=100000 PORT=8189 LEAD=20 WARM=0 JAR= THREADS=0 PERF=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --store) STORE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --timers) N=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --lead-s) LEAD=$2; shift 2 ;;
    --warmup) WARM=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --threads) THREADS=1; shift ;;
    --perf) PERF=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
(( N % 1000 == 0 )) || { echo "--timers must be a multiple of 1000" >&2; exit 2; }
(( WARM % 1000 == 0 )) || { echo "--warmup must be a multiple of 1000" >&2; exit 2; }

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
URL="http://127.0.0.1:$PORT"
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -q -DskipTests package' first" >&2; exit 2; }

WORK=$(mktemp -d /tmp/tickwheel-fire.XXXXXX)
SERVER_PID= REDIS_PID=
REDIS_PORT=$((PORT + 1000))
TCK=$(getconf CLK_TCK)
stop_server() {      # $1: signal (TERM by default)
  if [[ -n "$SERVER_PID" ]]; then
    kill -"${1:-TERM}" "$SERVER_PID" 2>/dev/null || true
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

# per-thread CPU ticks of the server, "name ticks" a line (spaces in names as _)
thread_ticks() {
  local d
  for d in /proc/"$SERVER_PID"/task/*; do
    echo "$(tr ' ' _ <"$d/comm" 2>/dev/null) $(awk '{ print $14 + $15 }' "$d/stat" 2>/dev/null)"
  done
}
# prints "KIND threads: name=seconds …" from two thread_ticks files, largest first
thread_cpu() {
  awk -v kind="$1" -v t="$TCK" 'FNR == NR { n = $1; gsub(/[0-9]+/, "N", n); a[n] += $2; next }
    { n = $1; gsub(/[0-9]+/, "N", n); b[n] += $2 }
    END { for (n in b) if (b[n] - a[n] > 0) printf "%d %s=%.2f\n", b[n] - a[n], n, (b[n] - a[n]) / t }' \
    "$2" "$3" | sort -rn | awk -v kind="$1" '{ s = s " " $2 } END { print kind " threads (CPU s):" s }'
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }

# launch on the data directory as it is (wipe it first with fresh_store); waits for the "recovered" line, then
# sets LAUNCH to "wall-ms cpu-ticks" of the launch up to it (no subshells here: the EXIT trap must see SERVER_PID)
launch() {
  rm -f "$WORK/server.out" "$WORK/server.err"
  local t0 t1
  t0=$(now_ms)
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -jar "$JAR" --store "$STORE" --port "$PORT" --data-dir "$WORK/data" \
    "${STORE_ARGS[@]}" --max-pending 100000000 >"$WORK/server.out" 2>"$WORK/server.err" &
  SERVER_PID=$!
  for _ in $(seq 1 3000); do
    if grep -q "recovered [0-9]* timers" "$WORK/server.err" "$WORK/server.out" 2>/dev/null; then
      t1=$(now_ms)
      LAUNCH="$((t1 - t0)) $(cpu_ticks)"
      for _ in $(seq 1 300); do grep -q "tickwheel listening" "$WORK/server.out" && return 0; sleep 0.02; done
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; exit 1; }
    sleep 0.02
  done
  echo "server did not recover within 60 s" >&2
  exit 1
}
fresh_store() {
  rm -rf "$WORK/data" && mkdir -p "$WORK/data"
  if [[ -n "$REDIS_PID" ]]; then redis-cli -p "$REDIS_PORT" flushall >/dev/null; fi
}

# writes COUNT/1000 batch bodies to $WORK/body.*: $1 kind (once|cron), $2 what (fire|recover), $3 T (epoch ms,
# fire), $4 COUNT (default N)
bodies() {
  rm -f "$WORK"/body.*
  local spec
  spec=$(date -u -d "@$(( $3 / 1000 ))" '+%-S %-M %-H')
  awk -v n="${4:-$N}" -v kind="$1" -v what="$2" -v at="$3" -v spec="$spec" -v dir="$WORK" -v p="$RANDOM$RANDOM" 'BEGIN {
    for (b = 0; b < n / 1000; b++) {
      f = dir "/body." b
      printf "{\"timers\":[" > f
      for (i = 0; i < 1000; i++) {
        id = p "-" b "." i
        if (kind == "once" && what == "fire") t = "\"at\":" at
        else if (kind == "once") t = "\"delayMs\":3600000"
        else if (what == "fire") t = "\"kind\":\"cron\",\"cron\":\"" spec " * * *\""
        else t = "\"kind\":\"cron\",\"cron\":\"" (i % 60) " * * * *\""
        printf "%s{\"id\":\"%s\",\"topic\":\"bench\",%s,\"payload\":{\"n\":%d}}", (i ? "," : ""), id, t, i > f
      }
      printf "]}" > f
      close(f)
    }
  }'
}
# posts the bodies, 2 at a time; fails unless every timer ($1, default N) was created
post_bodies() {
  local created want=${1:-$N}
  rm -f "$WORK"/answer.*
  # each answer to its own file: two curls writing into one pipe could interleave inside a token
  ls "$WORK"/body.* | sed 's/.*body\.//' | xargs -P2 -I{} curl -s --max-time 60 -H 'Content-Type: application/json' \
    --data-binary @"$WORK/body.{}" -o "$WORK/answer.{}" "$URL/v1/timers/batch"
  created=$(cat "$WORK"/answer.* | grep -o '"status":201' | wc -l)
  if [[ "$created" -ne "$want" ]]; then
    echo "created $created of $want timers; first other answer:" >&2
    cat "$WORK"/answer.* | grep -o '"status":[^2][^}]*}[^}]*}' | head -1 >&2
    exit 1
  fi
}
fired_total() { curl -s --max-time 5 "$URL/health" | sed -n 's/.*"firedTotal":\([0-9]*\).*/\1/p'; }
pending_count() { curl -s --max-time 5 "$URL/health" | sed -n 's/.*"pending":\([0-9]*\).*/\1/p'; }

# sets FIRE to "cpu-us-per-firing last-ms"
fire() {
  local kind=$1 t c0 f0 c1 seen
  fresh_store
  launch
  if (( WARM > 0 )); then
    local w w0
    w=$(( ($(now_ms) / 1000 + 8) * 1000 ))
    w0=$(fired_total)
    bodies "$kind" fire "$w" "$WARM"
    post_bodies "$WARM"
    for _ in $(seq 1 600); do
      (( $(fired_total) - w0 >= WARM )) && break
      sleep 0.1
    done
    (( $(fired_total) - w0 >= WARM )) || { echo "the $WARM warm-up timers did not fire within 60 s" >&2; exit 1; }
  fi
  t=$(( ($(now_ms) / 1000 + LEAD) * 1000 ))
  bodies "$kind" fire "$t"
  post_bodies
  (( $(now_ms) < t - 1500 )) || { echo "creating $N timers took past T - 1.5 s: raise --lead-s" >&2; exit 1; }
  sleep "$(awk -v d=$(( t - 1000 - $(now_ms) )) 'BEGIN { printf "%.3f", d / 1000 }')"
  f0=$(fired_total)
  local perf_pid=
  if [[ -n "$PERF" ]]; then
    local target=(-p "$SERVER_PID") tids
    if [[ "$PERF" != all ]]; then
      tids=$(for d in /proc/"$SERVER_PID"/task/*; do if grep -q -- "$PERF" "$d/comm"; then basename "$d"; fi; done \
        | paste -sd, || true)
      [[ -n "$tids" ]] || { echo "no server thread named like $PERF" >&2; exit 2; }
      target=(-t "$tids")
    fi
    perf record -F 999 -g "${target[@]}" -o "/tmp/fire-kinds-perf-$kind.data" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  (( THREADS )) && thread_ticks >"$WORK/threads0"
  c0=$(cpu_ticks)
  for _ in $(seq 1 600); do
    sleep 0.1
    seen=$(fired_total)
    (( seen - f0 >= N )) && break
  done
  c1=$(cpu_ticks)
  if (( THREADS )); then thread_ticks >"$WORK/threads1"; thread_cpu "$kind" "$WORK/threads0" "$WORK/threads1" >&2; fi
  if [[ -n "$perf_pid" ]]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  (( seen - f0 >= N )) || { echo "only $((seen - f0)) of $N fired within 60 s" >&2; exit 1; }
  local last=$(( $(now_ms) - t ))
  stop_server
  FIRE=$(awk -v c=$((c1 - c0)) -v t="$TCK" -v n="$N" -v l="$last" 'BEGIN { printf "%.2f %d\n", c / t * 1e6 / n, l }')
}

# sets RECOVERY to "recovery-ms recovery-cpu-us-per-timer"
recovery() {
  local kind=$1 base full
  if [[ "$STORE" == memory ]]; then RECOVERY="n/a n/a"; return; fi     # it keeps nothing over a restart
  fresh_store
  launch
  base=$LAUNCH
  bodies "$kind" recover 0
  post_bodies
  stop_server KILL
  launch
  full=$LAUNCH
  # the log line counts the timers loaded into the window; /health's pending counts the far ones too
  local got
  got=$(pending_count)
  [[ "$got" == "$N" ]] || { echo "recovered $got of $N timers" >&2; exit 1; }
  stop_server
  RECOVERY=$(awk -v b="$base" -v f="$full" -v t="$TCK" -v n="$N" 'BEGIN {
    split(b, x, " "); split(f, y, " ")
    printf "%d %.2f\n", y[1] - x[1], (y[2] - x[2]) / t * 1e6 / n }')
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

printf "store %s, %s timers per measurement (after %s warm-up firings), no subscriber\n" "$STORE" "$N" "$WARM"
printf "%-6s %-5s %14s %9s %12s %14s\n" round kind fire-cpu-us/f last-ms recovery-ms rec-cpu-us/tmr
for r in $(seq 1 "$ROUNDS"); do
  for kind in once cron; do
    fire "$kind"
    read -r fcpu last <<<"$FIRE"
    recovery "$kind"
    read -r rms rcpu <<<"$RECOVERY"
    printf "%-6s %-5s %14s %9s %12s %14s\n" "$r" "$kind" "$fcpu" "$last" "$rms" "$rcpu"
    echo "$fcpu" >>"$WORK/$kind.fcpu"; echo "$last" >>"$WORK/$kind.last"
    echo "$rms" >>"$WORK/$kind.rms"; echo "$rcpu" >>"$WORK/$kind.rcpu"
  done
done
for m in fcpu last rms rcpu; do
  eval "O_$m=\$(median <\"\$WORK/once.$m\")"
  eval "C_$m=\$(median <\"\$WORK/cron.$m\")"
done
printf "median once: fire %s cpu-us/firing (last %s ms), recovery %s ms (%s cpu-us/timer)\n" "$O_fcpu" "$O_last" "$O_rms" "$O_rcpu"
printf "median cron: fire %s cpu-us/firing (last %s ms), recovery %s ms (%s cpu-us/timer)\n" "$C_fcpu" "$C_last" "$C_rms" "$C_rcpu"
awk -v of="$O_fcpu" -v cf="$C_fcpu" -v orr="$O_rms" -v cr="$C_rms" -v oc="$O_rcpu" -v cc="$C_rcpu" 'BEGIN {
  printf "cost of a cron timer / a once timer: fire %.2fx by server CPU; recovery %.2fx by time, %.2fx by server CPU\n",
    cf / of, (orr > 0 ? cr / orr : 0), (oc > 0 ? cc / oc : 0) }'
