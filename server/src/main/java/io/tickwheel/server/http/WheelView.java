package io.tickwheel.server.http;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.metrics.LatencyWindow;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.function.IntSupplier;

/**
 * The live wheel as JSON ({@code GET /v1/wheel}): {@code tickMs}, {@code now}, {@code pending}, {@code firedTotal},
 * {@code store}, {@code levels:[{level, slots, spanMs, cursor, count, occupancy:[timers per slot]}]} and
 * {@code lateness:{p50Ms, p99Ms, maxMs}} over the last second. The stream adds {@code stats}.
 *
 * <p>Owner context only (reads the wheel).
 */
public final class WheelView {

  private final Scheduler scheduler;
  private final Metrics metrics;
  private final IntSupplier subscribers;
  private final int[] occupancy = new int[64];

  /** @param subscribers how many firing subscribers are connected */
  public WheelView(Scheduler scheduler, Metrics metrics, IntSupplier subscribers) {
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.subscribers = subscribers;
  }

  /** The snapshot {@code GET /v1/wheel} answers. */
  public JsonObject snapshot() {
    TimerWheel<Timer> w = scheduler.wheel();
    JsonArray levels = new JsonArray(new ArrayList<>(w.levels()));
    for (int l = 0; l < w.levels(); l++) {
      int slots = w.slots(l);
      int[] occ = slots <= occupancy.length ? occupancy : new int[slots];
      int total = w.occupancy(l, occ);
      ArrayList<Object> counts = new ArrayList<>(slots);
      for (int s = 0; s < slots; s++) {
        counts.add(occ[s]);
      }
      levels.add(new JsonObject()
          .put("level", l)
          .put("slots", slots)
          .put("spanMs", w.spanMs(l))
          .put("cursor", w.cursor(l))
          .put("count", total)
          .put("occupancy", new JsonArray(counts)));
    }
    LatencyWindow.Stats late = metrics.latenessStats();
    return new JsonObject()
        .put("tickMs", scheduler.tickMs())
        .put("now", scheduler.now())
        .put("wheelTimeMs", w.currentTimeMs())
        .put("pending", scheduler.pending())
        .put("firedTotal", scheduler.publishedTotal())
        .put("store", scheduler.store().name())
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
