package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The group commit of one event-loop turn, store call by store call. */
@ExtendWith(BlockedThreadGuard.class)
class TurnCoalescerTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static Timer timer(String id, long due) {
    return new Timer(id, "t", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"id\":\"" + id + "\"}", 1, due, 0, 1);
  }

  @Test
  void writesOfOneTurnAreOneStoreCallPerKindAndAKindFlushesAtItsCap() {
    Context ctx = vertx.getOrCreateContext();
    GatedStore store = new GatedStore();
    TurnCoalescer c = new TurnCoalescer(store, ctx, 3);
    on(ctx, () -> store.putAll(List.of(timer("u1", 10), timer("u2", 20))));
    List<Timer> touched = on(ctx, () -> {
      List<Future<?>> creates = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        creates.add(c.createAll(List.of(timer("c" + i, 100 + i))));
      }
      Future<Timer> u1 = c.update(timer("u1", 10).touched(500), 1);
      Future<Timer> u2 = c.update(timer("u2", 20).touched(600), 7);     // stale
      assertThat(store.createAllCalls.get()).as("two full batches went at once").isEqualTo(2);
      assertThat(store.updateAllCalls.get()).as("the rest waits for the end of the turn").isZero();
      return Future.all(creates).compose(v -> Future.all(u1, u2)).map(v -> List.of(u1.result(),
          u2.result() == null ? timer("none", 0) : u2.result()));
    });
    assertThat(store.createAllCalls.get()).isEqualTo(3);
    assertThat(store.createAllTimers.get()).isEqualTo(7);
    assertThat(store.updateAllCalls.get()).isEqualTo(1);
    assertThat(touched.get(0).nextDueAt()).isEqualTo(500);
    assertThat(touched.get(0).payload()).isEqualTo("{\"id\":\"u1\"}");
    assertThat(touched.get(1).id()).as("stale: null").isEqualTo("none");
    assertThat(c.storeWrites()).isEqualTo(4);
    assertThat((Timer) on(ctx, () -> store.get("c6"))).isNotNull();
  }

  @Test
  void aRepeatedIdInOneTurnGoesInALaterStoreCallInOrder() {
    Context ctx = vertx.getOrCreateContext();
    GatedStore store = new GatedStore();
    TurnCoalescer c = new TurnCoalescer(store, ctx, 100);
    on(ctx, () -> store.putAll(List.of(timer("r", 10))));
    Timer last = on(ctx, () -> {
      Future<Timer> first = c.update(timer("r", 10).touched(500), 1);
      Future<Timer> second = c.update(timer("r", 10).touched(500).touched(900), 2);
      return Future.all(first, second).map(v -> second.result());
    });
    assertThat(store.updateAllCalls.get()).isEqualTo(2);
    assertThat(last.nextDueAt()).isEqualTo(900);
    assertThat(last.generation()).isEqualTo(3);
  }

  @Test
  void aFailedStoreWriteFailsEveryCallerOfIt() {
    Context ctx = vertx.getOrCreateContext();
    GatedStore store = new GatedStore();
    TurnCoalescer c = new TurnCoalescer(store, ctx, 100);
    store.down(true);
    List<Boolean> failed = on(ctx, () -> {
      Future<Void> a = c.put(timer("a", 1));
      Future<Void> b = c.put(timer("b", 2));
      return Future.join(a, b).transform(v -> Future.succeededFuture(List.of(a.failed(), b.failed())));
    });
    assertThat(failed).containsExactly(true, true);
  }

  @Test
  void whileTwoWritesOfAKindAreInFlightTheNextTurnsWaitAndGoAsOneWrite() {
    Context ctx = vertx.getOrCreateContext();
    GatedStore store = new GatedStore();
    TurnCoalescer c = new TurnCoalescer(store, ctx, 3);
    store.holdPuts(true);                       // holds createAbsent calls too
    List<Future<java.util.Set<String>>> all = new ArrayList<>();
    for (int i = 0; i < 4; i++) {               // four turns of one create each
      String id = "a" + i;
      on(ctx, () -> {
        all.add(c.createAbsent(List.of(timer(id, 100))));
        return Future.succeededFuture();
      });
      on(ctx, () -> Future.succeededFuture()); // the turn's flush task has run
    }
    assertThat(store.heldCount()).as("two in flight; the third and fourth turns wait").isEqualTo(2);
    assertThat(store.createAllCalls.get()).isEqualTo(2);
    // at its cap a kind goes at once, whatever is in flight
    on(ctx, () -> {
      for (int i = 4; i < 7; i++) {
        all.add(c.createAbsent(List.of(timer("a" + i, 100))));
      }
      return Future.succeededFuture();
    });
    assertThat(store.createAllCalls.get()).as("a3 joined a4 and a5 in a full batch").isEqualTo(3);
    assertThat(store.createAllTimers.get()).isEqualTo(5);
    store.holdPuts(false);
    on(ctx, () -> {
      store.release();
      return Future.succeededFuture();
    });
    List<java.util.Set<String>> kept = on(ctx, () -> Future.all(all).map(v -> all.stream().map(Future::result)
        .toList()));
    assertThat(kept).allSatisfy(ids -> assertThat(ids).isEmpty());
    assertThat(store.createAllCalls.get()).as("a6 waited, then went alone").isEqualTo(4);
    assertThat(store.createAllTimers.get()).isEqualTo(7);
    assertThat(c.storeWrites()).isEqualTo(4);
  }
}
