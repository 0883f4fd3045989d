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
 * <p>Thread safe: lookups read a copy-on-write array; new pairs are added under the object's lock.
 */
public final class RouteMeters {

  private record Entry(String method, int status, Timer timer) {}

  private final MeterRegistry registry;
  private final String route;
  private volatile Entry[] entries = new Entry[0];

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
    timer(method, status).record(nanos, TimeUnit.NANOSECONDS);
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
    Timer t = Timer.builder("tickwheel.http.requests")
        .tag("method", method).tag("route", route).tag("status", Integer.toString(status))
        .description("HTTP request latency").publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
    Entry[] next = java.util.Arrays.copyOf(now, now.length + 1);
    next[now.length] = new Entry(method, status, t);
    entries = next;
    return t;
  }
}
