package io.tickwheel.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's meters, exported in Prometheus text at {@code /metrics}:
 * {@code tickwheel_pending_timers}, {@code tickwheel_paused_timers}, {@code tickwheel_paused_topics},
 * {@code tickwheel_firings_total}, {@code tickwheel_firing_lateness_seconds}
 * (histogram), {@code tickwheel_http_requests_seconds} (histogram by method, route, status),
 * {@code tickwheel_store_op_seconds} (histogram by op), {@code tickwheel_store_failures_total},
 * {@code tickwheel_subscribers}; and the JVM's own ({@link JvmMeters}: memory, GC pauses, threads, JIT compilation
 * time, CPU). Also keeps short windows of lateness and store latency for the live views.
 *
 * <p>Thread safe. {@link #close} when the server stops.
 */
public final class Metrics implements AutoCloseable {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Counter firings;
  private final Counter storeFailures;
  private final Timer lateness;
  private final JvmMeters jvm;
  private final ConcurrentHashMap<String, Timer> storeOps = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, RouteMeters> http = new ConcurrentHashMap<>();
  /** Firing lateness, milliseconds, windows of 1 s. */
  private final LatencyWindow latenessWindow = new LatencyWindow(TimeUnit.DAYS.toMillis(3650), 1_000_000_000L);
  /** Store call latency, microseconds, windows of 1 s. */
  private final LatencyWindow storeWindow = new LatencyWindow(TimeUnit.MINUTES.toMicros(10), 1_000_000_000L);

  public Metrics() {
    firings = Counter.builder("tickwheel.firings").description("firings recorded and pushed").register(registry);
    storeFailures = Counter.builder("tickwheel.store.failures")
        .description("store calls that failed (the scheduler retries firings)").register(registry);
    lateness = Timer.builder("tickwheel.firing.lateness")
        .description("how long after its due time a timer fired")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofHours(1))
        .register(registry);
    jvm = new JvmMeters(registry);
  }

  /** Stops the JVM meters' GC listeners; the registry still answers. Idempotent. */
  @Override
  public void close() {
    jvm.close();
  }

  /** The registry, for other components' meters (the firing hub's). */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Registers the pending-timers gauge. */
  public void pendingGauge(Supplier<Number> pending) {
    Gauge.builder("tickwheel.pending.timers", pending).description("timers waiting to fire").register(registry);
  }

  /** Registers the gauges of paused timers and paused topics. */
  public void pausedGauges(Supplier<Number> pausedTimers, Supplier<Number> pausedTopics) {
    Gauge.builder("tickwheel.paused.timers", pausedTimers).description("paused timers (counted as pending too)")
        .register(registry);
    Gauge.builder("tickwheel.paused.topics", pausedTopics).description("paused topics").register(registry);
  }

  /** Registers the subscribers gauge (WebSocket and SSE clients of firings). */
  public void subscribersGauge(Supplier<Number> subscribers) {
    Gauge.builder("tickwheel.subscribers", subscribers).description("connected firing subscribers").register(registry);
  }

  /** One firing, {@code latenessMs} after its due time. */
  public void fired(long latenessMs) {
    firings.increment();
    lateness.record(Math.max(0, latenessMs), TimeUnit.MILLISECONDS);
    latenessWindow.record(latenessMs);
  }

  /** One store call of kind {@code op} that took {@code nanos}. */
  public void storeCall(String op, long nanos, boolean failed) {
    storeOps.computeIfAbsent(op, o -> Timer.builder("tickwheel.store.op").tag("op", o)
        .description("store call latency").publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    storeWindow.record(nanos / 1000);
    if (failed) {
      storeFailures.increment();
    }
  }

  /**
   * The request meters of {@code route} (one object per route, the same for every call): hold on to it and
   * {@link RouteMeters#record} each answered request.
   */
  public RouteMeters httpRoute(String route) {
    return http.computeIfAbsent(route, r -> new RouteMeters(registry, r));
  }

  /** Recent firing lateness, milliseconds; {@code perSecond} is the firing rate. */
  public LatencyWindow.Stats latenessStats() {
    return latenessWindow.stats();
  }

  /** Recent store call latency, microseconds. */
  public LatencyWindow.Stats storeStats() {
    return storeWindow.stats();
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }
}
