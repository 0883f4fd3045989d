package io.tickwheel.server.http;

import io.tickwheel.server.metrics.LatencyWindow;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.WheelSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The live wheel as JSON ({@code GET /v1/wheel}): {@code tickMs}, {@code now}, {@code pending}, {@code firedTotal},
 * {@code store}, {@code levels:[{level, slots, spanMs, cursor, count, occupancy:[timers per slot]}]} and
 * {@code lateness:{p50Ms, p99Ms, maxMs}} over the last second. The stream adds {@code stats}.
 *
 * <p>A cluster node shows the wheels of all the partitions it serves as one: {@code pending} and {@code firedTotal}
 * summed, and each level's occupancy summed slot by slot <em>relative to each wheel's cursor</em> (slot
 * {@code cursor + k} of every partition's wheel holds the timers due about {@code k} slot spans from now, whenever that
 * wheel was started; to within one slot, as wheels started at different times cut time into slots at other phases),
 * drawn in the frame of the wheel with the most levels. {@code store} is the node's store name.
 *
 * <p>Owner context only (takes a {@link Scheduler#wheelSnapshot()}; never touches the wheel itself).
 */
public final class WheelView {

  private final String storeName;
  private final long tickMs;
  private final LongSupplier clock;
  private final Supplier<List<Scheduler>> wheels;
  private final Metrics metrics;
  private final IntSupplier subscribers;

  /** The view of {@code scheduler}'s wheel alone. @param subscribers how many firing subscribers are connected */
  public WheelView(Scheduler scheduler, Metrics metrics, IntSupplier subscribers) {
    this(scheduler.storeName(), scheduler.tickMs(), scheduler::now, () -> List.of(scheduler), metrics, subscribers);
  }

  /**
   * A node's view of every wheel it serves, as one.
   *
   * @param storeName the node's store name
   * @param tickMs    the wheels' tick, ms (what an empty view shows)
   * @param clock     the node's clock, epoch ms
   * @param wheels    the schedulers this node serves now (none: an empty wheel)
   */
  public WheelView(String storeName, long tickMs, LongSupplier clock, Supplier<List<Scheduler>> wheels,
      Metrics metrics, IntSupplier subscribers) {
    this.storeName = storeName;
    this.tickMs = tickMs;
    this.clock = clock;
    this.wheels = wheels;
    this.metrics = metrics;
    this.subscribers = subscribers;
  }

  /** The snapshot {@code GET /v1/wheel} answers. */
  public JsonObject snapshot() {
    List<Scheduler> all = wheels.get();
    long now = clock.getAsLong();
    WheelSnapshot w = all.isEmpty() ? WheelSnapshot.empty(tickMs, now) : merge(all);
    long pending = 0;
    long fired = 0;
    long far = 0;
    long farFrom = Long.MAX_VALUE;
    for (Scheduler s : all) {
      pending += s.pending();
      fired += s.publishedTotal();
      far += s.farTimers();
      farFrom = Math.min(farFrom, s.windowBound());
    }
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
    JsonObject farTier = new JsonObject().put("count", far);
    if (farFrom != Long.MAX_VALUE) {
      farTier.put("fromMs", farFrom);
    }
    return new JsonObject()
        .put("tickMs", w.tickMs())
        .put("now", now)
        .put("wheelTimeMs", w.wheelTimeMs())
        .put("pending", pending)
        .put("firedTotal", fired)
        .put("store", storeName)
        .put("levels", levels)
        .put("far", farTier)
        .put("lateness", new JsonObject()
            .put("p50Ms", late.p50())
            .put("p99Ms", late.p99())
            .put("maxMs", late.max()));
  }

  /** The wheels of {@code all} as one, in the frame of the one with the most levels (see the class comment). */
  static WheelSnapshot merge(List<Scheduler> all) {
    if (all.size() == 1) {
      return all.get(0).wheelSnapshot();
    }
    List<WheelSnapshot> snaps = new ArrayList<>(all.size());
    WheelSnapshot first = null;
    for (Scheduler s : all) {
      WheelSnapshot w = s.wheelSnapshot();
      snaps.add(w);
      if (first == null || w.levels().size() > first.levels().size()) {
        first = w;                   // the frame: the wheel with the most levels (a wheel grows levels on demand)
      }
    }
    List<WheelSnapshot.Level> base = first.levels();
    int[][] occ = new int[base.size()][];
    int[] counts = new int[base.size()];
    for (int i = 0; i < base.size(); i++) {
      occ[i] = base.get(i).occupancy().clone();
      counts[i] = base.get(i).count();
    }
    for (WheelSnapshot w : snaps) {
      if (w == first) {
        continue;
      }
      List<WheelSnapshot.Level> other = w.levels();
      for (int i = 0; i < Math.min(base.size(), other.size()); i++) {
        WheelSnapshot.Level a = base.get(i);
        WheelSnapshot.Level b = other.get(i);
        if (a.slots() != b.slots()) {
          continue;                  // another shape (cannot happen with one tick): not drawn
        }
        int n = a.slots();
        for (int j = 0; j < n; j++) {
          occ[i][Math.floorMod(a.cursor() + j - b.cursor(), n)] += b.occupancy()[j];
        }
        counts[i] += b.count();
      }
    }
    List<WheelSnapshot.Level> levels = new ArrayList<>(base.size());
    for (int i = 0; i < base.size(); i++) {
      WheelSnapshot.Level a = base.get(i);
      levels.add(new WheelSnapshot.Level(a.level(), a.slots(), a.spanMs(), a.cursor(), counts[i], occ[i]));
    }
    return new WheelSnapshot(first.tickMs(), first.wheelTimeMs(), levels);
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
