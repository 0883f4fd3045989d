#!/usr/bin/env bash
# Scale-out of a tickwheel cluster over a Redis Cluster: CPU per operation of the tickwheel nodes and of the Redis
# masters, with 1, 2 and 3 masters (each its own redis-server, no replicas) under three tickwheel nodes, in one run.
# A master count of 0 means one standalone redis-server (no Redis Cluster: the partitions' firing records of a turn go
# in one script call there, grouped by hash slot on a Redis Cluster); it has no projection of its own.
# Each round starts, for every master count in turn (the rounds interleave: 1, 2, 3, 1, 2, 3, ...), a fresh Redis
# Cluster and fresh nodes (--cluster, the masters' URLs as --redis), warms them up, then measures three operations:
#   post   single POST /v1/timers (bench/wrk/post.lua), due in 1 h; one wrk per node, the connections split evenly;
#          each node gets ids of every partition and forwards what another node owns (a plain HTTP user);
#   owner  the same with ids of the partitions the receiving node owns only (post.lua -- PARTS OWNED), as the Java
#          and TypeScript clients send each timer to its owner;
#   batch  POST /v1/timers/batch of --batch-size timers (bench/wrk/batch.lua), due in 1 h; the same spread;
#   fire   --firings timers created by batch (spread over the nodes) beforehand, due at --firing-rate/s over
#          firings/rate seconds from a start far enough ahead for the fill to end before it; CPU from just before the first is due until every
#          one of them fired (the nodes' tickwheel_firings_total, summed, grew by --firings), divided by --firings.
#          Nobody subscribes: a firing is recorded in Redis and published to no subscriber.
#   idle   --idle-s seconds without load after the warm-ups: what the nodes and the masters burn on their own (leases,
#          wheels ticking, the broadcast subscription), in CPU microseconds per second (the CSV's per-op columns).
# A warm-up before each measurement runs the same load (post, batch, and a fire of a fifth of --firings, whose fill
# time sets the measured fire's lead: --fire-lead-ms at least).
#
# CPU per operation = CPU time (utime + stime, /proc/PID/stat) before/after, over the operations done: of the nodes
# summed (node-us), of the busiest node (max-node-us), of the nodes without their JIT compiler threads (nojit-us: the
# steady-state cost; three JVMs warming up on a small machine keep C2 busy for minutes) and of every redis-server
# summed (redis-us). On a small shared machine, ops/s only says how the cores were shared (wrk, three JVMs and the
# masters all run on it): CPU per operation is the figure that carries over to more machines. The script ends with a
# projection to 10 and 100 machines from the medians of the run with the most masters (see --cores, --redis-machines).
#
# --commandstats prints, under the post, owner, batch and fire rows, Redis's own account of its time (INFO commandstats
# of every master, reset before the measurement): per command, calls and microseconds per operation, the most time
# first (a command a script issues counts on its own and inside the script's evalsha).
#
# Usage: bench/cluster/scaleout.sh [--masters "1 2 3"] [--nodes 3] [--rounds 3] [--duration 10s] [--warmup 8s]
#                                  [--connections 64] [--batch-connections 6] [--batch-size 1000]
#                                  [--idle-s 5] [--firings 100000] [--firing-rate 10000] [--fire-lead-ms 10000]
#                                  [--partitions 256] [--port random: a free range per cluster] [--csv bench/results/cluster-scaleout.csv]
#                                  [--cores 16] [--utilization 0.7] [--redis-machines 0.2]
#                                  [--projection-partitions 4096] [--jar PATH] [--commandstats]
# Env:   JAVA_OPTS (the nodes' JVM flags; default -Xmx700m), WRK (default: wrk)
# Needs: wrk, redis-server (7+), redis-cli, curl, jq, and the jar: mvn -B -ntp -q -pl server -am package -DskipTests
set -euo pipefail

MASTERS="1 2 3" NODES=3 ROUNDS=3 DURATION=10s WARMUP=8s CONNS=64 BCONNS=6 BSIZE=1000 FIRINGS=100000 RATE=10000
IDLE=5 LEAD=10000 PARTS=256 PORT= JAR= CSV= CORES=16 UTIL=0.7 RSHARE=0.2 PPARTS=4096
while [[ $# -gt 0 ]]; do
  case "$1" in
    --masters) MASTERS=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --connections) CONNS=$2; shift 2 ;;
    --batch-connections) BCONNS=$2; shift 2 ;;
    --batch-size) BSIZE=$2; shift 2 ;;
    --firings) FIRINGS=$2; shift 2 ;;
    --idle-s) IDLE=$2; shift 2 ;;
    --firing-rate) RATE=$2; shift 2 ;;
    --fire-lead-ms) LEAD=$2; shift 2 ;;
    --partitions) PARTS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --csv) CSV=$2; shift 2 ;;
    --cores) CORES=$2; shift 2 ;;
    --utilization) UTIL=$2; shift 2 ;;
    --redis-machines) RSHARE=$2; shift 2 ;;
    --projection-partitions) PPARTS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --commandstats) export COMMANDSTATS=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
