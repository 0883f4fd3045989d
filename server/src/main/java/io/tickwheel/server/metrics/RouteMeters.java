package io.tickwheel.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The request latency meters of one route ({@code tickwheel_http_requests_seconds{method,route,status}}): one
 * Micrometer {@link Timer} per method and status, built the first time that pair is seen and then found by a scan
 * of a short array (a route sees a handful of pairs), so recording a request allocates nothing and builds no key.
 *
 * <p>Callers cannot grow the labels: a method outside {@link #METHOD_LABELS} counts as {@code OTHER}, and once a
 * route has {@value #MAX_EXACT_STATUS_PAIRS} pairs, a new status counts under its class ({@code 4xx}). A route
 * therefore has at most {@value #MAX_EXACT_STATUS_PAIRS} + 10 methods × 5 classes series. The route label itself is
 * the template the router matched ({@code /v1/timers/:id}), never the raw path.
 *
 * <p>Thread safe: lookups read a copy-on-write array; new pairs are added under the object's lock.
 */
public final class RouteMeters {

  /** The {@code method} label values: the standard methods, and {@code OTHER} for any other. */
  public static final java.util.Set<String> METHOD_LABELS =
      java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT", "OTHER");

  /** Pairs of a route that get the exact status; later ones get the status class. */
  public static final int MAX_EXACT_STATUS_PAIRS = 32;

  private record Entry(String method, int status, Timer timer) {}

  private static final String[] CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};

  private final MeterRegistry registry;
  private final String route;
  private volatile Entry[] entries = new Entry[0];
  private int exactPairs; // guarded by this

  RouteMeters(MeterRegistry registry, String route) {
    this.registry = registry;
    this.route = route;
  }

  /** The route's label. */
  public String route() {
    return route;
  }

  /** Records one answered request of {@code method} with {@code status} that took {@code nanos}. */
  public void record(String method, int status, long nanos) {
    timer(methodLabel(method), status).record(nanos, TimeUnit.NANOSECONDS);
  }

  /** {@code method} if it is one of {@link #METHOD_LABELS}, else {@code OTHER}. */
  public static String methodLabel(String method) {
    return method != null && METHOD_LABELS.contains(method) ? method : "OTHER";
  }

  private Timer timer(String method, int status) {
    for (Entry e : entries) {
      if (e.status == status && e.method.equals(method)) {
        return e.timer;
      }
    }
    return add(method, status);
  }

  private synchronized Timer add(String method, int status) {
    Entry[] now = entries;
    for (Entry e : now) {
      if (e.status == status && e.method.equals(method)) {
        return e.timer;
      }
    }
    // statuses outside 100..599 (none today) and those beyond the exact pairs count under their class; Micrometer
    // hands back the registered timer when a class series exists already
    boolean exact = status >= 100 && status <= 599 && exactPairs < MAX_EXACT_STATUS_PAIRS;
    String statusLabel = exact ? Integer.toString(status) : CLASSES[Math.min(4, Math.max(0, status / 100 - 1))];
    exactPairs += exact ? 1 : 0;
    Timer t = Timer.builder("tickwheel.http.requests")
        .tag("method", method).tag("route", route).tag("status", statusLabel)
        .description("HTTP request latency").publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
    Entry[] next = java.util.Arrays.copyOf(now, now.length + 1);
    next[now.length] = new Entry(method, status, t);
    entries = next;
    return t;
  }
}
