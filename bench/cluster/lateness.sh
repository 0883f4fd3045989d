#!/usr/bin/env bash
# Lateness at 1M pending in a tickwheel cluster, beside one node, on one private redis-server, in the same run.
# Each round starts fresh nodes on an emptied Redis (1 node, then --nodes nodes; the rounds interleave) and runs the
# load tool's lateness scenario against node 0 (LoadTool --url: it fills --pending timers by batch through node 0,
# which routes each timer to its partition's owner, then schedules a stream due at --firing-rate/s for --window-ms
# and subscribes on node 0's WebSocket to every topic: the cluster-wide stream). Lateness = received − due, so it
# includes the hop from the owner node to node 0 (the cluster feed). Prints the tool's lateness rows and the CPU time
# (seconds) of all nodes and of redis-server over the whole scenario, fill included (utime + stime, /proc/PID/stat;
# jit-cpu-s: the part of the nodes' that their C1/C2 compiler threads took: three JVMs warming up on a small machine),
# and where the p99 goes: fire-p99 = the owner's firedAt − dueAt, hop-p99 = received − firedAt (the hop from the owner
# to node 0's stream and on to the tool), create-p99 = how long the stream's batch creates took to be answered (each
# sent 1 s before its first timer is due).
#
# --via client (the default): the Java client with every node as an endpoint (LoadTool --tickwheel-mode client
# --endpoints): it reads the partition map and sends every schedule, fill and stream, to its timer's owner, as a
# Java service would. --via http: every batch is POSTed to node 0, which forwards what other nodes own.
#
# --warmup-ms: the stream's unmeasured lead (LoadTool --lateness-warmup-ms; default 3000): three JVMs on 2 cores
# still compile the fire and push paths with C2 for tens of seconds after the fill.
#
# --by-second: under each row, the lateness p99 (ms) of each second of the stream, warm-up included: how the tail
# settles after the fill.
#
# Usage: bench/cluster/lateness.sh [--via client|http] [--warmup-ms 3000] [--nodes 3] [--rounds 3] [--pending 1000000] [--firing-rate 10000]
#                                  [--window-ms 10000] [--port 8389] [--partitions 256] [--jar PATH] [--by-second]
# Env:   JAVA_OPTS (the nodes' JVM flags; default -Xmx700m)
# Needs: redis-server, redis-cli, curl, jq, the jars: mvn -B -ntp -q -pl server,bench -am package -DskipTests
set -euo pipefail

VIA=client WARMUP_MS=3000 NODES=3 ROUNDS=3 PENDING=1000000 RATE=10000 WINDOW=10000 PORT=8389 PARTS=256 JAR= BY_SECOND=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --via) VIA=$2; shift 2 ;;
    --warmup-ms) WARMUP_MS=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --pending) PENDING=$2; shift 2 ;;
    --firing-rate) RATE=$2; shift 2 ;;
    --window-ms) WINDOW=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --partitions) PARTS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --by-second) BY_SECOND=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

