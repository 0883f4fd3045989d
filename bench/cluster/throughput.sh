#!/usr/bin/env bash
# Write throughput of a tickwheel cluster beside one node, on one private redis-server, in the same run:
# single POST /v1/timers (bench/wrk/post.lua: each node gets ids of every partition, and forwards what another node
# owns, as for a plain HTTP user; "owner": ids of the partitions it owns only, as the Java and TypeScript clients send
# each timer to its owner) and POST /v1/timers/batch (bench/wrk/batch.lua, --batch-size timers per
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
# --commandstats prints, under each row, Redis's own account of its time (INFO commandstats, reset before the
# measurement): per command, calls and microseconds per operation, the most time first (a command a script issues
# counts on its own and inside the script's evalsha). Wall time inside Redis, so it also counts what the machine's
# other work (cache misses, preemption) added to each command.
#
# --rate R adds a row "paced": the owner row's POSTs sent at R per second in all (R/N to each of N nodes,
# TICKWHEEL_RATE in bench/wrk/post.lua; over --paced-connections connections, default 256), so node CPU per POST
# of 1 and 3 nodes is compared at one load, not each at its own top rate: the unpaced rows run 3 JVMs on 2 cores
# flat out, where they also compete with each other and with wrk.
#
# Usage: bench/cluster/throughput.sh [--nodes 3] [--rounds 3] [--duration 10s] [--warmup 8s] [--port 8289]
#                                    [--connections 64] [--batch-connections 6] [--batch-size 1000]
#                                    [--partitions 256] [--rate R] [--paced-connections 256] [--jar PATH]
#                                    [--commandstats]
# Env:   JAVA_OPTS (extra JVM flags for the nodes; default -Xmx700m: give -Xmx4g for long warm-ups, which leave
#        millions of timers pending in one node), WRK (default: wrk)
# Needs: wrk, redis-server, redis-cli, curl, jq, and the jar: mvn -B -ntp -q -pl server -am package -DskipTests
set -euo pipefail

NODES=3 ROUNDS=3 DURATION=10s WARMUP=8s PORT=8289 CONNS=64 BCONNS=6 BSIZE=1000 PARTS=256 JAR= RATE= PCONNS=256
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
    --rate) RATE=$2; shift 2 ;;
    --paced-connections) PCONNS=$2; shift 2 ;;
    --commandstats) export COMMANDSTATS=1; shift ;;
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

echo "tickwheel cluster throughput bench: 1 vs $NODES nodes, rounds=$ROUNDS duration=$DURATION connections=$CONNS" \
  "batch=${BSIZE}x$BCONNS conns, partitions=$PARTS,${RATE:+ paced=${RATE}/s over $PCONNS conns,} commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
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
    read -r ot on om or ob oj < <(load owner "$n" "$DURATION" "$CONNS" post.lua -- @owned)
    read -r bt bn bm br bb bj < <(load batch "$n" "$DURATION" "$BCONNS" batch.lua -- "$BSIZE")
    if [[ -n "$RATE" ]]; then
      read -r qt qn qm qr qb qj < <(TICKWHEEL_RATE=$((RATE / n)) load paced "$n" "$DURATION" "$PCONNS" post.lua -- @owned)
    fi
    stop_nodes
    printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" post "$pt" "$pn" "$pm" "$pr" "$pb" "$pj"
    commandstats_row post
    printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" owner "$ot" "$on" "$om" "$or" "$ob" "$oj"
    commandstats_row owner
    printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" batch "$bt" "$bn" "$bm" "$br" "$bb" "$bj"
    commandstats_row batch
    if [[ -n "$RATE" ]]; then
      printf '%-6s %-6s %-6s %12s %12s %12s %12s %8s %14s\n' "$r" "$n" paced "$qt" "$qn" "$qm" "$qr" "$qb" "$qj"
      commandstats_row paced
      V[$n.paced.t]+="$qt " V[$n.paced.n]+="$qn " V[$n.paced.r]+="$qr " V[$n.paced.j]+="$qj "
    fi
    V[$n.post.t]+="$pt " V[$n.post.n]+="$pn " V[$n.post.r]+="$pr " V[$n.post.j]+="$pj "
    V[$n.owner.t]+="$ot " V[$n.owner.n]+="$on " V[$n.owner.r]+="$or " V[$n.owner.j]+="$oj "
    V[$n.batch.t]+="$bt " V[$n.batch.n]+="$bn " V[$n.batch.r]+="$br " V[$n.batch.j]+="$bj "
  done
done
med() { tr ' ' '\n' <<<"${V[$1]}" | grep -v '^$' | median; }
for l in post owner batch ${RATE:+paced}; do
  for n in 1 "$NODES"; do
    printf 'median %-5s %d node(s): timers/s %s | node CPU us/op (all nodes) %s, without JIT threads %s |'\
' redis-server CPU us/op %s\n' "$l" "$n" "$(med "$n.$l.t")" "$(med "$n.$l.n")" "$(med "$n.$l.j")" "$(med "$n.$l.r")"
  done
  awk -v a="$(med "1.$l.t")" -v b="$(med "$NODES.$l.t")" -v l="$l" -v n="$NODES" \
    'BEGIN { printf "ratio %s %d nodes / 1 node: %.2f\n", l, n, (a > 0 ? b / a : 0) }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