for m in $MASTERS; do [[ "$m" =~ ^[0-9]$ ]] || { echo "--masters: each count 0..9 (0: standalone), was \"$m\"" >&2; exit 2; }; done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WRKDIR="$ROOT/bench/wrk"
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
CSV=${CSV:-"$ROOT/bench/results/cluster-scaleout.csv"}
WRK=${WRK:-wrk}
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -B -ntp -q -pl server -am package -DskipTests' first" >&2; exit 2; }
for c in "$WRK" redis-server redis-cli curl jq; do command -v "$c" >/dev/null || { echo "$c not found" >&2; exit 2; }; done

WORK=$(mktemp -d /tmp/tickwheel-clscale.XXXXXX)
PORT=${PORT:-0}
# shellcheck source=bench/cluster/lib.sh
source "$HERE/lib.sh"
trap cleanup_all EXIT
FIXED_PORT=; (( PORT > 0 )) && FIXED_PORT=$PORT || PORT=$(random_port)
REDIS_PORT=$((PORT + 1000))
TCK=$(getconf CLK_TCK)
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')

# the firings the nodes recorded (tickwheel_firings_total in GET /metrics: a counter per node, which partitions moving
# between nodes do not lower), summed over nodes 0..n-1; empty if a node did not answer
fired_total() {
  local n=$1 i sum=0 f
  for i in $(seq 0 $((n - 1))); do
    f=$(curl -s --max-time 5 "$(url "$i")/metrics" | awk '/^tickwheel_firings_total/ { printf "%.0f", $NF }')
    [[ -n "$f" ]] || return 0
    sum=$(( sum + f ))
  done
  echo "$sum"
}

