#!/usr/bin/env bash
# Load test of a real tickwheel over HTTP + WebSocket with io.tickwheel.bench.load.LoadTool.
#
#   bench/run-load.sh --quick                    # throughput, lateness, burst, heartbeat on rocksdb and memory, < 5 min
#   bench/run-load.sh --full                     # the issue's sizes: 1M pending, 10,000 firings/s, 100k burst, ...
#   bench/run-load.sh --quick --store memory --scenario burst      # later options override the preset
#   bench/run-load.sh --compare                  # tickwheel (rocksdb, redis) side by side with quartz-jdbc, db-scheduler
#                                                # and redisson-delayed-queue, < 10 min; ratio table, CSV and SVG chart
#                                                # in bench/results/compare.{csv,svg}
#   bench/run-load.sh --scale                    # issue 28's node: 10M pending on RocksDB with a 10-min window, the
#                                                # server under README's production flags (SCALE_SERVER_JAVA_OPTS),
#                                                # a 60 s stream at 10,000/s (100 timers every 10 ms, after a 15 s
#                                                # warm-up), heap after full GC, RSS, kill -9; the server with a
#                                                # class data sharing archive of the jar (NO_CDS=1: without); ~3 min
#   bench/run-load.sh --url http://127.0.0.1:8080 --scenario throughput --timers 100000
#
# --compare needs PostgreSQL on 127.0.0.1:5432 (database test, trust auth) and Redis on 127.0.0.1:6379.
# Builds server/target/tickwheel.jar and bench/target/benchmarks.jar unless --no-build is given first. Each run
# holds /tmp/tickwheel-measure.lock (flock) so measurements of several people do not overlap.
# Env: LOAD_JAVA_OPTS (client JVM flags, default -Xmx1g), LOAD_SERVER_JAVA_OPTS (JVM flags of a --server-jar server,
#      e.g. -XX:+UseZGC), LOAD_FIRINGS_CSV=FILE (tickwheel targets: every firing received as dueAt,firedAt,receivedAt;
#      bench/wrk/firings-timeline.py reads it), NO_LOCK=1 to skip the lock, LOAD_JAVA (the tool's java binary, and so
#      a --server-jar server's: it starts the server with its own java.home; default java on the PATH), e.g.
#      LOAD_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java LOAD_SERVER_JAVA_OPTS="-Xms1g -Xmx1g -XX:+UseZGC".
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=1
SCALE=0
# The server JVM flags of README's "Running in production" for a node of 10M pending with a window (--scale).
SCALE_SERVER_JAVA_OPTS="-Xms1g -Xmx1g"
if [[ "${1:-}" == "--no-build" ]]; then BUILD=0; shift; fi
PRESET=()
case "${1:-}" in
  --quick) shift; PRESET=(--server-jar server/target/tickwheel.jar --store rocksdb,memory
             --scenario throughput,lateness,burst,heartbeat --timers 30000 --warmup 10000 --concurrency 64
             --pending 100000 --firing-rate 2000 --window-ms 10000 --burst 20000 --keys 10000 --duration-s 10) ;;
  --full) shift; PRESET=(--server-jar server/target/tickwheel.jar --store rocksdb,memory --scenario all
             --timers 200000 --warmup 50000 --concurrency 64 --pending 1000000 --firing-rate 10000 --window-ms 30000
             --burst 100000 --keys 100000 --duration-s 30) ;;
  --compare) shift; PRESET=(--server-jar server/target/tickwheel.jar
             --target tickwheel,quartz-jdbc,db-scheduler,redisson-delayed-queue --store rocksdb,redis
             --redis redis://127.0.0.1:6379 --jdbc-url jdbc:postgresql://127.0.0.1:5432/test
             --scenario throughput,lateness,burst --timers 200000 --warmup 200000 --warmup-ms 20000 --throughput-ms 5000
             --concurrency 64 --batch-size 1000
             --batch-concurrency 2 --pending 20000 --firing-rate 500 --window-ms 10000 --burst 5000
             --csv bench/results/compare.csv --chart bench/results/compare.svg)
             mkdir -p bench/results ;;
  --scale) shift; SCALE=1; PRESET=(--server-jar server/target/tickwheel.jar --store rocksdb --tickwheel-mode client
             --scenario scale --pending 10000000 --firing-rate 10000 --duration-s 60 --concurrency 64
             --batch-size 1000 --batch-concurrency 2 --stream-slot-ms 10 --lateness-warmup-ms 15000)
             export LOAD_SERVER_JAVA_OPTS="${LOAD_SERVER_JAVA_OPTS:-$SCALE_SERVER_JAVA_OPTS}"
             # the window given explicitly, whatever the server's default
             export LOAD_SERVER_ARGS="${LOAD_SERVER_ARGS:---window-ms 600000}" ;;
esac

if [[ $BUILD == 1 ]]; then
  mvn -q -pl server,bench -am -DskipTests package
fi

# A preset's server jar is copied first, so a rebuild by someone else during the run cannot change the server
# between scenarios (each reset starts it again).
PIN_DIR=""
if [[ ${#PRESET[@]} -gt 0 ]]; then
  PIN_DIR=$(mktemp -d /tmp/tickwheel-load-jar-XXXXXX)
  cp server/target/tickwheel.jar "$PIN_DIR/tickwheel.jar"
  trap 'rm -rf "$PIN_DIR"' EXIT
  PRESET=("${PRESET[@]/#server\/target\/tickwheel.jar/$PIN_DIR/tickwheel.jar}")
fi

# --scale: the server starts with a class data sharing archive of the pinned jar, as README's "Running in production"
# recommends (made by one start and SIGTERM, as a deployment would make it; NO_CDS=1 leaves it out).
if [[ $SCALE == 1 && "${NO_CDS:-0}" != 1 ]]; then
  mkdir -p "$PIN_DIR/cds-data"
  ${LOAD_JAVA:-java} -XX:ArchiveClassesAtExit="$PIN_DIR/tickwheel.jsa" -jar "$PIN_DIR/tickwheel.jar" --host 127.0.0.1 \
    --port 0 --store rocksdb --data-dir "$PIN_DIR/cds-data" >"$PIN_DIR/cds.out" 2>&1 &
  CDS_PID=$!
  for _ in $(seq 1 600); do grep -qs "tickwheel listening" "$PIN_DIR/cds.out" && break; sleep 0.1; done
  kill -TERM "$CDS_PID" 2>/dev/null || true; wait "$CDS_PID" || true
  if [[ -s "$PIN_DIR/tickwheel.jsa" ]]; then
    export LOAD_SERVER_JAVA_OPTS="$LOAD_SERVER_JAVA_OPTS -XX:SharedArchiveFile=$PIN_DIR/tickwheel.jsa"
  else
    echo "no class data sharing archive made (see $PIN_DIR/cds.out); the server starts without one" >&2
  fi
fi

CMD=(${LOAD_JAVA:-java} ${LOAD_JAVA_OPTS:--Xmx1g} -cp bench/target/benchmarks.jar io.tickwheel.bench.load.LoadTool "${PRESET[@]}" "$@")
echo "+ ${CMD[*]}"
if [[ "${NO_LOCK:-0}" == 1 ]] || ! command -v flock >/dev/null; then
  "${CMD[@]}"
else
  flock /tmp/tickwheel-measure.lock "${CMD[@]}"
fi
