# Shared by bench/cluster/*.sh (sourced): a private redis-server, or a private Redis Cluster of M masters, and N
# tickwheel cluster nodes on loopback.
# Needs before sourcing: PORT (node i listens on PORT+i, Redis on PORT+1000, Redis Cluster master k on PORT+1000+k and
# its cluster bus on PORT+11000+k), PARTS, JAR, WORK (a temp directory).
# Optional: LEASE (--lease-ms, default the server's), JAVA_OPTS (default -Xmx700m).

REDIS_PORT=$((PORT + 1000))
REDIS_PID=
# every redis-server running (the standalone one, or the masters of the Redis Cluster) and its port
declare -a REDIS_PIDS=() REDIS_PORTS=()
# what the nodes get as --redis: one URL (standalone) or the masters' URLs (a Redis Cluster)
REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
declare -a PIDS=()

now_ms() { date +%s%3N; }
url() { echo "http://127.0.0.1:$((PORT + $1))"; }
# CPU ticks (utime + stime) of a process
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# the same without its JIT compiler threads (C1/C2): a JVM's steady-state cost, once compilation has settled
ticks_nojit() {
  local t sum=0
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in C1\ Compiler*|C2\ Compiler*) continue ;; esac
    sum=$(( sum + $(awk '{ print $14 + $15 }' "$t/stat" 2>/dev/null || echo 0) ))
  done
  echo "$sum"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# CPU ticks of every redis-server running, summed
redis_ticks() {
  local p sum=0
  for p in "${REDIS_PIDS[@]}"; do sum=$(( sum + $(ticks "$p") )); done
  echo "$sum"
}
# Redis's own account of where its time went (INFO commandstats), for load's COMMANDSTATS=1: the counters of every
# master reset before a measurement, then summed per command and divided by its operations. A command a script issues
# is counted on its own and inside the script's EVALSHA as well.
commandstats_reset() {
  local p
  for p in "${REDIS_PORTS[@]}"; do redis-cli -p "$p" config resetstat >/dev/null; done
}
#   -> "command calls/op us/op" per line, the most time first (ops: the measurement's operations)
commandstats_per_op() {
  local ops=$1 p
  for p in "${REDIS_PORTS[@]}"; do redis-cli -p "$p" info commandstats; done | tr -d '\r' \
    | awk -F'[:=,]' -v ops="$ops" '/^cmdstat_/ { c = substr($1, 9); calls[c] += $3; us[c] += $5 }
        END { if (ops > 0) for (c in calls) if (c != "config|resetstat")
                printf "%s %.3f %.2f\n", c, calls[c] / ops, us[c] / ops }' | sort -k3,3 -g -r
}
# with COMMANDSTATS=1: what commandstats_per_op wrote for load $1 ($WORK/$1.commandstats), on one line under its
# row: "  redis per op: cmd calls/op calls us/op us | ..." (the 8 commands that took the most time)
commandstats_row() {
  [[ -n "${COMMANDSTATS:-}" && -s "$WORK/$1.commandstats" ]] || return 0
  head -8 "$WORK/$1.commandstats" | awk '{ printf "%s%s %s calls %s us", (NR > 1 ? " | " : "  redis per op: "), $1, $2, $3 }
    END { print "" }'
}
# true if nothing listens on loopback port $1
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# a random PORT whose node ports (PORT..PORT+9), Redis ports (PORT+1000..+1009) and cluster bus ports
# (PORT+11000..+11009) are all free
random_port() {
  local p k ok
  for _ in $(seq 1 50); do
    p=$(( 20000 + RANDOM % 20000 )) ok=1
    for k in $(seq 0 9); do
      port_free $((p + k)) && port_free $((p + 1000 + k)) && port_free $((p + 11000 + k)) || { ok=0; break; }
    done
    (( ok )) && { echo "$p"; return 0; }
  done
  echo "no free port range found" >&2
  exit 1
}

# starts the private redis-server (no persistence) and waits for PONG
redis_start() {
  mkdir -p "$WORK/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis" \
    >"$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  REDIS_PIDS=("$REDIS_PID") REDIS_PORTS=("$REDIS_PORT") REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done
  echo "redis-server on $REDIS_PORT did not answer" >&2
  exit 1
}

