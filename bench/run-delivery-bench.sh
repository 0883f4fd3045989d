#!/usr/bin/env bash
# Callback delivery throughput and latency (see bench/README.md, "Callback delivery"): builds the server's shaded jar
# and the bench module, then runs DeliveryBench against the jar in a child process. Options go to DeliveryBench
# (--count 10000 --hanging 1000 --store memory --rounds 3). --no-build (first) uses the jars already built.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--no-build" ]]; then
  shift
else
  mvn -q -pl server,bench -am -DskipTests package
fi
exec java -Xmx1g -cp bench/target/benchmarks.jar io.tickwheel.bench.DeliveryBench --jar server/target/tickwheel.jar "$@"
