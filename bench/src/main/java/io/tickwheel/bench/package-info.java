/**
 * Benchmarks that stand alone: {@link io.tickwheel.bench.DeliveryBench} (callback deliveries against the server jar).
 */
package io.tickwheel.bench;
