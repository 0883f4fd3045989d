package io.tickwheel.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Callback delivery meters: {@code tickwheel.delivery.attempts} (counter by {@code outcome}: {@code 2xx}, {@code 3xx},
 * {@code 4xx}, {@code 410}, {@code 429}, {@code 5xx}, {@code timeout}, {@code connection}, {@code blocked_address}, {@code dns_error}),
 * {@code tickwheel.delivery.attempt.latency} (histogram by {@code outcome}), {@code tickwheel.delivery.postponed}
 * (by {@code reason}: {@code breaker_open}, {@code host_queue_full}), the gauges {@code tickwheel.deliveries.pending},
 * {@code tickwheel.deliveries.dead} and {@code tickwheel.delivery.breakers.open}. A bounded set of label values (no
 * host or URL labels: their number is the users'). Thread safe.
 */
public final class DeliveryMetrics {

  private final MeterRegistry registry;
  private final Map<String, Counter> attempts = new ConcurrentHashMap<>();
  private final Map<String, Timer> latency = new ConcurrentHashMap<>();
  private final Map<String, Counter> postponed = new ConcurrentHashMap<>();

  public DeliveryMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** One attempt ended with {@code outcome} after {@code durationMs}. */
  public void attempt(String outcome, long durationMs) {
    attempts.computeIfAbsent(outcome, o -> Counter.builder("tickwheel.delivery.attempts")
        .description("callback delivery attempts by outcome").tag("outcome", o).register(registry)).increment();
    latency.computeIfAbsent(outcome, o -> Timer.builder("tickwheel.delivery.attempt.latency")
        .description("callback attempt duration by outcome (resolution, connect, answer)").tag("outcome", o)
        .publishPercentileHistogram().register(registry)).record(durationMs, TimeUnit.MILLISECONDS);
  }

  /** An attempt was postponed without being used up. */
  public void postponed(String reason) {
    postponed.computeIfAbsent(reason, r -> Counter.builder("tickwheel.delivery.postponed")
        .description("callback attempts postponed without being used up").tag("reason", r).register(registry))
        .increment();
  }

  /** The gauges: pending deliveries held, dead ones stored (as last counted), open breakers. */
  public void gauges(Supplier<Number> pending, Supplier<Number> dead, Supplier<Number> openBreakers) {
    Gauge.builder("tickwheel.deliveries.pending", pending).description("callback deliveries pending")
        .register(registry);
    Gauge.builder("tickwheel.deliveries.dead", dead).description("callback deliveries dead (as last counted)")
        .register(registry);
    Gauge.builder("tickwheel.delivery.breakers.open", openBreakers)
        .description("hosts whose circuit breaker is open or half-open").register(registry);
  }
}
