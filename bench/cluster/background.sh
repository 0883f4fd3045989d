#!/usr/bin/env bash
# What an idle tickwheel cluster asks of Redis on its own: leases, membership, the lease view, the firing-log and
# delivery trims, and the stream's sweep of a node with a subscriber. Starts one private redis-server and --nodes
# nodes (--cluster, --partitions), subscribes one WebSocket client to every topic on node 0 (so node 0's stream
# sweeps), lets it settle for --settle-s seconds, then counts for --seconds seconds: Redis calls per second by command
# (INFO commandstats; commands run inside scripts count under their own name too) and the CPU of redis-server and of
# the nodes (all threads, and without the JIT compilers', which still work for minutes after a start), in ms per
# second.
#
# Usage: bench/cluster/background.sh [--nodes 3] [--partitions 256] [--seconds 20] [--settle-s 20] [--jar PATH]
# Env:   JAVA_OPTS (the nodes' JVM flags; default -Xmx700m)
# Needs: redis-server, redis-cli, curl, jq, node (and `npm ci` in bench/node), the jar:
#        mvn -B -ntp -q -pl server -am package -DskipTests
set -euo pipefail

NODES=3 PARTS=256 SECONDS_=20 SETTLE=20 JAR=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) NODES=$2; shift 2 ;;
    --partitions) PARTS=$2; shift 2 ;;
    --seconds) SECONDS_=$2; shift 2 ;;
    --settle-s) SETTLE=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -B -ntp -q -pl server -am package -DskipTests' first" >&2; exit 2; }
[[ -d "$ROOT/bench/node/node_modules/ws" ]] || { echo "run npm ci in bench/node first" >&2; exit 2; }
for c in redis-server redis-cli curl jq node; do command -v "$c" >/dev/null || { echo "$c not found" >&2; exit 2; }; done

WORK=$(mktemp -d /tmp/tickwheel-background.XXXXXX)
PORT=0
# shellcheck source=bench/cluster/lib.sh
source "$HERE/lib.sh"
PORT=$(random_port)
REDIS_PORT=$((PORT + 1000))
SUB=
trap '[[ -n "$SUB" ]] && kill "$SUB" 2>/dev/null; cleanup_all' EXIT

redis_start
start_nodes "$NODES"
# one subscriber to every topic on node 0, kept open until the end
node --input-type=module -e "
  import { createRequire } from 'node:module';
  const { WebSocket } = createRequire('$ROOT/bench/node/')('ws');
  const ws = new WebSocket('$(url 0 | sed 's/^http/ws/')/v1/ws');
  ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', topics: ['*'] })));
  ws.on('close', () => process.exit(1));
" &
SUB=$!
sleep "$SETTLE"
redis-cli -p "$REDIS_PORT" config resetstat >/dev/null
r0=$(redis_ticks) n0=0 j0=0
for p in "${PIDS[@]}"; do n0=$(( n0 + $(ticks "$p") )) j0=$(( j0 + $(ticks_nojit "$p") )); done
sleep "$SECONDS_"
r1=$(redis_ticks) n1=0 j1=0
for p in "${PIDS[@]}"; do n1=$(( n1 + $(ticks "$p") )) j1=$(( j1 + $(ticks_nojit "$p") )); done
kill -0 "$SUB" 2>/dev/null || { echo "the subscriber's connection closed" >&2; exit 1; }
TCK=$(getconf CLK_TCK)
echo "tickwheel cluster background: $NODES nodes, $PARTS partitions, one subscriber on node 0, ${SECONDS_} s idle" \
  "after ${SETTLE} s; jar $JAR"
awk -v r=$((r1 - r0)) -v n=$((n1 - n0)) -v j=$((j1 - j0)) -v s="$SECONDS_" -v t="$TCK" \
  'BEGIN { printf "CPU ms per second: redis-server %.1f, nodes %.1f (without their JIT compiler threads %.1f)\n",
           r * 1000 / t / s, n * 1000 / t / s, j * 1000 / t / s }'
printf '%-22s %12s %14s\n' command calls/s usec/s
redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | awk -F'[:=,]' -v s="$SECONDS_" \
  '/^cmdstat_/ { printf "%-22s %12.1f %14.1f\n", substr($1, 9), $3 / s, $5 / s }' | sort -k2 -g -r
