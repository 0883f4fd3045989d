package io.tickwheel.server.push;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The push meters, per transport ({@code transport} tag {@code ws} or {@code sse}):
 * <ul>
 *   <li>{@code tickwheel.push.subscribers} (gauge): connected subscribers;</li>
 *   <li>{@code tickwheel.push.firings.delivered} (counter): firings handed to a subscriber's socket, live or replayed;</li>
 *   <li>{@code tickwheel.push.firings.replayed} (counter): firings read back from the store for resuming subscribers;</li>
 *   <li>{@code tickwheel.push.slow.closes} (counter): subscribers closed for not keeping up;</li>
 *   <li>{@code tickwheel.push.gaps} (counter): resumes that found firings already trimmed from the log.</li>
 * </ul>
 * Counters are thread safe; the gauges read atomics, so a scrape from any thread is fine.
 */
final class PushMetrics {

  /** The meters of one transport. */
  static final class Transport {
    final String name;
    final AtomicInteger subscribers = new AtomicInteger();
    final Counter delivered;
    final Counter replayed;
    final Counter slowCloses;
    final Counter gaps;

    private Transport(String name, MeterRegistry r, List<Meter> registered) {
      this.name = name;
      registered.add(Gauge.builder("tickwheel.push.subscribers", subscribers, AtomicInteger::get)
          .description("Connected firing subscribers").tag("transport", name).register(r));
      delivered = counter(r, registered, "tickwheel.push.firings.delivered",
          "Firings written to subscribers (live and replayed)", name);
      replayed = counter(r, registered, "tickwheel.push.firings.replayed",
          "Firings read back from the firing log for resuming subscribers", name);
      slowCloses = counter(r, registered, "tickwheel.push.slow.closes",
          "Subscribers closed because they could not keep up", name);
      gaps = counter(r, registered, "tickwheel.push.gaps",
          "Resumes that asked for firings already trimmed from the log", name);
    }

    private static Counter counter(MeterRegistry r, List<Meter> registered, String meter, String help, String transport) {
      Counter c = Counter.builder(meter).description(help).tag("transport", transport).register(r);
      registered.add(c);
      return c;
    }
  }

  final Transport ws;
  final Transport sse;
  private final MeterRegistry registry;
  private final List<Meter> registered = new ArrayList<>();

  PushMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.ws = new Transport("ws", registry, registered);
    this.sse = new Transport("sse", registry, registered);
  }

  /** Removes the meters from the registry (when the hub closes), so a new hub can register fresh ones. */
  void unregister() {
    for (Meter m : registered) {
      registry.remove(m);
    }
    registered.clear();
  }
}
