#!/usr/bin/env bash
# Write throughput of a tickwheel cluster beside one node, on one private redis-server, in the same run:
# single POST /v1/timers (bench/wrk/post.lua) and POST /v1/timers/batch (bench/wrk/batch.lua, --batch-size timers per
# request), against 1 cluster node and against 3 cluster nodes (the load spread over the 3 nodes' ports: one wrk per
# node, each with a third of the connections; a node routes what another node owns). Rounds interleave the setups
# (1 node, 3 nodes, 1 node, ...); each round starts fresh nodes on an emptied Redis, warms them up with both loads,
# then measures. Timers are due in 1 h: nothing fires during a run.
#
# Besides timers/s it prints the CPU time (utime + stime from /proc/PID/stat, before/after the load) per operation
# (per request for POST, per timer for batches): of every node summed (node-us), of the busiest node (max-node-us) and
# of redis-server (redis-us), and of every node without its JIT compiler threads (node-us/op-nojit: three JVMs
# warming up on 2 cores keep their C2 threads busy for minutes; this is the steady-state cost). CPU per operation is what carries over to other hardware; timers/s on this 2-core
# machine shared by everything (wrk, nodes, Redis) mostly says how the cores were shared.
#
# Usage: bench/cluster/throughput.sh [--nodes 3] [--rounds 3] [--duration 10s] [--warmup 8s] [--port 8289]
#                                    [--connections 64] [--batch-connections 6] [--batch-size 1000]
#                                    [--partitions 256] [--jar PATH]
# Env:   JAVA_OPTS (extra JVM flags for the nodes; default -Xmx700m: give -Xmx4g for long warm-ups, which leave
#        millions of timers pending in one node), WRK (default: wrk)
# Needs: wrk, redis-server, redis-cli, curl, jq, and the jar: mvn -B -ntp -q -pl server -am package -DskipTests
set -euo pipefail

NODES=3 ROUNDS=3 DURATION=10s WARMUP=8s PORT=8289 CONNS=64 BCONNS=6 BSIZE=1000 PARTS=256 JAR=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) NODES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --connections) CONNS=$2; shift 2 ;;
    --batch-connections) BCONNS=$2; shift 2 ;;
    --batch-size) BSIZE=$2; shift 2 ;;
    --partitions) PARTS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WRKDIR="$ROOT/bench/wrk"
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
WRK=${WRK:-wrk}
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -B -ntp -q -pl server -am package -DskipTests' first" >&2; exit 2; }
for c in "$WRK" redis-server redis-cli curl jq; do command -v "$c" >/dev/null || { echo "$c not found" >&2; exit 2; }; done

WORK=$(mktemp -d /tmp/tickwheel-clthr.XXXXXX)
# shellcheck source=bench/cluster/lib.sh
source "$HERE/lib.sh"
trap cleanup_all EXIT
TCK=$(getconf CLK_TCK)
redis_start

# load NAME N DURATION CONNECTIONS SCRIPT [args after --] -> "ops/s node-us max-node-us redis-us non2xx"
# one wrk per node (CONNECTIONS/N connections each), run at once; ops = requests (x batch size for batch.lua)
load() {
  local name=$1 n=$2 dur=$3 conns=$4 script=$5; shift 5
  local per=$(( conns / n > 0 ? conns / n : 1 ))
  local -a c0 c1 j0 j1 wp
  for i in $(seq 0 $((n - 1))); do c0[$i]=$(ticks "${PIDS[$i]}"); j0[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  local r0 r1
  r0=$(ticks "$REDIS_PID")
  for i in $(seq 0 $((n - 1))); do
    "$WRK" -t1 -c"$per" -d"$dur" -s "$WRKDIR/$script" "$(url "$i")" "$@" >"$WORK/$name.$i.txt" 2>&1 &
    wp[$i]=$!
  done
  for i in $(seq 0 $((n - 1))); do wait "${wp[$i]}" || true; done
  for i in $(seq 0 $((n - 1))); do c1[$i]=$(ticks "${PIDS[$i]}"); j1[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  r1=$(ticks "$REDIS_PID")
  local sum=0 max=0 d jit=0
  for i in $(seq 0 $((n - 1))); do
    d=$(( c1[i] - c0[i] )); sum=$(( sum + d )); (( d > max )) && max=$d
    jit=$(( jit + j1[i] - j0[i] ))
  done
  local mult=1
  [[ "$script" == batch.lua ]] && mult=${2:-1000}
  # what the non-2xx answers were (bench/wrk/post.lua prints them): on stderr, beside the table
  grep -h '^non-2xx' "$WORK/$name".*.txt | sed "s/^/[$name, $n node(s)] /" >&2 || true
  cat "$WORK/$name".*.txt | awk -v sum=$sum -v max=$max -v rt=$((r1 - r0)) -v tck="$TCK" -v mult="$mult" -v jit=$jit '
    / requests in / { n += $1 }
    /Requests\/sec:/ { rps += $2 }
    /Non-2xx or 3xx responses:/ { bad += $5 }
    END { ops = n * mult
          printf "%.0f %.2f %.2f %.2f %d %.2f\n", rps * mult, (ops > 0 ? sum * 1e6 / tck / ops : 0),
            (ops > 0 ? max * 1e6 / tck / ops : 0), (ops > 0 ? rt * 1e6 / tck / ops : 0), bad,
            (ops > 0 ? jit * 1e6 / tck / ops : 0) }'
}

echo "tickwheel cluster throughput bench: 1 vs $NODES nodes, rounds=$ROUNDS duration=$DURATION connections=$CONNS" \
  "batch=${BSIZE}x$BCONNS conns, partitions=$PARTS, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' round nodes load timers/s node-us/op max-node-us redis-us/op non-2xx \
  node-us/op-nojit
declare -A V
for r in $(seq 1 "$ROUNDS"); do
  for n in 1 "$NODES"; do
    start_nodes "$n"
    load warm-post "$n" "$WARMUP" "$CONNS" post.lua >/dev/null
    load warm-batch "$n" "$WARMUP" "$BCONNS" batch.lua -- "$BSIZE" >/dev/null
    read -r pt pn pm pr pb pj < <(load post "$n" "$DURATION" "$CONNS" post.lua)
    read -r bt bn bm br bb bj < <(load batch "$n" "$DURATION" "$BCONNS" batch.lua -- "$BSIZE")
    stop_nodes
    printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" post "$pt" "$pn" "$pm" "$pr" "$pb" "$pj"
    printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" batch "$bt" "$bn" "$bm" "$br" "$bb" "$bj"
    V[$n.post.t]+="$pt " V[$n.post.n]+="$pn " V[$n.post.r]+="$pr " V[$n.post.j]+="$pj "
    V[$n.batch.t]+="$bt " V[$n.batch.n]+="$bn " V[$n.batch.r]+="$br " V[$n.batch.j]+="$bj "
  done
done
med() { tr ' ' '\n' <<<"${V[$1]}" | grep -v '^$' | median; }
for l in post batch; do
  for n in 1 "$NODES"; do
    printf 'median %-5s %d node(s): timers/s %s | node CPU us/op (all nodes) %s, without JIT threads %s |'\
' redis-server CPU us/op %s\n' "$l" "$n" "$(med "$n.$l.t")" "$(med "$n.$l.n")" "$(med "$n.$l.j")" "$(med "$n.$l.r")"
  done
  awk -v a="$(med "1.$l.t")" -v b="$(med "$NODES.$l.t")" -v l="$l" -v n="$NODES" \
    'BEGIN { printf "ratio %s %d nodes / 1 node: %.2f\n", l, n, (a > 0 ? b / a : 0) }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
