#!/usr/bin/env bash
# Builds the bench module (and core, which it needs) from a clean clone and runs the wheel benchmark report:
# JMH, one fork per benchmark and parameter set, 1 x 0.8 s warm-up and 3 x 0.8 s measured iterations, then
# bytes per pending timer; about 4-5 minutes on 2 cores. Options are passed to WheelBenchReport
# (e.g. --workloads churn,cancel --pending 1000000 --prof gc). --no-build (first) runs the jar already built.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--no-build" ]]; then
  shift
else
  mvn -q -pl bench -am -DskipTests package
fi
exec java -Xmx2g -cp bench/target/benchmarks.jar io.tickwheel.bench.wheel.WheelBenchReport \
  --log bench/target/wheel-bench-jmh.log "$@"
