#!/usr/bin/env bash
# Failover time of a tickwheel cluster: kill -9 one node → first firing, on a survivor, of a partition the killed
# node owned, for a timer due after the kill (so the time measured is the take-over, not a backlog).
# With --signal term: SIGTERM instead (a rolling restart's stop): the node hands its partitions over and exits; the
# hand-over time is how late the worst firing of its partitions due after the signal came (max-late-ms), since a
# timer due while a partition is between owners fires only once the next owner has loaded it.
#
# Starts a private redis-server (loopback, port = --port + 1000, no persistence) and N nodes of
# server/target/tickwheel.jar (--store redis --cluster --lease-ms L, ports --port .. --port+N-1). Each round:
#   1. creates timers due continuously (one every --every-ms over the next --span-s seconds, ids random so they spread
#      over all partitions), POSTed in batches of 1,000 to the first survivor (it routes them to the owners);
#   2. reads the victim's partitions from a survivor's GET /v1/cluster owners, and listens to a survivor's SSE
#      /v1/events?topic=<round topic> (the cluster-wide stream: every partition's firings);
#   3. waits --pre-s seconds, notes the kill instant (ms, this machine's clock = the nodes' clock) and kill -9s the
#      victim (round r kills node (r-1) mod N, so each node dies in turn); with --signal term, SIGTERMs it and waits
#      for it to exit (exit-ms: signal to exit; its exit code must be 0);
#   4. waits --lease-ms + --wait-extra-s (--signal term: --wait-extra-s), then failover = min(firedAt) - kill over
#      firings whose partition the victim owned and whose dueAt > kill (with kill -9, fired 100 ms or more after it:
#      one fired in the instant before the signal landed is the victim's own). Also prints how many such firings came and
#      the most and the 99th percentile of their lateness (firedAt - dueAt);
#   5. restarts the victim and waits until it owns partitions again (and the cluster has N nodes).
# Prints every round and the median and max of the failover times.
#
# Usage: bench/cluster/failover.sh [--signal kill|term] [--nodes 3] [--rounds 10] [--lease-ms 6000] [--port 8189] [--every-ms 5]
#                                  [--span-s 40] [--pre-s 3] [--wait-extra-s 5] [--partitions 256] [--jar PATH]
# Env:   JAVA_OPTS (extra JVM flags for the nodes; default -Xmx512m)
# Needs: redis-server, redis-cli, curl, jq, and the jar: mvn -B -ntp -q -pl server -am package -DskipTests
set -euo pipefail

NODES=3 ROUNDS=10 LEASE=6000 PORT=8189 EVERY=5 SPAN=40 PRE=3 EXTRA=5 PARTS=256 JAR= SIGNAL=kill
while [[ $# -gt 0 ]]; do
  case "$1" in
    --signal) SIGNAL=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --lease-ms) LEASE=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --every-ms) EVERY=$2; shift 2 ;;
    --span-s) SPAN=$2; shift 2 ;;
    --pre-s) PRE=$2; shift 2 ;;
    --wait-extra-s) EXTRA=$2; shift 2 ;;
    --partitions) PARTS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

[[ "$SIGNAL" == kill || "$SIGNAL" == term ]] || { echo "--signal must be kill or term, was '$SIGNAL'" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-"$ROOT/server/target/tickwheel.jar"}
[[ -f "$JAR" ]] || { echo "no $JAR: run 'mvn -B -ntp -q -pl server -am package -DskipTests' first" >&2; exit 2; }
for c in redis-server redis-cli curl jq; do command -v $c >/dev/null || { echo "$c not found" >&2; exit 2; }; done

WORK=$(mktemp -d /tmp/tickwheel-failover.XXXXXX)
REDIS_PORT=$((PORT + 1000))
REDIS_PID=
SSE_PID=
declare -a PIDS
cleanup() {
  [[ -n "$SSE_PID" ]] && kill "$SSE_PID" 2>/dev/null || true
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]:-}"; do [[ -n "$p" ]] && wait "$p" 2>/dev/null || true; done
  [[ -n "$REDIS_PID" ]] && kill "$REDIS_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
url() { echo "http://127.0.0.1:$((PORT + $1))"; }

mkdir -p "$WORK/redis"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$WORK/redis" \
  >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done

