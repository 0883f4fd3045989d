package io.tickwheel.server.route;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The routing meters: {@code tickwheel_routed_calls_total{outcome}} (every call a cluster node served:
 * {@code local}, {@code forwarded} (the owner answered), {@code not_owner} (a forwarded call for a partition this
 * node no longer serves), {@code no_owner}, {@code full} (the cap of forwarded calls in flight), {@code timeout},
 * {@code unreachable}), {@code tickwheel_forward_seconds} (histogram of forwarded calls, from send to whole answer)
 * {@code tickwheel_forwards_in_flight} and {@code tickwheel_forward_transport_calls_total{transport}}.
 *
 * <p>Thread safe.
 */
final class RouteMetrics {

  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Counter> outcomes = new ConcurrentHashMap<>();
  private final Timer latency;

  public RouteMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.latency = Timer.builder("tickwheel.forward").description("forwarded calls, from send to the owner's whole answer")
        .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(50_000))
        .maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
  }

  /** Registers the gauge of forwarded calls in flight. */
  public void inFlightGauge(Supplier<Number> n) {
    io.micrometer.core.instrument.Gauge.builder("tickwheel.forwards.in.flight", n)
        .description("forwarded calls in flight").register(registry);
  }

  /**
   * Registers {@code tickwheel_forward_transport_calls_total{transport}}: forwarded calls sent over a call socket
   * ({@code socket}) and as a {@code POST} ({@code post}).
   */
  void transportCounters(CallSockets sockets) {
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.forward.transport.calls", sockets,
        x -> x.overSocket).tag("transport", "socket")
        .description("forwarded calls by how they were sent").register(registry);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.forward.transport.calls", sockets,
        x -> x.posted).tag("transport", "post")
        .description("forwarded calls by how they were sent").register(registry);
  }

  /** Counts {@code n} routed calls (or batch items) with {@code outcome}. */
  public void routed(String outcome, int n) {
    outcomes.computeIfAbsent(outcome, o -> Counter.builder("tickwheel.routed.calls").tag("outcome", o)
        .description("calls (and batch items) served by a cluster node, by how they were routed").register(registry))
        .increment(n);
  }

  /** One forwarded call that took {@code nanos}. */
  public void forwarded(long nanos) {
    latency.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Forwarded requests sent so far (each single call, sub-batch or gathered batch is one). */
  public long forwardRequests() {
    return latency.count();
  }

  /** How many routed calls had {@code outcome} (tests). */
  public double count(String outcome) {
    Counter c = outcomes.get(outcome);
    return c == null ? 0 : c.count();
  }
}
