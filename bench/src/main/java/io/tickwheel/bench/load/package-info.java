/**
 * The load tool: a real server (or a peer) driven over its public API, with HdrHistogram for latency and lateness,
 * the scenarios, the comparison table and its chart. Each target implements {@link io.tickwheel.bench.load.TimerTarget}.
 *
 * <p>Talks to tickwheel only through HTTP, WebSocket and the Java client; starts servers through testkit.
 */
package io.tickwheel.bench.load;