# fire NAME N COUNT LEAD_MS -> "firings/s node-us/op max-node-us/op redis-us/op missing node-us/op-nojit fill-ms overrun"
# writes COUNT timers due at RATE/s from LEAD_MS ahead, by batch through the nodes in turn, then measures from 200 ms
# before the first is due until the nodes' firedTotal grew by COUNT (at most the window + 60 s: then "missing" > 0)
fire() {
  local name=$1 n=$2 count=$3 lead=$4 i
  local t0=$(( $(now_ms) + lead )) start
  mkdir -p "$WORK/$name"
  awk -v count="$count" -v size="$BSIZE" -v t0="$t0" -v rate="$RATE" -v dir="$WORK/$name" -v p="$name-$t0-" '
    BEGIN { for (b = 0; b * size < count; b++) {
              f = sprintf("%s/%06d.json", dir, b); printf "{\"timers\":[" > f
              for (i = b * size; i < count && i < (b + 1) * size; i++)
                printf "%s{\"id\":\"%s%d\",\"topic\":\"bench\",\"at\":%d,\"payload\":{\"n\":%d}}", (i > b * size ? "," : ""),
                  p, i, t0 + int(i * 1000 / rate), i > f
              printf "]}" > f; close(f) } }'
  local before=
  while [[ -z "$before" ]]; do before=$(fired_total "$n"); done
  start=$(now_ms)
  local k=0
  for f in "$WORK/$name"/*.json; do
    echo "$(url $(( k % n ))) $f"; k=$(( k + 1 ))
  done | xargs -P "$n" -n 2 sh -c 'curl -s -o "$2.out" --max-time 60 -H "Content-Type: application/json" \
      --data-binary @"$2" "$1/v1/timers/batch"' sh
  local fill=$(( $(now_ms) - start ))
  local created
  created=$(cat "$WORK/$name"/*.out | grep -o '"status":201' | wc -l)
  (( created == count )) || echo "[$name] $(( count - created )) of the $count timers were not created:" \
    "$(cat "$WORK/$name"/*.out | grep -o '"status":[0-9]*' | sort | uniq -c | tr '\n' ' ')" >&2
  # a fill past its lead: firings (and their CPU) began before the measurement, which would count them as fired but
  # not their cost (overrun 1: the caller measures again with a longer lead)
  local overrun=0
  (( $(now_ms) < t0 - 200 )) || { overrun=1; echo "[$name] the fill took ${fill} ms, past its lead of $lead ms: firings began during it" >&2; }
  while (( $(now_ms) < t0 - 200 )); do sleep 0.05; done
  local -a c0 c1 j0 j1
  for i in $(seq 0 $((n - 1))); do c0[$i]=$(ticks "${PIDS[$i]}"); j0[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  local r0 r1 m0 m1 got=0 f
  [[ -n "${COMMANDSTATS:-}" ]] && commandstats_reset
  r0=$(redis_ticks) m0=$(now_ms)
  local deadline=$(( t0 + count * 1000 / RATE + 60000 ))
  sleep $(( count / RATE ))
  while (( $(now_ms) < deadline )); do
    f=$(fired_total "$n")
    [[ -n "$f" ]] && got=$(( f - before ))
    (( got >= count )) && break
    sleep 0.2
  done
  for i in $(seq 0 $((n - 1))); do c1[$i]=$(ticks "${PIDS[$i]}"); j1[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  r1=$(redis_ticks) m1=$(now_ms)
  [[ -n "${COMMANDSTATS:-}" ]] && commandstats_per_op "$count" >"$WORK/$name.commandstats"
  rm -rf "${WORK:?}/$name"
  local sum=0 max=0 d nojit=0
  for i in $(seq 0 $((n - 1))); do
    d=$(( c1[i] - c0[i] )); sum=$(( sum + d )); (( d > max )) && max=$d
    nojit=$(( nojit + j1[i] - j0[i] ))
  done
  awk -v got="$got" -v count="$count" -v ms=$(( m1 - m0 )) -v sum=$sum -v max=$max -v rt=$((r1 - r0)) -v tck="$TCK" \
      -v nojit=$nojit -v fill="$fill" -v overrun=$overrun '
    BEGIN { ops = (got < count ? got : count)
            printf "%.0f %.2f %.2f %.2f %d %.2f %d %d\n", (ms > 0 ? ops * 1000 / ms : 0), (ops > 0 ? sum * 1e6 / tck / ops : 0),
              (ops > 0 ? max * 1e6 / tck / ops : 0), (ops > 0 ? rt * 1e6 / tck / ops : 0), count - ops,
              (ops > 0 ? nojit * 1e6 / tck / ops : 0), fill, overrun }'
}

# the hash slot of partition p's keys (hash tag {tw:p:P}), p = 0..4095, one a line: asked of a running master once
SLOTS="$WORK/partition-slots"
partition_slots() {
  [[ -s "$SLOTS" ]] && return 0
  for p in $(seq 0 4095); do echo "CLUSTER KEYSLOT {tw:p:$p}"; done | redis-cli -p "${REDIS_PORTS[0]}" >"$SLOTS"
}
# spread PARTITIONS MASTERS -> "partitions per master, busiest / mean", the slots split in equal ranges (as here)
spread() {
  head -n "$1" "$SLOTS" | awk -v m="$2" '{ c[int($1 * m / 16384)]++ }
    END { s = ""; mx = 0; for (k = 0; k < m; k++) { s = s (k ? "/" : "") (c[k] + 0); if (c[k] > mx) mx = c[k] }
          printf "%s %.2f\n", (m <= 9 ? s : "-"), mx * m / NR }'
}

# idle N SECONDS -> "0 node-us/s max-node-us/s redis-us/s 0 node-us/s-nojit": CPU per second of N nodes left alone
idle() {
  local n=$1 secs=$2 i
  local -a c0 c1 j0 j1
  for i in $(seq 0 $((n - 1))); do c0[$i]=$(ticks "${PIDS[$i]}"); j0[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  local r0 r1 m0 m1
  r0=$(redis_ticks) m0=$(now_ms)
  sleep "$secs"
  for i in $(seq 0 $((n - 1))); do c1[$i]=$(ticks "${PIDS[$i]}"); j1[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  r1=$(redis_ticks) m1=$(now_ms)
  local sum=0 max=0 d nojit=0
  for i in $(seq 0 $((n - 1))); do
    d=$(( c1[i] - c0[i] )); sum=$(( sum + d )); (( d > max )) && max=$d
    nojit=$(( nojit + j1[i] - j0[i] ))
  done
  awk -v s=$(( m1 - m0 )) -v sum=$sum -v max=$max -v rt=$((r1 - r0)) -v tck="$TCK" -v nojit=$nojit '
    BEGIN { printf "0 %.0f %.0f %.0f 0 %.0f\n", sum * 1e9 / tck / s, max * 1e9 / tck / s, rt * 1e9 / tck / s,
              nojit * 1e9 / tck / s }'
}

LOADAVG0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "tickwheel scale-out bench: $NODES nodes on a Redis Cluster of $MASTERS master(s), rounds=$ROUNDS" \
  "duration=$DURATION connections=$CONNS batch=${BSIZE}x$BCONNS conns, firings=$FIRINGS at $RATE/s," \
  "partitions=$PARTS, commit $COMMIT, $(nproc) cores, load average $LOADAVG0"
[[ -f "$CSV" ]] || echo "date,commit,cores,round,masters,nodes,op,ops_per_s,node_us_per_op,max_node_us_per_op,node_us_per_op_nojit,redis_us_per_op,errors,loadavg1" >"$CSV"
row() { # round masters op ops/s node max redis errors nojit
  printf '%-6s %-8s %-6s %10s %10s %12s %10s %10s %8s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$9" "$7" "$8"
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$COMMIT,$(nproc),$1,$2,$NODES,$3,$4,$5,$6,$9,$7,$8,$(cut -d' ' -f1 /proc/loadavg)" >>"$CSV"
}
printf '%-6s %-8s %-6s %10s %10s %12s %10s %10s %8s\n' round masters op ops/s node-us max-node-us nojit-us redis-us errors
declare -A V
for r in $(seq 1 "$ROUNDS"); do
  for m in $MASTERS; do
    # fresh free ports for every cluster (other programs on the machine may have taken the last ones meanwhile)
    [[ -n "$FIXED_PORT" ]] || PORT=$(random_port)
    if (( m == 0 )); then
      REDIS_PORT=$((PORT + 1000)); redis_start
    else
      redis_cluster_start "$m"
      partition_slots
    fi
    start_nodes "$NODES"
    load warm-post "$NODES" "$WARMUP" "$CONNS" post.lua >/dev/null
    load warm-batch "$NODES" "$WARMUP" "$BCONNS" batch.lua -- "$BSIZE" >/dev/null
    # the measured fill gets the lead the warm-up's fill (a fifth as many timers) says it needs, x 1.5, + 2 s
    read -r _ _ _ _ _ _ wf _ < <(fire "warm-fire-r$r-m$m" "$NODES" $(( FIRINGS / 5 )) "$LEAD")
    lead=$(( wf * 5 * 3 / 2 + 2000 )); (( lead > LEAD )) || lead=$LEAD
    read -r it iu im ir ib ij < <(idle "$NODES" "$IDLE")
    read -r pt pn pm pr pb pj < <(load post "$NODES" "$DURATION" "$CONNS" post.lua)
    read -r ot on om or ob oj < <(load owner "$NODES" "$DURATION" "$CONNS" post.lua -- @owned)
    read -r bt bn bm br bb bj < <(load batch "$NODES" "$DURATION" "$BCONNS" batch.lua -- "$BSIZE")
    # measured again, with twice the lead, while its fill overran the lead (at most three times; then the row
    # shows the last, and the warning above it says why its CPU per firing is low)
    for attempt in 1 2 3; do
      fname="fire-r$r-m$m-$attempt"
      read -r ft fn fm fr fb fj _ fo < <(fire "$fname" "$NODES" "$FIRINGS" "$lead")
      (( fo == 0 )) && break
      lead=$(( lead * 2 ))
    done
    stop_nodes
    redis_stop
    row "$r" "$m" idle "$it" "$iu" "$im" "$ir" "$ib" "$ij"
    row "$r" "$m" post "$pt" "$pn" "$pm" "$pr" "$pb" "$pj"
    commandstats_row post
    row "$r" "$m" owner "$ot" "$on" "$om" "$or" "$ob" "$oj"
    commandstats_row owner
    row "$r" "$m" batch "$bt" "$bn" "$bm" "$br" "$bb" "$bj"
    commandstats_row batch
    row "$r" "$m" fire "$ft" "$fn" "$fm" "$fr" "$fb" "$fj"
    commandstats_row "$fname"
    for l in idle post owner batch fire; do
      case $l in idle) set -- "$it" "$iu" "$ij" "$ir" "$im" ;; post) set -- "$pt" "$pn" "$pj" "$pr" "$pm" ;;
        owner) set -- "$ot" "$on" "$oj" "$or" "$om" ;; batch) set -- "$bt" "$bn" "$bj" "$br" "$bm" ;;
        fire) set -- "$ft" "$fn" "$fj" "$fr" "$fm" ;; esac
      V[$m.$l.t]+="$1 " V[$m.$l.n]+="$2 " V[$m.$l.j]+="$3 " V[$m.$l.r]+="$4 " V[$m.$l.x]+="$5 "
    done
  done
done
med() { tr ' ' '\n' <<<"${V[$1]}" | grep -v '^$' | median; }

echo
echo "medians of $ROUNDS round(s), CPU in microseconds per operation (per request for post, per timer for batch," \
  "per recorded firing for fire; per second for idle):"
printf '| %-7s | %-16s | %10s | %14s | %15s | %16s | %17s |\n' masters operation ops/s "node CPU (sum)" "busiest node" \
  "nodes, no JIT" "Redis CPU (sum)"
echo '|---|---|---:|---:|---:|---:|---:|'
LAST=
for m in $MASTERS; do
  (( m > 0 )) && LAST=$m
  for l in idle post owner batch fire; do
    case $l in idle) label="idle, us/s" ;; post) label="single POST" ;; owner) label="POST to owner" ;;
      batch) label="batched timer" ;;
      fire) label="firing" ;; esac
    printf '| %-7s | %-16s | %10s | %14s | %15s | %16s | %17s |\n' "$m" "$label" "$(med "$m.$l.t")" "$(med "$m.$l.n")" \
      "$(med "$m.$l.x")" "$(med "$m.$l.j")" "$(med "$m.$l.r")"
  done
done

echo
for m in $MASTERS; do
  (( m > 0 )) || continue
  read -r per busiest < <(spread "$PARTS" "$m")
  echo "$m master(s): the $PARTS partitions per master $per (busiest / mean $busiest)"
done

[[ -n "$LAST" ]] || { echo "no Redis Cluster run: no projection"; exit 0; }
# The projection: machines of CORES cores, a share RSHARE of them running Redis masters (one redis-server per core,
# each single-threaded, the slots spread evenly), the rest one tickwheel node each; every process busy at most UTIL.
# Node cost per op = the nodes' CPU without JIT threads (steady state); Redis cost per op = all masters summed (the
# same total work whatever the master count: a Redis Cluster splits the keys by slot, not the work per key).
echo
echo "projection from the medians with $LAST master(s): machines of $CORES cores, $(awk -v s="$RSHARE" 'BEGIN { printf "%d%%", s * 100 }') of" \
  "them Redis machines ($CORES masters each, one per core, the slots split in equal ranges), the rest one tickwheel" \
  "node each, every core busy at most $(awk -v u="$UTIL" 'BEGIN { printf "%d%%", u * 100 }'), --partitions $PPARTS;" \
  "ops/s = min(node machines x cores x utilization / node CPU per op, masters x utilization / Redis CPU per op /" \
  "busiest master's partitions over the mean):"
printf '| %-8s | %-13s | %-7s | %-15s | %-16s | %13s | %8s |\n' machines "node machines" masters "busiest master" \
  operation ops/s "bound by"
echo '|---:|---:|---:|---:|---|---:|---|'
for k in 10 100; do
  rm_=$(awk -v k=$k -v s="$RSHARE" 'BEGIN { r = int(k * s + 0.5); print (r < 1 ? 1 : r) }')
  read -r _ busiest < <(spread "$PPARTS" $(( rm_ * CORES )))
  for l in post owner batch fire; do
    case $l in post) label="single POST" ;; owner) label="POST to owner" ;; batch) label="batched timer" ;;
      fire) label="firing" ;; esac
    awk -v k=$k -v rm="$rm_" -v c="$CORES" -v u="$UTIL" -v b="$busiest" -v nu="$(med "$LAST.$l.j")" \
        -v ru="$(med "$LAST.$l.r")" -v label="$label" 'BEGIN {
      nm = k - rm; masters = rm * c
      nodes = (nu > 0 ? nm * c * u * 1e6 / nu : 1e18); redis = (ru > 0 ? masters * u * 1e6 / ru / b : 1e18)
      ops = (nodes < redis ? nodes : redis)
      printf "| %-8d | %-13d | %-7d | %14.2fx | %-16s | %13.0f | %8s |\n", k, nm, masters, b, label, ops,
        (nodes < redis ? "nodes" : "Redis") }'
  done
done
echo "load average before: $LOADAVG0, after: $(cut -d' ' -f1-3 /proc/loadavg); rows appended to $CSV"