start_node() {
  local i=$1
  mkdir -p "$WORK/data$i"
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:--Xmx512m} -jar "$JAR" --store redis --redis "redis://127.0.0.1:$REDIS_PORT" --cluster \
    --node-id "n$i" --advertise "$(url "$i")" --partitions "$PARTS" --lease-ms "$LEASE" \
    --port $((PORT + i)) --data-dir "$WORK/data$i" --max-pending 100000000 \
    >>"$WORK/node$i.out" 2>>"$WORK/node$i.err" &
  PIDS[$i]=$!
}

# owners of node i's partitions as seen by node j: prints "partition" lines
owned_by() { curl -s --max-time 5 "$(url "$2")/v1/cluster" | jq -r --arg n "n$1" '.owners[] | select(.node == $n) | .partition' | sort; }

# waits until node j sees every node owning at least one partition and every partition owned by a live node
wait_balanced() {
  local j=$1 deadline=$(( $(now_ms) + 120000 ))
  while (( $(now_ms) < deadline )); do
    local n
    n=$(curl -s --max-time 5 "$(url "$j")/v1/cluster" 2>/dev/null \
      | jq -r '"\([.owners[] | select(.node != null) | .node] | unique | length) \([.owners[] | select(.node != null)] | length)"' \
        2>/dev/null || echo 0)
    [[ "$n" == "$NODES $PARTS" ]] && { sleep 3; return 0; }
    sleep 0.5
  done
  echo "cluster did not balance over $NODES nodes within 120 s" >&2
  for i in $(seq 0 $((NODES - 1))); do tail -5 "$WORK/node$i.err" >&2 || true; done
  exit 1
}

for i in $(seq 0 $((NODES - 1))); do start_node "$i"; done
for i in $(seq 0 $((NODES - 1))); do
  for _ in $(seq 1 600); do
    curl -sf --max-time 2 "$(url "$i")/health" >/dev/null 2>&1 && break
    kill -0 "${PIDS[$i]}" 2>/dev/null || { cat "$WORK/node$i.err" >&2; exit 1; }
    sleep 0.1
  done
done
wait_balanced 0

