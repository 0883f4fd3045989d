package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Refusal.Conflict;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.scheduler.WriteOutcome.Replaced;
import io.tickwheel.server.scheduler.WriteOutcome.Touched;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scheduler's {@link Pipeline}: the single writes made in one event-loop turn (by any number of connections:
 * WebSocket commands and single HTTP calls alike) reach the store as one write per kind, each caller answered its
 * own outcome. Counted on the store, on a manual clock.
 */
@ExtendWith(BlockedThreadGuard.class)
class PipelineTurnTest {

  static final long TICK = 10;
  static final long T0 = 1_000_000_000L;

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  GatedStore store;
  Scheduler scheduler;
  final TimerParser parser = new TimerParser(Limits.defaults(TICK));

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void setUp() {
    ctx = vertx.getOrCreateContext();
    clock = new AtomicLong(T0);
    store = new GatedStore();
    scheduler = new Scheduler(vertx, ctx, store, clock::get, SchedulerOptions.defaults(TICK), new Metrics(), false);
    on(ctx, () -> scheduler.recover());
  }

  TimerSpec spec(String id, long delayMs) {
    return parser.parse(new JsonObject().put("id", id).put("delayMs", delayMs), clock.get());
  }

  @Test
  void aTurnsCreatesAreOneStoreWriteAndEachCallerGetsItsOwnTimer() {
    int n = 500;
    List<WriteOutcome> out = on(ctx, () -> {
      List<Future<WriteOutcome>> fs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        fs.add(scheduler.pipeline().create(spec("c" + i, 60_000 + i)));
      }
      assertThat(store.createAllCalls.get()).as("nothing is written before the turn ends").isZero();
      return Future.all(fs).map(cf -> fs.stream().map(Future::result).toList());
    });
    assertThat(store.createAllCalls.get()).isEqualTo(1);
    assertThat(store.createAllTimers.get()).isEqualTo(n);
    assertThat(scheduler.pipelineStoreWrites()).isEqualTo(1);
    for (int i = 0; i < n; i++) {
      assertThat(out.get(i)).isInstanceOf(Created.class);
      assertThat(((Created) out.get(i)).timer().id()).isEqualTo("c" + i);
      assertThat(((Created) out.get(i)).timer().nextDueAt()).isEqualTo(T0 + 60_000 + i);
    }
    assertThat(scheduler.pending()).isEqualTo(n);
  }

  @Test
  void aRepeatedIdInOneTurnIsAConflictAndWritesNothingMore() {
    List<WriteOutcome> out = on(ctx, () -> {
      Future<WriteOutcome> a = scheduler.pipeline().create(spec("same", 60_000));
      Future<WriteOutcome> b = scheduler.pipeline().create(spec("same", 70_000));
      Future<WriteOutcome> c = scheduler.pipeline().create(spec("other", 60_000));
      return Future.all(a, b, c).map(v -> List.of(a.result(), b.result(), c.result()));
    });
    assertThat(out.get(0)).isInstanceOf(Created.class);
    assertThat(out.get(1)).isInstanceOf(Conflict.class);
    assertThat(out.get(2)).isInstanceOf(Created.class);
    assertThat(store.createAllCalls.get()).isEqualTo(1);
    assertThat(store.createAllTimers.get()).isEqualTo(2);
  }

  @Test
  void aTurnsTouchesAreOneUpdateAllAndItsReplacesOnePutAll() {
    on(ctx, () -> {
      List<Future<WriteOutcome>> fs = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        fs.add(scheduler.pipeline().create(spec("k" + i, 60_000)));
      }
      return Future.all(fs);
    });
    clock.addAndGet(1_000);
    List<WriteOutcome> out = on(ctx, () -> {
      List<Future<WriteOutcome>> fs = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        fs.add(scheduler.pipeline().touch("k" + i, 90_000L));
      }
      for (int i = 5; i < 10; i++) {
        fs.add(scheduler.pipeline().upsert(spec("k" + i, 120_000)));
      }
      return Future.all(fs).map(cf -> fs.stream().map(Future::result).toList());
    });
    assertThat(store.updateAllCalls.get()).isEqualTo(1);
    assertThat(store.updateAllTimers.get()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      assertThat(((Touched) out.get(i)).timer().nextDueAt()).isEqualTo(T0 + 1_000 + 90_000);
    }
    for (int i = 5; i < 10; i++) {
      assertThat(((Replaced) out.get(i)).timer().nextDueAt()).isEqualTo(T0 + 1_000 + 120_000);
    }
    assertThat(scheduler.pipelineStoreWrites()).as("one createAll, one updateAll, one putAll").isEqualTo(3);
  }
}
