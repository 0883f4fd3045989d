# Shared by bench/cluster/*.sh (sourced): a private redis-server and N tickwheel cluster nodes on loopback.
# Needs before sourcing: PORT (node i listens on PORT+i, Redis on PORT+1000), PARTS, JAR, WORK (a temp directory).
# Optional: LEASE (--lease-ms, default the server's), JAVA_OPTS (default -Xmx700m).

REDIS_PORT=$((PORT + 1000))
REDIS_PID=
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

# starts the private redis-server (no persistence) and waits for PONG
redis_start() {
  mkdir -p "$WORK/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis" \
    >"$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done
  echo "redis-server on $REDIS_PORT did not answer" >&2
  exit 1
}

# starts node i (n$i) on the private Redis
start_node() {
  local i=$1
  mkdir -p "$WORK/data$i"
  local lease=()
  [[ -n "${LEASE:-}" ]] && lease=(--lease-ms "$LEASE")
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:--Xmx700m} -jar "$JAR" --store redis --redis "redis://127.0.0.1:$REDIS_PORT" --cluster \
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

# flushes the private Redis, starts nodes 0..n-1 and waits until they share the partitions
start_nodes() {
  local n=$1
  redis-cli -p "$REDIS_PORT" flushall >/dev/null
  for i in $(seq 0 $((n - 1))); do rm -rf "$WORK/data$i"; start_node "$i"; done
  await_cluster "$n"
}

stop_nodes() {
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && wait "$p" 2>/dev/null || true; done
  PIDS=()
}

# the trap: nodes, Redis, the temp directory
cleanup_all() {
  stop_nodes
  [[ -n "$REDIS_PID" ]] && kill "$REDIS_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