# starts a private Redis Cluster of $1 masters, no replicas, no persistence (master k on PORT+1000+k), gives master
# k the k-th of $1 equal ranges of the 16,384 hash slots (CLUSTER ADDSLOTSRANGE: redis-cli --cluster create refuses
# fewer than 3 masters), joins them (CLUSTER MEET) and waits until every master says cluster_state:ok. The nodes get
# every master's URL as --redis; a cluster of one master gets its URL twice (two or more URLs mean a Redis Cluster).
redis_cluster_start() {
  local m=$1 k p
  REDIS_PIDS=() REDIS_PORTS=()
  for k in $(seq 0 $((m - 1))); do
    p=$((PORT + 1000 + k))
    mkdir -p "$WORK/redis$k"
    redis-server --port "$p" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis$k" \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000 \
      >"$WORK/redis$k.log" 2>&1 &
    REDIS_PIDS[$k]=$! REDIS_PORTS[$k]=$p
  done
  for p in "${REDIS_PORTS[@]}"; do
    for _ in $(seq 1 100); do redis-cli -p "$p" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
    redis-cli -p "$p" ping 2>/dev/null | grep -q PONG || { echo "redis-server on $p did not answer" >&2; exit 1; }
  done
  for k in $(seq 0 $((m - 1))); do
    redis-cli -p "${REDIS_PORTS[$k]}" cluster addslotsrange $(( k * 16384 / m )) $(( (k + 1) * 16384 / m - 1 )) \
      | grep -q OK || { echo "CLUSTER ADDSLOTSRANGE failed on ${REDIS_PORTS[$k]}" >&2; exit 1; }
    (( k > 0 )) && redis-cli -p "${REDIS_PORTS[0]}" cluster meet 127.0.0.1 "${REDIS_PORTS[$k]}" >/dev/null
  done
  local deadline=$(( $(now_ms) + 30000 )) ok
  while (( $(now_ms) < deadline )); do
    ok=1
    for p in "${REDIS_PORTS[@]}"; do
      redis-cli -p "$p" cluster info | tr -d '\r' | grep -q "^cluster_state:ok" || ok=0
      [[ "$(redis-cli -p "$p" cluster info | tr -d '\r' | awk -F: '$1 == "cluster_known_nodes" { print $2 }')" == "$m" ]] \
        || ok=0
    done
    (( ok )) && break
    sleep 0.2
  done
  (( ok )) || { echo "the Redis Cluster of $m masters did not reach cluster_state:ok within 30 s" >&2; exit 1; }
  REDIS_URL=
  for p in "${REDIS_PORTS[@]}"; do REDIS_URL+="${REDIS_URL:+,}redis://127.0.0.1:$p"; done
  (( m == 1 )) && REDIS_URL+=",$REDIS_URL"
  return 0
}

# stops every redis-server started (standalone or cluster) and removes their directories
redis_stop() {
  local p
  for p in "${REDIS_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${REDIS_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$WORK"/redis*
  REDIS_PIDS=() REDIS_PORTS=() REDIS_PID=
}

# starts node i (n$i) on the private Redis
start_node() {
  local i=$1
  mkdir -p "$WORK/data$i"
  local lease=()
  [[ -n "${LEASE:-}" ]] && lease=(--lease-ms "$LEASE")
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:--Xmx700m} -jar "$JAR" --store redis --redis "$REDIS_URL" --cluster \
    --node-id "n$i" --advertise "$(url "$i")" --partitions "$PARTS" "${lease[@]}" --port $((PORT + i)) \
    --data-dir "$WORK/data$i" --max-pending 100000000 >>"$WORK/node$i.out" 2>>"$WORK/node$i.err" &
  PIDS[$i]=$!
}

# waits until nodes 0..n-1 answer /health, then until node 0 sees n nodes owning all partitions
await_cluster() {
  local n=$1
  for i in $(seq 0 $((n - 1))); do
    for _ in $(seq 1 600); do
      curl -sf --max-time 2 "$(url "$i")/health" >/dev/null 2>&1 && break
      kill -0 "${PIDS[$i]}" 2>/dev/null || { cat "$WORK/node$i.err" >&2; exit 1; }
      sleep 0.1
    done
  done
  local deadline=$(( $(now_ms) + 120000 ))
  while (( $(now_ms) < deadline )); do
    local k
    k=$(curl -s --max-time 5 "$(url 0)/v1/cluster" \
      | jq -r '"\([.owners[] | select(.node != null) | .node] | unique | length) \([.owners[] | select(.node != null)] | length)"' \
        2>/dev/null || echo 0)
    [[ "$k" == "$n $PARTS" ]] && { sleep 2; return 0; }
    sleep 0.5
  done
  echo "$n nodes did not share the partitions within 120 s" >&2
  for i in $(seq 0 $((n - 1))); do tail -5 "$WORK/node$i.err" >&2 || true; done
  exit 1
}