[[ "$VIA" == client || "$VIA" == http ]] || { echo "--via must be client or http, was '$VIA'" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
BENCH="$ROOT/bench/target/benchmarks.jar"
for f in "$JAR" "$BENCH"; do
  [[ -f "$f" ]] || { echo "no $f: run 'mvn -B -ntp -q -pl server,bench -am package -DskipTests' first" >&2; exit 2; }
done
for c in redis-server redis-cli curl jq; do command -v "$c" >/dev/null || { echo "$c not found" >&2; exit 2; }; done

WORK=$(mktemp -d /tmp/tickwheel-cllat.XXXXXX)
# shellcheck source=bench/cluster/lib.sh
source "$HERE/lib.sh"
trap cleanup_all EXIT
TCK=$(getconf CLK_TCK)
redis_start

# one lateness run against node 0 of n running nodes
#   -> "p50 p99 p999 max early missing node-cpu-s redis-cpu-s fire-p99 hop-p99 create-p99 jit-cpu-s"
measure() {
  local n=$1 name=$2
  local -a c0 c1 j0 j1
  for i in $(seq 0 $((n - 1))); do c0[$i]=$(ticks "${PIDS[$i]}"); j0[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  local r0 r1
  r0=$(ticks "$REDIS_PID")
  local -a via=()
  if [[ "$VIA" == client ]]; then
    local all=
    for i in $(seq 0 $((n - 1))); do all+="${all:+,}$(url "$i")"; done
    via=(--tickwheel-mode client --endpoints "$all")
  fi
  java -Xmx1g -cp "$BENCH" io.tickwheel.bench.load.LoadTool --url "$(url 0)" "${via[@]}" --scenario lateness --lateness-warmup-ms "$WARMUP_MS" \
    --pending "$PENDING" --firing-rate "$RATE" --window-ms "$WINDOW" --keep-timers --csv "$WORK/$name.csv" \
    >"$WORK/$name.out" 2>&1 || { tail -20 "$WORK/$name.out" >&2; exit 1; }
  for i in $(seq 0 $((n - 1))); do c1[$i]=$(ticks "${PIDS[$i]}"); j1[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  r1=$(ticks "$REDIS_PID")
  local sum=0 jit=0
  for i in $(seq 0 $((n - 1))); do sum=$(( sum + c1[i] - c0[i] )); jit=$(( jit + c1[i] - c0[i] - (j1[i] - j0[i]) )); done
  awk -F, -v nodes=$sum -v jit=$jit -v rt=$((r1 - r0)) -v tck="$TCK" '
    $2 ~ /^lateness/ && $3 == "lateness p50 ms" { p50 = $4 }
    $2 ~ /^lateness/ && $3 == "lateness p99 ms" { p99 = $4 }
    $2 ~ /^lateness/ && $3 == "lateness p999 ms" { p999 = $4 }
    $2 ~ /^lateness/ && $3 == "lateness max ms" { mx = $4 }
    $2 ~ /^lateness/ && $3 ~ /^early/ { early = $4 }
    $2 ~ /^lateness/ && $3 ~ /^missing/ { miss = $4 }
    $2 ~ /^lateness/ && $3 ~ /^server firedAt/ { split($4, a, " / "); fire = a[2] }
    $2 ~ /^lateness/ && $3 ~ /^received .*firedAt p50/ { split($4, a, " / "); hop = a[2] }
    $2 ~ /^lateness/ && $3 ~ /^stream batch answer/ { split($4, a, " / "); ans = a[2] }
    END { printf "%s %s %s %s %s %s %.1f %.1f %s %s %s %.1f\n", p50, p99, p999, mx, early, miss, nodes / tck, rt / tck,
      fire == "" ? "?" : fire, hop == "" ? "?" : hop, ans == "" ? "?" : ans, jit / tck }' \
    "$WORK/$name.csv"
}

echo "tickwheel cluster lateness bench: 1 vs $NODES nodes, rounds=$ROUNDS pending=$PENDING firing-rate=$RATE/s" \
  "window=${WINDOW}ms partitions=$PARTS via=$VIA warmup=${WARMUP_MS}ms, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-6s %8s %8s %8s %8s %6s %8s %12s %12s %9s %9s %10s %10s\n' round nodes p50-ms p99-ms p999-ms max-ms early \
  missing node-cpu-s redis-cpu-s fire-p99 hop-p99 create-p99 jit-cpu-s
declare -A V
for r in $(seq 1 "$ROUNDS"); do
  for n in 1 "$NODES"; do
    start_nodes "$n"
    read -r p50 p99 p999 mx early miss nc rc fire hop ans jc < <(measure "$n" "r$r-n$n")
    stop_nodes
    printf '%-6s %-6s %8s %8s %8s %8s %6s %8s %12s %12s %9s %9s %10s %10s\n' "$r" "$n" "$p50" "$p99" "$p999" "$mx" "$early" \
      "$miss" "$nc" "$rc" "$fire" "$hop" "$ans" "$jc"
    if [[ -n "$BY_SECOND" ]]; then
      echo "  p99 ms by second: $(awk -F, '$2 ~ /^lateness/ && $3 ~ /^lateness p99 ms by second/ { print $4 }' \
        "$WORK/r$r-n$n.csv")"
    fi
    V[$n.p99]+="$p99 " V[$n.p50]+="$p50 " V[$n.p999]+="$p999 "
  done
done
med() { tr ' ' '\n' <<<"${V[$1]}" | grep -v '^$' | median; }
for n in 1 "$NODES"; do
  printf 'median %d node(s): lateness p50 %s ms, p99 %s ms, p999 %s ms\n' "$n" "$(med "$n.p50")" "$(med "$n.p99")" \
    "$(med "$n.p999")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
