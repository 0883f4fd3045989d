package io.tickwheel.server.http;

import io.tickwheel.server.metrics.LatencyWindow;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.WheelSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.function.IntSupplier;

/**
 * The live wheel as JSON ({@code GET /v1/wheel}): {@code tickMs}, {@code now}, {@code pending}, {@code firedTotal},
 * {@code store}, {@code levels:[{level, slots, spanMs, cursor, count, occupancy:[timers per slot]}]} and
 * {@code lateness:{p50Ms, p99Ms, maxMs}} over the last second. The stream adds {@code stats}.
 *
 * <p>Owner context only (takes a {@link Scheduler#wheelSnapshot()}; never touches the wheel itself).
 */
public final class WheelView {

  private final Scheduler scheduler;
  private final Metrics metrics;
  private final IntSupplier subscribers;

  /** @param subscribers how many firing subscribers are connected */
  public WheelView(Scheduler scheduler, Metrics metrics, IntSupplier subscribers) {
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.subscribers = subscribers;
  }

  /** The snapshot {@code GET /v1/wheel} answers. */
  public JsonObject snapshot() {
    WheelSnapshot w = scheduler.wheelSnapshot();
    JsonArray levels = new JsonArray(new ArrayList<>(w.levels().size()));
    for (WheelSnapshot.Level l : w.levels()) {
      ArrayList<Object> counts = new ArrayList<>(l.slots());
      for (int count : l.occupancy()) {
        counts.add(count);
      }
      levels.add(new JsonObject()
          .put("level", l.level())
          .put("slots", l.slots())
          .put("spanMs", l.spanMs())
          .put("cursor", l.cursor())
          .put("count", l.count())
          .put("occupancy", new JsonArray(counts)));
    }
    LatencyWindow.Stats late = metrics.latenessStats();
    return new JsonObject()
        .put("tickMs", w.tickMs())
        .put("now", scheduler.now())
        .put("wheelTimeMs", w.wheelTimeMs())
        .put("pending", scheduler.pending())
        .put("firedTotal", scheduler.publishedTotal())
        .put("store", scheduler.storeName())
        .put("levels", levels)
        .put("lateness", new JsonObject()
            .put("p50Ms", late.p50())
            .put("p99Ms", late.p99())
            .put("maxMs", late.max()));
  }

  /** The snapshot plus {@code stats}, as the stream sends it every 250 ms. */
  public JsonObject snapshotWithStats(int wheelViewers) {
    LatencyWindow.Stats late = metrics.latenessStats();
    LatencyWindow.Stats st = metrics.storeStats();
    return snapshot().put("stats", new JsonObject()
        .put("firingsPerSec", Math.round(late.perSecond() * 10) / 10.0)
        .put("latenessP50Ms", late.p50())
        .put("latenessP99Ms", late.p99())
        .put("subscribers", subscribers.getAsInt())
        .put("wheelViewers", wheelViewers)
        .put("storeLatencyP50Ms", st.p50() / 1000.0)
        .put("storeLatencyP99Ms", st.p99() / 1000.0)
        .put("storeOpsPerSec", Math.round(st.perSecond() * 10) / 10.0));
  }
}
