package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fire loop's pipelining, driven by itself (as in the server) on a manual clock that stands still: several firing
 * batches in flight at once, settled and published in seq order however the store answers.
 */
class FireLoopPipelineTest {

  static final long T0 = 1_000_000_000L;
  static final int TURN_LIMIT = 1_000;
  static final int TIMERS = 5 * TURN_LIMIT + 300;

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  GatedStore store;
  List<Firing> fired;
  Scheduler scheduler;
  final TimerParser parser = new TimerParser(io.tickwheel.core.model.Limits.defaults(10));

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
    fired = Collections.synchronizedList(new ArrayList<>());
    scheduler = new Scheduler(vertx, ctx, store, clock::get, SchedulerOptions.defaults(10).withTurnLimit(TURN_LIMIT),
        new Metrics(), true);
    scheduler.onFiring(fired::add);
    on(ctx, () -> scheduler.recover());
    List<TimerSpec> specs = new ArrayList<>();
    for (int i = 0; i < TIMERS; i++) {
      specs.add(parser.parse(new JsonObject("{\"id\":\"p" + i + "\",\"delayMs\":5}"), T0));
    }
    assertThat(on(ctx, () -> scheduler.createAll(specs))).hasSize(TIMERS).allMatch(o -> o instanceof Created);
    store.holdFirings(true);
  }

  @AfterEach
  void tearDown() {
    store.holdFirings(false);
    on(ctx, () -> {
      store.release();
      return scheduler.stop();
    });
  }

  /** Moves the clock to the due time and wakes the loop (a timer armed now makes it look at the wheel). */
  void makeDue() {
    clock.set(T0 + 5);
    on(ctx, () -> scheduler.create(parser.parse(new JsonObject("{\"id\":\"waker\",\"delayMs\":0}"), clock.get())));
  }

  void awaitHeld(int n) {
    Awaitility.await(n + " firings held").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> on(ctx, () -> io.vertx.core.Future.succeededFuture(store.heldCount())) == n);
  }


  void assertAllFiredOnceInSeqOrder() {
    Awaitility.await("every timer fired").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> fired.size() == TIMERS + 1);
    Set<String> ids = new HashSet<>();
    long seq = 0;
    synchronized (fired) {
      for (Firing f : fired) {
        assertThat(f.seq()).isEqualTo(++seq);
        ids.add(f.id());
      }
    }
    assertThat(ids).hasSize(TIMERS + 1);
    assertThat(on(ctx, () -> io.vertx.core.Future.succeededFuture(scheduler.pending()))).isZero();
  }

  @Test
  void fourFiringBatchesGoToTheStoreWhileNoneIsAnsweredAndNoFifthUntilOneSettles() throws Exception {
    makeDue();
    awaitHeld(FireLoop.MAX_BATCHES_IN_FLIGHT);
    // a negative check, so time is what it checks: turns keep being asked for 100 ms, still no fifth batch
    Awaitility.await("no fifth batch").during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1))
        .until(() -> store.recordCalls.get() == FireLoop.MAX_BATCHES_IN_FLIGHT);
    assertThat(fired).isEmpty();
    on(ctx, () -> {
      store.release();                                       // in call order: batches 1-4 settle, 4 more go out
      return io.vertx.core.Future.succeededFuture();
    });
    Awaitility.await("4 turns fired").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> fired.size() == 4 * TURN_LIMIT);
    awaitHeld(2);                                            // the last 1,301 due (1,000 + 300 + the waker)
    store.holdFirings(false);
    on(ctx, () -> {
      store.release();
      return io.vertx.core.Future.succeededFuture();
    });
    assertAllFiredOnceInSeqOrder();
  }

  @Test
  void aBatchRecordedButAnsweredAsFailedHoldsTheLineAndItsFiringsAreReadBackOnceInSeqOrder() {
    store.holdFirings(false);
    store.applyThenFailFirings(1);    // batch 1 is recorded (seqs 1..1,000), its answer lost; batches 2-4 follow it
    makeDue();
    assertAllFiredOnceInSeqOrder();
    assertThat(scheduler.failedBatches()).isEqualTo(1);
    assertThat(store.recordCalls.get()).isGreaterThanOrEqualTo(7);  // 6 batches, and batch 1 once more
  }

  @Test
  void batchesAnsweredNewestFirstAreStillPublishedInSeqOrderEachFiringOnce() {
    makeDue();
    awaitHeld(FireLoop.MAX_BATCHES_IN_FLIGHT);
    store.holdFirings(false);
    on(ctx, () -> {
      store.releaseNewestFirst();       // applied newest first: the last batch sent gets the smallest seqs
      return io.vertx.core.Future.succeededFuture();
    });
    assertAllFiredOnceInSeqOrder();
  }
}
