package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.ManualSchedulers;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A cluster node's wheel view: the wheels of its partitions drawn as one, aligned on their cursors. */
class WheelViewTest {

  final Vertx vertx = TestVertx.create();
  final Context ctx = vertx.getOrCreateContext();
  final AtomicLong now = new AtomicLong(1_800_000_000_000L);
  final Metrics metrics = new Metrics();

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  Scheduler started() {
    return TestVertx.on(ctx, () -> {
      Scheduler s = ManualSchedulers.manual(vertx, ctx, new MemoryTimerStore(), now::get, SchedulerOptions.defaults(10),
          metrics);
      return s.recover().map(n -> s);
    });
  }

  static TimerSpec in(String id, long delayMs) {
    return new TimerSpec(id, "default", Kind.ONCE, delayMs, null, 0, 0, Misfire.FIRE_ONCE, null);
  }

  @Test
  void partitionWheelsStartedAtDifferentTimesAreSummedSlotBySlotRelativeToTheirCursors() {
    Scheduler a = started();
    // the second partition's wheel starts 5 level-2 slots (5 × 64·64·10 ms) later: the wheels cut time into slots at
    // the same phases (so the merge is exact; otherwise a timer may be drawn one slot off) but their level-2 cursors
    // differ by 5 slots
    now.addAndGet(5 * 40_960L);
    Scheduler b = started();
    Object created = TestVertx.on(ctx, () -> Future.all(a.drain(), b.drain())
        .compose(v -> Future.all(a.create(in("a-1", 5_000)), a.create(in("a-2", 900_000)), b.create(in("b-1", 5_000)),
            b.create(in("b-2", 600_000))))
        .map(f -> f.list()));
    assertThat(created.toString()).doesNotContain("Refus");
    Scheduler alone = started();              // one wheel holding the same timers, for reference
    TestVertx.on(ctx, () -> Future.all(alone.create(in("x-1", 5_000)), alone.create(in("x-2", 5_000)),
        alone.create(in("x-3", 600_000)), alone.create(in("x-4", 900_000))));

    JsonObject merged = TestVertx.on(ctx, () -> Future.succeededFuture(
        new WheelView(a.storeName(), a.tickMs(), a::now, () -> List.of(a, b), metrics, () -> 0).snapshot()));
    JsonObject reference = TestVertx.on(ctx, () -> Future.succeededFuture(
        new WheelView(alone, metrics, () -> 0).snapshot()));
    assertThat(merged.getLong("pending")).isEqualTo(4);
    JsonArray ml = merged.getJsonArray("levels");
    JsonArray rl = reference.getJsonArray("levels");
    assertThat(ml.size()).isEqualTo(rl.size());
    for (int i = 0; i < ml.size(); i++) {
      JsonObject m = ml.getJsonObject(i);
      JsonObject r = rl.getJsonObject(i);
      assertThat(m.getInteger("count")).as("level %d", i).isEqualTo(r.getInteger("count"));
      // the same occupancy once both are read from their cursors
      assertThat(fromCursor(m)).as("level %d from its cursor", i).isEqualTo(fromCursor(r));
    }
  }

  static int[] fromCursor(JsonObject level) {
    JsonArray occ = level.getJsonArray("occupancy");
    int n = occ.size();
    int c = level.getInteger("cursor");
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      out[k] = occ.getInteger((c + k) % n);
    }
    return out;
  }
}
