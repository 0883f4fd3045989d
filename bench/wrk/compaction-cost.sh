#!/usr/bin/env bash
# RocksDB's background CPU per created timer: a fresh RocksDB server gets N batches of 1,000 new timers due in 1 h
# (POST /v1/timers/batch, 4 in flight; nothing fires), then the script waits until the server is idle (its flushes and
# compactions done) and prints the CPU (utime + stime, /proc) per timer of the whole JVM, of RocksDB's compaction
# threads (rocksdb:low) and of its flush threads (rocksdb:high). The two last are what a change to the column
# families' options moves. What is left in memtables and in level 0 when the server goes idle is not counted, and
# options that leave more there (bigger write buffers, a higher level-0 trigger) look cheaper than they are: compare
# such options with runs long enough for that rest to be small, and repeat them (compaction CPU per timer varied by
# 0.3 µs between runs of one jar here).
#
# Usage: bench/wrk/compaction-cost.sh [--batches 6000] [--jar server/target/tickwheel.jar]
#        (from the repository root, after `mvn -q -DskipTests package`; needs curl, python3; hold the lock:
#         flock /tmp/tickwheel-measure.lock bench/wrk/compaction-cost.sh)
set -euo pipefail
NB=6000 JAR=server/target/tickwheel.jar
while [[ $# -gt 0 ]]; do
  case "$1" in
    --batches) NB=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
D=$(mktemp -d /tmp/tickwheel-compaction.XXXXXX)
PID=
trap '[[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$D"' EXIT
java -Xmx1g -jar "$JAR" --host 127.0.0.1 --port 0 --store rocksdb --data-dir "$D/data" >"$D/out" 2>&1 &
PID=$!
for _ in $(seq 1 300); do grep -qs "tickwheel listening" "$D/out" && break; sleep 0.1; done
url=$(sed -n 's/.*tickwheel listening on \(http:[^ ]*\).*/\1/p' "$D/out" | head -1)
[[ -n "$url" ]] || { cat "$D/out" >&2; exit 1; }
mkdir -p "$D/b"
python3 - "$D/b" "$NB" <<'PY'
import sys
d, nb = sys.argv[1], int(sys.argv[2])
for b in range(nb):
    with open('%s/%06d.json' % (d, b), 'w') as f:
        f.write('{"timers":[' + ','.join('{"id":"c%d-%d","topic":"bench","delayMs":3600000,"payload":{"n":%d}}'
                                         % (b, i, i) for i in range(1000)) + ']}')
PY
cpu() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
threads() {
  local t s=0
  for t in /proc/"$PID"/task/*; do
    [[ $(cat "$t/comm" 2>/dev/null) == "$1"* ]] && s=$((s + $(awk '{ print $14 + $15 }' "$t/stat")))
  done
  echo "$s"
}
c0=$(cpu) l0=$(threads rocksdb:low) h0=$(threads rocksdb:high)
ls "$D"/b/*.json | xargs -P 4 -I{} curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary @{} \
  "$url/v1/timers/batch"
for _ in $(seq 1 300); do          # idle: under 2 % of a core over 1 s (at most 5 min)
  a=$(cpu); sleep 1; (( $(cpu) - a <= 2 )) && break
done
c1=$(cpu) l1=$(threads rocksdb:low) h1=$(threads rocksdb:high)
pending=$(curl -s "$url/metrics" | awk '/^tickwheel_pending_timers/ { printf "%.0f", $2 }')
awk -v c=$((c1 - c0)) -v l=$((l1 - l0)) -v h=$((h1 - h0)) -v n=$((NB * 1000)) -v p="$pending" -v t="$(getconf CLK_TCK)" \
  'BEGIN { printf "timers %d (pending %s), CPU µs per timer: JVM %.2f, compaction %.2f, flush %.2f\n",
           n, p, c * 1e6 / t / n, l * 1e6 / t / n, h * 1e6 / t / n }'