# creates timers due every EVERY ms over the next SPAN s on topic $2 through node $1 (batches of 1,000)
create_timers() {
  local via=$1 topic=$2 total=$((SPAN * 1000 / EVERY)) tag
  tag=$(head -c6 /dev/urandom | od -An -tx1 | tr -d ' \n')
  local k=0
  while (( k < total )); do
    local m=$(( total - k < 1000 ? total - k : 1000 ))
    jq -nc --arg p "$tag" --arg t "$topic" --argjson k "$k" --argjson m "$m" --argjson e "$EVERY" \
      '{timers: [range($k; $k + $m) | {id: ($p + "-" + tostring), topic: $t, delayMs: (1000 + . * $e)}]}' \
      >"$WORK/batch.json"
    # a 503 (partition between owners) is retried; 409 on a retry means the first attempt created it
    local ok=0
    for _ in $(seq 1 20); do
      curl -s --max-time 30 -H 'Content-Type: application/json' --data-binary @"$WORK/batch.json" \
        "$(url "$via")/v1/timers/batch" >"$WORK/batch.out" || true
      if jq -e '[.results[] | select(.status != 201 and .status != 409)] | length == 0' "$WORK/batch.out" \
        >/dev/null 2>&1; then ok=1; break; fi
      sleep 0.5
    done
    (( ok )) || { echo "batch create failed: $(head -c 600 "$WORK/batch.out")" >&2; exit 1; }
    k=$((k + m))
  done
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "tickwheel failover bench: signal=$SIGNAL nodes=$NODES rounds=$ROUNDS lease-ms=$LEASE partitions=$PARTS" \
  "timers every ${EVERY} ms over ${SPAN} s, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-7s %11s %8s %12s %14s %12s %12s %14s\n' round victim partitions exit-ms failover-ms firings \
  p99-late-ms max-late-ms cluster-back-ms
RESULTS=() LATES=()
for r in $(seq 1 "$ROUNDS"); do
  victim=$(( (r - 1) % NODES ))
  via=$(( (victim + 1) % NODES ))
  topic="fo$r-$(date +%s)"
  : >"$WORK/sse$r.txt"
  curl -sN "$(url "$via")/v1/events?topic=$topic" >"$WORK/sse$r.txt" 2>/dev/null &
  SSE_PID=$!
  create_timers "$via" "$topic"
  owned_by "$victim" "$via" >"$WORK/owned-a$r.txt"
  sleep "$PRE"
  # the victim's partitions: those it owned both after the timers were created and just before the kill (a partition
  # moving between owners at that time is left out)
  owned_by "$victim" "$via" >"$WORK/owned-b$r.txt"
  comm -12 "$WORK/owned-a$r.txt" "$WORK/owned-b$r.txt" >"$WORK/victim$r.txt"
  kill_ms=$(now_ms)
  if [[ "$SIGNAL" == term ]]; then
    kill -TERM "${PIDS[$victim]}"
    rc=0
    wait "${PIDS[$victim]}" 2>/dev/null || rc=$?
    exit_ms=$(( $(now_ms) - kill_ms ))
    (( rc == 0 )) || { echo "n$victim exited $rc after SIGTERM: $(tail -5 "$WORK/node$victim.err")" >&2; exit 1; }
    PIDS[$victim]=
    sleep "$EXTRA"
  else
    kill -9 "${PIDS[$victim]}"
    wait "${PIDS[$victim]}" 2>/dev/null || true
    exit_ms=-
    PIDS[$victim]=
    sleep $(( (LEASE + 999) / 1000 + EXTRA ))
  fi
  kill "$SSE_PID" 2>/dev/null || true
  wait "$SSE_PID" 2>/dev/null || true
  SSE_PID=
  # firings of the victim's partitions due after the kill: failover = first firedAt - kill, of those fired 100 ms or
  # more after it (with kill -9: a firing in the instant before the signal landed is the victim's own, not a take-over)
  gone_ms=$kill_ms
  [[ "$SIGNAL" == kill ]] && gone_ms=$(( kill_ms + 100 ))
  read -r fo cnt p99late maxlate < <(sed -n 's/^data: *//p' "$WORK/sse$r.txt" \
    | jq -sr --argjson kill "$kill_ms" --argjson gone "$gone_ms" --slurpfile parts <(jq -R 'tonumber' "$WORK/victim$r.txt" | jq -s .) '
        ($parts[0] | map({(tostring): true}) | add // {}) as $p
        | [.[] | select(.type == "fired" and ($p[(.partition | tostring)] // false) and .dueAt > $kill)]
        | if length == 0 then "none 0 0 0"
          else (map(.firedAt - .dueAt) | sort) as $late
            | "\(([.[] | .firedAt | select(. > $gone)] | min // "none") as $f | if $f == "none" then $f else $f - $kill end) \(length) \($late[((length * 99 + 99) / 100 | floor) - 1]) \($late[-1])"
          end')
  start_node "$victim"
  back0=$(now_ms)
  wait_balanced "$via"
  back=$(( $(now_ms) - back0 ))
  printf '%-6s %-7s %11s %8s %12s %14s %12s %12s %14s\n' "$r" "n$victim" "$(wc -l <"$WORK/victim$r.txt")" "$exit_ms" \
    "$fo" "$cnt" "$p99late" "$maxlate" "$back"
  [[ "$fo" != none ]] && RESULTS+=("$fo") && LATES+=("$maxlate")
  # let the rest of this round's timers fire (or be taken over) before the next round's
  sleep 2
done
if (( ${#RESULTS[@]} > 0 )) && [[ "$SIGNAL" == term ]]; then
  printf 'hand-over ms (SIGTERM -> the latest firing of its partitions due after the signal, max-late-ms): median %s max %s over %d rounds\n' \
    "$(printf '%s\n' "${LATES[@]}" | median)" "$(printf '%s\n' "${LATES[@]}" | sort -g | tail -1)" "${#LATES[@]}"
elif (( ${#RESULTS[@]} > 0 )); then
  printf 'failover ms (kill -9 -> first firing of a taken-over partition due after the kill): median %s max %s over %d rounds (lease %d ms)\n' \
    "$(printf '%s\n' "${RESULTS[@]}" | median)" "$(printf '%s\n' "${RESULTS[@]}" | sort -g | tail -1)" \
    "${#RESULTS[@]}" "$LEASE"
else
  echo "no round measured a failover" >&2
  exit 1
fi