# flushes the private Redis (every master), starts nodes 0..n-1 and waits until they share the partitions
start_nodes() {
  local n=$1 p
  for p in "${REDIS_PORTS[@]}"; do redis-cli -p "$p" flushall >/dev/null; done
  for i in $(seq 0 $((n - 1))); do rm -rf "$WORK/data$i"; start_node "$i"; done
  await_cluster "$n"
}

stop_nodes() {
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && wait "$p" 2>/dev/null || true; done
  PIDS=()
}

# the partitions node i owns, comma-separated (from node 0's /v1/cluster)
owned_of() {
  curl -s --max-time 5 "$(url 0)/v1/cluster" \
    | jq -r --arg n "n$1" '[.owners[] | select(.node == $n) | .partition] | join(",")'
}

# load NAME N DURATION CONNECTIONS SCRIPT [args after --]
# The args "-- @owned" become, for node i's wrk, "-- PARTS <the partitions node i owns>" (post.lua then sends every
# timer to its owner).
#   -> "ops/s node-us/op max-node-us/op redis-us/op non2xx node-us/op-nojit"
# one wrk per node (CONNECTIONS/N connections each), run at once; ops = requests (x batch size for batch.lua);
# CPU of nodes 0..N-1 and of every redis-server running. Needs WRK, WRKDIR (bench/wrk) and TCK (getconf CLK_TCK).
load() {
  local name=$1 n=$2 dur=$3 conns=$4 script=$5; shift 5
  local per=$(( conns / n > 0 ? conns / n : 1 ))
  local -a c0 c1 j0 j1 wp own=()
  if [[ "${2:-}" == @owned ]]; then
    for i in $(seq 0 $((n - 1))); do own[$i]=$(owned_of "$i"); done
  fi
  # this load's outputs only: an earlier load of this name on more nodes left files of nodes this one does not use
  rm -f "$WORK/$name".*.txt
  for i in $(seq 0 $((n - 1))); do c0[$i]=$(ticks "${PIDS[$i]}"); j0[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  local r0 r1
  [[ -n "${COMMANDSTATS:-}" ]] && commandstats_reset
  r0=$(redis_ticks)
  for i in $(seq 0 $((n - 1))); do
    if [[ "${2:-}" == @owned ]]; then
      "$WRK" -t1 -c"$per" -d"$dur" -s "$WRKDIR/$script" "$(url "$i")" -- "$PARTS" "${own[$i]}" \
        >"$WORK/$name.$i.txt" 2>&1 &
    else
      "$WRK" -t1 -c"$per" -d"$dur" -s "$WRKDIR/$script" "$(url "$i")" "$@" >"$WORK/$name.$i.txt" 2>&1 &
    fi
    wp[$i]=$!
  done
  for i in $(seq 0 $((n - 1))); do wait "${wp[$i]}" || true; done
  for i in $(seq 0 $((n - 1))); do c1[$i]=$(ticks "${PIDS[$i]}"); j1[$i]=$(ticks_nojit "${PIDS[$i]}"); done
  r1=$(redis_ticks)
  local sum=0 max=0 d jit=0
  for i in $(seq 0 $((n - 1))); do
    d=$(( c1[i] - c0[i] )); sum=$(( sum + d )); (( d > max )) && max=$d
    jit=$(( jit + j1[i] - j0[i] ))
  done
  local mult=1
  [[ "$script" == batch.lua ]] && mult=${2:-1000}
  if [[ -n "${COMMANDSTATS:-}" ]]; then
    local ops
    ops=$(cat "$WORK/$name".*.txt | awk -v mult="$mult" '/ requests in / { n += $1 } END { print n * mult }')
    commandstats_per_op "$ops" >"$WORK/$name.commandstats"
  fi
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

# the trap: nodes, Redis, the temp directory
cleanup_all() {
  stop_nodes
  local p
  for p in "${REDIS_PIDS[@]:-}"; do [[ -n "$p" ]] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
