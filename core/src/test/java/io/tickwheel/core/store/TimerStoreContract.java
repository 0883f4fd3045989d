package io.tickwheel.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link TimerStore} passes. A store's test extends it and says how to open a fresh,
 * empty store and, for a persistent store, how to reopen the same data.
 */
public abstract class TimerStoreContract {

  protected static Vertx vertx;
  protected TimerStore store;

  /** A new, empty store. */
  protected abstract TimerStore createStore(Vertx vertx) throws Exception;

  /**
   * The store over the same data as the last {@link #createStore}, after it was closed; {@code null} for a
   * store that keeps nothing (the durability tests are then skipped).
   */
  protected TimerStore reopenStore(Vertx vertx) throws Exception {
    return null;
  }

  /**
   * {@link #reopenStore}, or the test is skipped, visibly, for a store that keeps nothing across a close (the
   * closed store is forgotten so that {@code closeStore} does not close it twice).
   */
  private TimerStore reopenOrSkip() throws Exception {
    TimerStore reopened = reopenStore(vertx);
    if (reopened == null) {
      store = null;
    }
    Assumptions.assumeTrue(reopened != null, "the store keeps nothing across a close: no durability to check");
    return reopened;
  }

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    await(vertx.close());
  }

  @BeforeEach
  void open() throws Exception {
    store = createStore(vertx);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      await(store.close());
    }
  }

  // ---- helpers ----

  protected static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("store call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  protected static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":\"" + id + "\"}", 1, due, 0, 1);
  }

  protected static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1,2,3]", 1, due, 0, 1);
  }

  /**
   * A cron timer with every extras field set away from its default: zone, both DST policies as configured (one
   * {@code auto}), an end, jitter with its nominal time, paused, a callback with every field set.
   */
  protected static Timer cron(String id, long nominal, long due) {
    ZonedCron c = ZonedCron.of("30 2 * * 1-5", ZoneId.of("America/New_York"), DstGap.SKIP, DstOverlap.AUTO);
    return new Timer(id, "cal", Kind.CRON, 0, 0, 12, Misfire.SKIP, "{\"c\":1}", 7, due, 2, 3,
        new Timer.Extras(c, 1_900_000_000_000L, 90_000, true, nominal,
            new Callback("https://hooks.example.com:8443/t/é?x=1&y=%20", 2500, 20, 250, 60_000)));
  }

  /** A fixed-rate timer with jitter, an end and a callback with its defaults, but no cron, not paused. */
  protected static Timer jittered(String id, long nominal, long due) {
    return periodic(id, due, 60_000).withExtras(new Timer.Extras(null, 5_000_000, 30_000, false, nominal,
        Callback.to("http://[2001:db8::1]/hook")));
  }

  /** A once timer whose only extra is a callback. */
  protected static Timer withCallback(String id, long due) {
    return timer(id, due).withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0,
        new Callback("http://receiver.example/cb", 30_000, 1, Callback.NO_BACKOFF, Callback.NO_BACKOFF)));
  }

  private static FiringRequest fire(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next);
  }

  // ---- timers ----

  @Test
  void putThenGetReturnsTheTimerWithItsPayload() {
    Timer t = timer("a.b:c-1", 5000).withPayload("{\"msg\":\"héllo ☃\",\"n\":[1,2]}");
    await(store.put(t));
    assertThat(await(store.get("a.b:c-1"))).isEqualTo(t);
  }

  @Test
  void getOfAnUnknownIdIsNull() {
    assertThat(await(store.get("nope"))).isNull();
  }

  @Test
  void putReplacesAnExistingTimer() {
    await(store.put(timer("x", 5000)));
    Timer replaced = periodic("x", 9000, 100).withGeneration(2);
    await(store.put(replaced));
    assertThat(await(store.get("x"))).isEqualTo(replaced);
  }

  @Test
  void timerWithoutPayloadRoundTrips() {
    Timer t = timer("np", 10).withPayload(null);
    await(store.put(t));
    assertThat(await(store.get("np"))).isEqualTo(t);
  }

  @Test
  void removeSaysWhetherTheTimerExisted() {
    await(store.put(timer("r", 5000)));
    assertThat(await(store.remove("r"))).isTrue();
    assertThat(await(store.remove("r"))).isFalse();
    assertThat(await(store.get("r"))).isNull();
  }

  @Test
  void putAllWritesEveryTimer() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      many.add(timer("bulk-" + i, 10_000 + i));
    }
    await(store.putAll(many));
    assertThat(await(store.get("bulk-0"))).isEqualTo(many.get(0));
    assertThat(await(store.get("bulk-1999"))).isEqualTo(many.get(1999));
    assertThat(await(store.loadAll(500, b -> Future.succeededFuture()))).isEqualTo(2000L);
  }

  @Test
  void createAllStoresNewTimersAsPutAllDoes() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      many.add(timer("new-" + i, 20_000 + i));
    }
    await(store.createAll(many));
    await(store.createAll(List.of(timer("single", 19_999))));
    assertThat(await(store.get("new-0"))).isEqualTo(many.get(0));
    assertThat(await(store.get("new-1499"))).isEqualTo(many.get(1499));
    assertThat(await(store.loadAll(500, b -> Future.succeededFuture()))).isEqualTo(1501L);
    TimerPage first = await(store.list(null, null, 3));
    assertThat(first.timers()).extracting(Timer::id).containsExactly("single", "new-0", "new-1");
    assertThat(await(store.remove("new-7"))).isTrue();
    assertThat(await(store.get("new-7"))).isNull();
  }

  @Test
  void createAllOfAnIdThatIsStoredAfterAllReplacesItAndListsItOnceAtItsNewDueTime() {
    // a caller bug (createAll promises absent ids): the record is replaced; a store that skipped reading the old
    // version may keep its index entry, but must never show it
    await(store.put(timer("dup", 1000)));
    await(store.put(timer("other", 3000)));
    Timer again = timer("dup", 5000);
    await(store.createAll(List.of(again)));
    assertThat(await(store.get("dup"))).isEqualTo(again);
    assertThat(await(store.list(null, null, 10)).timers()).extracting(Timer::id).containsExactly("other", "dup");
    List<Timer> loaded = new ArrayList<>();
    await(store.loadAll(10, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).extracting(Timer::id).containsExactlyInAnyOrder("dup", "other");
    assertThat(await(store.remove("dup"))).isTrue();
    assertThat(await(store.list(null, null, 10)).timers()).extracting(Timer::id).containsExactly("other");
  }

  @Test
  void updateReturnsTheStoredTimerWithTheStoredPayloadAndTheNewSchedule() {
    Timer t = timer("u", 5000);
    await(store.put(t));
    Timer touched = t.touched(8000).withoutPayload();
    Timer stored = await(store.update(touched, 1));
    assertThat(stored).isEqualTo(touched.withPayload(t.payload()));
    assertThat(stored.payload()).isEqualTo("{\"n\":\"u\"}");
    assertThat(await(store.get("u"))).isEqualTo(stored);
    Timer none = timer("np", 100).withPayload(null);
    await(store.put(none));
    assertThat(await(store.update(none.touched(200).withPayload("[\"ignored\"]"), 1)))
        .as("a timer without payload stays without; next's payload is ignored")
        .isEqualTo(none.touched(200));
  }

  @Test
  void updateOfAStaleGenerationOrAnAbsentTimerReturnsNullAndChangesNothing() {
    Timer t = timer("u", 5000);
    await(store.put(t));
    Timer touched = await(store.update(t.touched(8000), 1));
    assertThat(await(store.update(touched.touched(9000), 1))).as("stale generation").isNull();
    assertThat(await(store.get("u"))).isEqualTo(touched);
    assertThat(await(store.list(null, null, 10)).timers()).containsExactly(touched);
    assertThat(await(store.update(timer("absent", 1), 1))).isNull();
    assertThat(await(store.get("absent"))).as("update never creates a timer").isNull();
  }

  @Test
  void updateAllAppliesEachItemOnItsOwnGenerationAndAnswersInOrder() {
    Timer a = timer("ua", 5000);
    Timer b = timer("ub", 6000).withPayload(null);
    Timer c = timer("uc", 7000);
    await(store.putAll(List.of(a, b, c)));
    Timer staleC = await(store.update(c.touched(7500), 1));
    List<Timer> next = List.of(a.touched(8000).withoutPayload(), timer("absent", 1), b.touched(9000),
        staleC.touched(9500), c.touched(9900));
    List<Timer> out = await(store.updateAll(next.subList(0, 4), new long[] {1, 1, 1, 1}));
    assertThat(out).hasSize(4);
    assertThat(out.get(0)).isEqualTo(a.touched(8000)).extracting(Timer::payload).isEqualTo(a.payload());
    assertThat(out.get(1)).as("absent: nothing created").isNull();
    assertThat(out.get(2)).isEqualTo(b.touched(9000));
    assertThat(out.get(3)).as("stale generation").isNull();
    assertThat(await(store.get("ua"))).isEqualTo(out.get(0));
    assertThat(await(store.get("ub"))).isEqualTo(out.get(2));
    assertThat(await(store.get("uc"))).isEqualTo(staleC);
    assertThat(await(store.get("absent"))).isNull();
    assertThat(await(store.list(null, null, 10)).timers()).containsExactly(staleC, out.get(0), out.get(2));
    assertThat(await(store.updateAll(List.of(), new long[0]))).isEmpty();
  }

  @Test
  void updateAllOfManyTimersIsOneCallAndKeepsTheIndexInStep() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      ts.add(timer("many-" + i, 10_000 + i));
    }
    await(store.createAll(ts));
    List<Timer> next = new ArrayList<>();
    long[] gens = new long[ts.size()];
    for (int i = 0; i < ts.size(); i++) {
      next.add(ts.get(i).touched(50_000 - i));
      gens[i] = i % 10 == 0 ? 7 : 1;          // every tenth is stale
    }
    List<Timer> out = await(store.updateAll(next, gens));
    for (int i = 0; i < ts.size(); i++) {
      assertThat(out.get(i)).isEqualTo(i % 10 == 0 ? null : next.get(i).withPayload(ts.get(i).payload()));
    }
    List<Timer> first = await(store.list(null, null, 3)).timers();
    assertThat(first).extracting(Timer::id).containsExactly("many-0", "many-10", "many-20");
    Timer lastTouched = await(store.list(null, null, 2500)).timers().get(2499);
    assertThat(lastTouched.id()).isEqualTo("many-1");
    assertThat(lastTouched.nextDueAt()).isEqualTo(49_999);
  }

  @Test
  void updateAllRefusesRepeatedIdsAndMismatchedGenerationsWithoutWriting() {
    Timer t = timer("rep", 5000);
    await(store.put(t));
    assertThat(failure(store.updateAll(List.of(t.touched(6000), t.touched(7000)), new long[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rep");
    assertThat(failure(store.updateAll(List.of(t.touched(6000)), new long[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(await(store.get("rep"))).isEqualTo(t);
  }

  @Test
  void callsFromOneThreadApplyInOrder() {
    Timer t = timer("order", 1000);
    store.put(t);
    store.put(t.withGeneration(2).withNextDueAt(2000));
    store.remove("order");
    Future<Void> last = store.put(t.withGeneration(3).withNextDueAt(3000));
    await(last);
    assertThat(await(store.get("order")).generation()).isEqualTo(3);
  }

  // ---- firings ----

  @Test
  void firstFiringGetsSeqOneAndCarriesTopicAndPayload() {
    Timer t = timer("f", 100);
    await(store.put(t));
    List<FiringResult> r = await(store.recordFirings(List.of(fire(t, 105, null))));
    assertThat(r).hasSize(1);
    assertThat(r.get(0).applied()).isTrue();
    assertThat(r.get(0).firing()).isEqualTo(new Firing(1, "f", "t1", 1, 100, 105, t.payload()));
    assertThat(await(store.lastSeq())).isEqualTo(1);
  }

  @Test
  void lastSeqIsZeroOnAnEmptyStore() {
    assertThat(await(store.lastSeq())).isZero();
    assertThat(await(store.readFirings(0, 10))).isEmpty();
  }

  @Test
  void firingOfAOnceTimerRemovesIt() {
    Timer t = timer("once", 100);
    await(store.put(t));
    await(store.recordFirings(List.of(fire(t, 100, null))));
    assertThat(await(store.get("once"))).isNull();
  }

  @Test
  void firingOfAPeriodicTimerAdvancesItAndKeepsItsPayload() {
    Timer t = periodic("p", 100, 50);
    await(store.put(t));
    Timer next = t.fired(150).withoutPayload();
    List<FiringResult> r = await(store.recordFirings(List.of(fire(t, 101, next))));
    assertThat(r.get(0).firing().payload()).isEqualTo("[1,2,3]");
    assertThat(await(store.get("p"))).isEqualTo(t.fired(150));
  }

  @Test
  void staleFiringRequestsAreRefusedAndConsumeNoSeq() {
    Timer t = periodic("s", 100, 50);
    await(store.put(t));
    FiringRequest wrongGen = new FiringRequest("s", 7, 0, true, 100, 100, t.fired(150));
    FiringRequest wrongCount = new FiringRequest("s", 1, 3, true, 100, 100, t.fired(150));
    FiringRequest unknown = new FiringRequest("ghost", 1, 0, true, 100, 100, null);
    List<FiringResult> r = await(store.recordFirings(List.of(wrongGen, wrongCount, unknown)));
    assertThat(r).extracting(FiringResult::applied).containsExactly(false, false, false);
    assertThat(r).extracting(FiringResult::firing).containsOnlyNulls();
    assertThat(await(store.lastSeq())).isZero();
    assertThat(await(store.get("s"))).isEqualTo(t);
    assertThat(await(store.get("ghost"))).as("a stale request never creates a timer").isNull();
  }

  @Test
  void aSettledFiringCannotBeRecordedTwice() {
    Timer t = periodic("twice", 100, 50);
    await(store.put(t));
    FiringRequest once = fire(t, 100, t.fired(150));
    assertThat(await(store.recordFirings(List.of(once))).get(0).applied()).isTrue();
    assertThat(await(store.recordFirings(List.of(once))).get(0).applied()).isFalse();
    assertThat(await(store.lastSeq())).isEqualTo(1);
  }

  @Test
  void cancelledTimerNeverFiresAfterwards() {
    Timer t = timer("c", 100);
    await(store.put(t));
    await(store.remove("c"));
    assertThat(await(store.recordFirings(List.of(fire(t, 100, null)))).get(0).applied()).isFalse();
    assertThat(await(store.readFirings(0, 10))).isEmpty();
  }

  @Test
  void aBatchOfFiringsGetsConsecutiveSeqsInListOrder() {
    List<FiringRequest> reqs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Timer t = timer("b" + i, 100 + i);
      await(store.put(t));
      reqs.add(fire(t, 200, null));
    }
    List<FiringResult> r = await(store.recordFirings(reqs));
    for (int i = 0; i < 100; i++) {
      assertThat(r.get(i).firing().seq()).isEqualTo(i + 1);
      assertThat(r.get(i).firing().id()).isEqualTo("b" + i);
    }
  }

  @Test
  void aTimerReArmedTwiceInOneBatchBesideOthersIsIndexedOnceAtItsLastDueTime() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ts.add(periodic("r" + i, 100 + i, 1000));
    }
    await(store.putAll(ts));
    Timer r2 = ts.get(2).fired(1102);
    List<FiringRequest> reqs = new ArrayList<>();
    for (Timer t : ts) {
      reqs.add(fire(t, 110, t.fired(t.nextDueAt() + 1000)));
    }
    reqs.add(fire(r2, 1110, r2.fired(2102)));          // r2 again, after the others
    reqs.add(fire(ts.get(0), 110, null));               // stale now: r0 has fired once
    List<FiringResult> r = await(store.recordFirings(reqs));

    assertThat(r).extracting(FiringResult::applied).containsExactly(true, true, true, true, true, true, false);
    List<Timer> listed = await(store.list(null, null, 100)).timers();
    assertThat(listed).extracting(Timer::id).containsExactly("r0", "r1", "r3", "r4", "r2");
    assertThat(listed).extracting(Timer::nextDueAt).containsExactly(1100L, 1101L, 1103L, 1104L, 2102L);
    assertThat(await(store.get("r2"))).isEqualTo(r2.fired(2102));
    assertThat(await(store.list(null, TimerCursor.after(r2.fired(2102)), 100)).timers()).isEmpty();
  }

  @Test
  void skippedMisfireAdvancesTheTimerWithoutALogEntry() {
    Timer t = periodic("skip", 100, 50);
    await(store.put(t));
    Timer next = t.withNextDueAt(1050);
    FiringRequest skip = new FiringRequest("skip", 1, 0, false, 1000, 1020, next);
    List<FiringResult> r = await(store.recordFirings(List.of(skip)));
    assertThat(r.get(0).applied()).isTrue();
    assertThat(r.get(0).firing()).isNull();
    assertThat(await(store.lastSeq())).isZero();
    assertThat(await(store.get("skip")).nextDueAt()).isEqualTo(1050);
  }

  @Test
  void readFiringsReturnsThoseAfterTheSeqInOrderUpToTheLimit() {
    recordOnceFirings(10, 1000);
    List<Firing> after3 = await(store.readFirings(3, 4));
    assertThat(after3).extracting(Firing::seq).containsExactly(4L, 5L, 6L, 7L);
    assertThat(await(store.readFirings(0, 100))).hasSize(10);
    assertThat(await(store.readFirings(10, 100))).isEmpty();
  }

  @Test
  void trimByCountKeepsTheNewestFiringsAndTheSequenceGoesOn() {
    recordOnceFirings(20, 1000);
    assertThat(await(store.trimFirings(new Retention(5, Long.MAX_VALUE / 4), 2000))).isEqualTo(15);
    assertThat(await(store.readFirings(0, 100))).extracting(Firing::seq).containsExactly(16L, 17L, 18L, 19L, 20L);
    assertThat(await(store.lastSeq())).isEqualTo(20);
    Timer t = timer("after-trim", 3000);
    await(store.put(t));
    assertThat(await(store.recordFirings(List.of(fire(t, 3000, null)))).get(0).firing().seq()).isEqualTo(21);
  }

  @Test
  void trimByAgeRemovesOldFiringsButAlwaysKeepsTheNewest() {
    recordOnceFirings(5, 1000);     // fired at 1000
    assertThat(await(store.trimFirings(new Retention(1000, 500), 10_000))).isEqualTo(4);
    assertThat(await(store.readFirings(0, 100))).extracting(Firing::seq).containsExactly(5L);
    assertThat(await(store.lastSeq())).isEqualTo(5);
  }

  private void recordOnceFirings(int n, long firedAt) {
    List<FiringRequest> reqs = new ArrayList<>();
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Timer t = timer("log" + i, 100 + i);
      ts.add(t);
      reqs.add(fire(t, firedAt, null));
    }
    await(store.putAll(ts));
    await(store.recordFirings(reqs));
  }

  // ---- recovery and listing ----

  @Test
  void loadAllStreamsEveryTimerInBoundedBatchesOneAtATime() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      many.add(timer("load-" + i, 10_000 + i));
    }
    await(store.putAll(many));
    List<Timer> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    AtomicInteger maxBatch = new AtomicInteger();
    long n = await(store.loadAll(1000, batch -> {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      maxBatch.accumulateAndGet(batch.size(), Math::max);
      seen.addAll(batch);
      Promise<Void> later = Promise.promise();
      vertx.setTimer(5, id -> {
        inFlight.decrementAndGet();
        later.complete();
      });
      return later.future();
    }));
    assertThat(n).isEqualTo(2500);
    assertThat(maxBatch.get()).isLessThanOrEqualTo(1000);
    assertThat(maxInFlight.get()).as("the next batch waits for the sink").isEqualTo(1);
    assertThat(seen).containsExactlyInAnyOrderElementsOf(many);
  }

  @Test
  void listOrdersByDueThenIdAndPagesWithTheCursor() {
    await(store.putAll(List.of(timer("c", 300), timer("a", 300), timer("b", 100), timer("d", 200),
        periodic("e", 50, 10))));
    TimerPage p1 = await(store.list(null, null, 2));
    assertThat(p1.timers()).extracting(Timer::id).containsExactly("e", "b");
    assertThat(p1.next()).isNotNull();
    TimerPage p2 = await(store.list(null, TimerCursor.decode(p1.next().encode()), 2));
    assertThat(p2.timers()).extracting(Timer::id).containsExactly("d", "a");
    TimerPage p3 = await(store.list(null, p2.next(), 2));
    assertThat(p3.timers()).extracting(Timer::id).containsExactly("c");
    assertThat(p3.next()).isNull();
  }

  @Test
  void listFiltersByTopic() {
    await(store.putAll(List.of(timer("a", 300), periodic("p1", 200, 10), timer("b", 100), periodic("p2", 400, 10))));
    TimerPage page = await(store.list("t2", null, 10));
    assertThat(page.timers()).extracting(Timer::id).containsExactly("p1", "p2");
    assertThat(page.next()).isNull();
    assertThat(await(store.list("none", null, 10)).timers()).isEmpty();
  }

  // ---- threading ----

  @Test
  void futuresCompleteOnTheCallingContext() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<List<Boolean>> done = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      List<Boolean> same = Collections.synchronizedList(new ArrayList<>());
      Timer t = timer("ctx", 100);
      store.put(t)
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.get("ctx");
          })
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.recordFirings(List.of(fire(t, 100, null)));
          })
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.readFirings(0, 10);
          })
          .onComplete(ar -> {
            same.add(Vertx.currentContext() == ctx);
            if (ar.failed()) {
              done.completeExceptionally(ar.cause());
            } else {
              done.complete(same);
            }
          });
    });
    assertThat(done.get(30, TimeUnit.SECONDS)).containsOnly(true).hasSize(4);
  }

  // ---- calendars: every field of a timer, nominal times ----

  @Test
  void cronAndJitteredTimersRoundTripEveryExtrasFieldThroughPutGetAndPutAll() {
    Timer c = cron("cron-1", 1_000_000, 1_040_000);
    Timer j = jittered("jit-1", 2_000_000, 2_010_000);
    Timer pausedOnly = timer("paused-once", 3000).withPaused(true);
    Timer endOnly = periodic("end-only", 4000, 10).withExtras(new Timer.Extras(null, 9000, 0, false, 0));
    await(store.put(c));
    await(store.putAll(List.of(j, pausedOnly, endOnly)));
    for (Timer t : List.of(c, j, pausedOnly, endOnly)) {
      Timer got = await(store.get(t.id()));
      assertThat(got).as(t.id()).isEqualTo(t);
      assertThat(got.extras()).as(t.id()).isEqualTo(t.extras());
    }
    Timer got = await(store.get("cron-1"));
    assertThat(got.cron().expression()).isEqualTo("30 2 * * 1-5");
    assertThat(got.cron().zone()).isEqualTo(ZoneId.of("America/New_York"));
    assertThat(got.cron().gap()).isEqualTo(DstGap.SKIP);
    assertThat(got.cron().overlap()).as("auto is kept as configured").isEqualTo(DstOverlap.AUTO);
    assertThat(got.endAt()).isEqualTo(1_900_000_000_000L);
    assertThat(got.jitterMs()).isEqualTo(90_000);
    assertThat(got.nominalAt()).isEqualTo(1_000_000);
    assertThat(got.paused()).isTrue();
  }

  @Test
  void theWebhookSecretIsSetOnceAndKeptAcrossCallsAndReopens() throws Exception {
    String first = "whsec_" + "A".repeat(43) + "=";
    String second = "whsec_" + "B".repeat(43) + "=";
    Future<String> a = store.webhookSecret(first);
    Future<String> b = store.webhookSecret(second);
    assertThat(await(a)).isEqualTo(first);
    assertThat(await(b)).as("set if absent: the first one stays").isEqualTo(first);
    await(store.close());
    TimerStore reopened = reopenOrSkip();
    store = reopened;
    assertThat(await(store.webhookSecret(second))).as("durable across a reopen").isEqualTo(first);
  }

  @Test
  void aCallbackRoundTripsThroughPutCreateTouchAndAFiring() {
    Timer a = withCallback("cb-1", 5000);
    Timer b = withCallback("cb-2", 6000);
    await(store.put(a));
    await(store.createAll(List.of(b)));
    assertThat(await(store.get("cb-1"))).isEqualTo(a);
    assertThat(await(store.get("cb-2")).callback()).isEqualTo(b.callback());
    Timer touched = a.touched(9000);
    assertThat(await(store.update(touched, a.generation())).callback()).isEqualTo(a.callback());
    Timer c = cron("cb-cron", 10_000, 10_040).withPaused(false);
    await(store.put(c));
    Timer next = c.fired(20_000, 20_070);
    await(store.recordFirings(List.of(
        new FiringRequest(c.id(), c.generation(), c.firings(), true, 10_040, 10_041, next, 10_000))));
    Callback got = await(store.get("cb-cron")).callback();
    assertThat(got).isEqualTo(c.callback());
    assertThat(got.url()).isEqualTo("https://hooks.example.com:8443/t/é?x=1&y=%20");
    assertThat(got.minBackoffMs()).isEqualTo(250);
    assertThat(got.maxBackoffMs()).isEqualTo(60_000);
  }

  @Test
  void extrasRoundTripThroughCreateAllListAndLoadAll() {
    Timer c = cron("cron-2", 500, 530);
    Timer j = jittered("jit-2", 600, 610);
    Timer plain = timer("plain", 700);
    await(store.createAll(List.of(c, j, plain)));
    assertThat(await(store.list(null, null, 10)).timers()).containsExactly(c, j, plain);
    assertThat(await(store.list("cal", null, 10)).timers()).containsExactly(c);
    List<Timer> loaded = Collections.synchronizedList(new ArrayList<>());
    await(store.loadAll(2, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).containsExactlyInAnyOrder(c, j, plain);
    assertThat(loaded.stream().filter(t -> t.id().equals("plain")).findFirst().orElseThrow().extras()).isNull();
  }

  @Test
  void updateStoresTheNewExtrasWithTheStoredPayload() {
    Timer c = cron("cron-3", 1000, 1050);
    await(store.put(c));
    Timer resumed = c.withPaused(false).touched(2000, 2070).withPayload("ignored");
    Timer stored = await(store.update(resumed, c.generation()));
    assertThat(stored).isEqualTo(resumed.withPayload(c.payload()));
    assertThat(await(store.get("cron-3"))).isEqualTo(stored);
    assertThat(stored.paused()).isFalse();
    assertThat(stored.nominalAt()).isEqualTo(2000);
    Timer j = jittered("jit-3", 100, 110);
    await(store.put(j));
    Timer plainAgain = j.withExtras(null).touched(3000);
    assertThat(await(store.update(plainAgain, j.generation())).extras()).isNull();
    assertThat(await(store.get("jit-3"))).as("extras can be dropped again").isEqualTo(plainAgain.withPayload(j.payload()));
  }

  @Test
  void aRecordedFiringKeepsItsNominalTimeAndTheAdvancedTimerItsExtras() {
    Timer c = cron("cron-4", 10_000, 10_040).withPaused(false);
    Timer plain = timer("plain-4", 10_000);
    await(store.putAll(List.of(c, plain)));
    Timer next = c.fired(20_000, 20_070);
    List<FiringResult> r = await(store.recordFirings(List.of(
        new FiringRequest(c.id(), c.generation(), c.firings(), true, 10_040, 10_041, next, 10_000),
        fire(plain, 10_002, null))));
    assertThat(r.get(0).firing().nominalAt()).isEqualTo(10_000);
    assertThat(r.get(0).firing().dueAt()).isEqualTo(10_040);
    assertThat(r.get(1).firing().nominalAt()).as("no jitter: nominal is due").isEqualTo(10_000);
    assertThat(await(store.readFirings(0, 10))).containsExactly(r.get(0).firing(), r.get(1).firing());
    Timer stored = await(store.get("cron-4"));
    assertThat(stored).isEqualTo(next.withPayload(c.payload()));
    assertThat(stored.nominalAt()).isEqualTo(20_000);
  }

  @Test
  void calendarTimersNominalTimesAndPausedStateSurviveAReopen() throws Exception {
    Timer c = cron("cron-5", 1000, 1050);
    Timer j = jittered("jit-5", 1000, 1010);
    await(store.putAll(List.of(c, j)));
    Timer next = j.fired(61_000, 61_020);
    FiringResult r = await(store.recordFirings(List.of(
        new FiringRequest(j.id(), j.generation(), j.firings(), true, 1010, 1011, next, 1000)))).get(0);
    await(store.close());
    TimerStore reopened = reopenOrSkip();
    store = reopened;
    assertThat(await(store.get("cron-5"))).isEqualTo(c);
    assertThat(await(store.get("cron-5")).paused()).as("a paused timer stays paused").isTrue();
    assertThat(await(store.get("jit-5"))).isEqualTo(next.withPayload(j.payload()));
    assertThat(await(store.readFirings(0, 10))).containsExactly(r.firing());
    assertThat(await(store.readFirings(0, 10)).get(0).nominalAt()).isEqualTo(1000);
  }

  // ---- topics ----

  @Test
  void noTopicIsPausedInANewStore() {
    assertThat(await(store.pausedTopics())).isEmpty();
  }

  @Test
  void pausedTopicsAreListedUntilResumedAndPauseAndResumeAreIdempotent() {
    await(store.setTopicPaused("billing", true));
    await(store.setTopicPaused("mail.out", true));
    await(store.setTopicPaused("billing", true));
    assertThat(await(store.pausedTopics())).containsExactlyInAnyOrder("billing", "mail.out");
    await(store.setTopicPaused("billing", false));
    await(store.setTopicPaused("never-paused", false));
    assertThat(await(store.pausedTopics())).containsExactly("mail.out");
  }

  @Test
  void theSetOfPausedTopicsIsASnapshotTheCallerOwns() {
    await(store.setTopicPaused("a", true));
    java.util.Set<String> seen = await(store.pausedTopics());
    await(store.setTopicPaused("b", true));
    assertThat(seen).containsExactly("a");
    seen.add("c");
    assertThat(await(store.pausedTopics())).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void pausedTopicsSurviveAReopen() throws Exception {
    await(store.setTopicPaused("kept", true));
    await(store.setTopicPaused("resumed", true));
    await(store.setTopicPaused("resumed", false));
    await(store.close());
    TimerStore reopened = reopenOrSkip();
    store = reopened;
    assertThat(await(store.pausedTopics())).containsExactly("kept");
  }

  // ---- failures ----

  @Test
  void everyCallAfterCloseFailsWithStoreClosedExceptionThatWasNotApplied() {
    Timer t = timer("late", 100);
    await(store.put(t));
    await(store.close());
    List<Future<?>> calls = List.of(store.put(timer("x", 1)), store.putAll(List.of(timer("y", 1))),
        store.createAll(List.of(timer("z", 1))), store.update(t.touched(200), 1),
        store.updateAll(List.of(t.touched(300)), new long[] {1}), store.get("late"),
        store.remove("late"), store.recordFirings(List.of(fire(t, 100, null))), store.list(null, null, 10),
        store.readFirings(0, 10), store.trimFirings(Retention.defaults(), 1000),
        store.loadAll(10, b -> Future.succeededFuture()), store.setTopicPaused("t1", true), store.pausedTopics());
    for (Future<?> f : calls) {
      Throwable e = failure(f);
      assertThat(e).isInstanceOf(StoreClosedException.class);
      assertThat(((StoreException) e).mayHaveApplied()).as("refused before it reached the store").isFalse();
    }
    assertThat(await(store.close())).as("close is idempotent").isNull();
    store = null;
  }

  /** The failure of {@code f}, which must fail within 30 s. */
  protected static Throwable failure(Future<?> f) {
    try {
      Object v = f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + v);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  // ---- callback deliveries ----

  private static final io.tickwheel.core.callback.Callback HOOK =
      new io.tickwheel.core.callback.Callback("https://example.com/hook", 2000, 3, 0, 0);

  private static FiringRequest fireWithHook(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next, t.nextDueAt(),
        HOOK);
  }

  /** Fires {@code n} once timers with the hook; returns their deliveries in seq order. */
  private List<Delivery> fireHooked(int n, long firedAt) {
    List<Timer> ts = new ArrayList<>();
    List<FiringRequest> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Timer t = timer("h" + firedAt + "-" + i, 100 + i);
      ts.add(t);
      rs.add(fireWithHook(t, firedAt, null));
    }
    await(store.putAll(ts));
    List<Delivery> out = new ArrayList<>();
    for (FiringResult r : await(store.recordFirings(rs))) {
      out.add(r.delivery());
    }
    return out;
  }

  @Test
  void aFiringWithACallbackRecordsAPendingDeliveryOfThatFiringInTheSameWrite() {
    Timer t = timer("cb", 100);
    Timer plain = timer("plain", 100);
    await(store.putAll(List.of(t, plain)));
    List<FiringResult> r = await(store.recordFirings(List.of(fireWithHook(t, 105, null), fire(plain, 105, null))));
    Delivery d = r.get(0).delivery();
    assertThat(d).isEqualTo(Delivery.pending(r.get(0).firing(), HOOK));
    assertThat(d.id()).isEqualTo("msg_1");
    assertThat(r.get(1).delivery()).as("no callback, no delivery").isNull();
    assertThat(await(store.getDelivery(1))).isEqualTo(d);
    assertThat(await(store.getDelivery(2))).isNull();
    assertThat(await(store.countDeliveries(DeliveryState.PENDING))).isEqualTo(1);
  }

  @Test
  void aStaleOrSkippedFiringRecordsNoDelivery() {
    Timer t = periodic("cbp", 100, 50);
    await(store.put(t));
    FiringRequest stale = new FiringRequest(t.id(), t.generation() + 1, t.firings(), true, 100, 101, null, 100, HOOK);
    FiringRequest skip = new FiringRequest(t.id(), t.generation(), t.firings(), false, 100, 101, t.fired(150), 100,
        HOOK);
    List<FiringResult> r = await(store.recordFirings(List.of(stale, skip)));
    assertThat(r.get(0).delivery()).isNull();
    assertThat(r.get(1).delivery()).isNull();
    assertThat(await(store.listDeliveries(null, 0, 10)).items()).isEmpty();
  }

  @Test
  void updateDeliveryReplacesAStoredOneOnlyAndMovesItBetweenStates() {
    Delivery d = fireHooked(1, 100).get(0);
    Delivery after = d.after(new Attempt(1, 100, 500, null, 3), DeliveryState.PENDING, 5100, 103);
    assertThat(await(store.updateDelivery(after))).isTrue();
    assertThat(await(store.getDelivery(d.seq()))).isEqualTo(after);
    Delivery dead = after.after(new Attempt(2, 5100, 410, null, 2), DeliveryState.DEAD, 0, 5102);
    assertThat(await(store.updateDelivery(dead))).isTrue();
    assertThat(await(store.countDeliveries(DeliveryState.PENDING))).isZero();
    assertThat(await(store.countDeliveries(DeliveryState.DEAD))).isEqualTo(1);
    assertThat(await(store.listDeliveries(DeliveryState.DEAD, 0, 10)).items()).containsExactly(dead);
    assertThat(await(store.listDeliveries(DeliveryState.PENDING, 0, 10)).items()).isEmpty();
    Delivery unknown = Delivery.pending(new Firing(999, "x", "t1", 1, 1, 1, null), HOOK);
    assertThat(await(store.updateDelivery(unknown))).as("never created: not created now").isFalse();
    assertThat(await(store.getDelivery(999))).isNull();
  }

  @Test
  void updateDeliveryExpectingAStateIsACompareAndSetSoConcurrentRequeuesOfADeadOneHaveOneWinner() {
    Delivery d = fireHooked(1, 100).get(0);
    Delivery dead = d.after(new Attempt(1, 100, 410, null, 3), DeliveryState.DEAD, 0, 103);
    assertThat(await(store.updateDelivery(dead, DeliveryState.PENDING))).isTrue();
    List<Future<Boolean>> requeues = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      requeues.add(store.updateDelivery(dead.requeued(200 + i), DeliveryState.DEAD));
    }
    await(Future.join(requeues));
    assertThat(requeues.stream().filter(f -> f.result()).count()).as("requeues that won").isEqualTo(1);
    Delivery won = await(store.getDelivery(d.seq()));
    assertThat(won.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(requeues.stream().map(f -> f.result()).toList().indexOf(true))
        .as("the stored record is the winner's").isEqualTo((int) (won.updatedAt() - 200));
    assertThat(await(store.countDeliveries(DeliveryState.PENDING))).isEqualTo(1);
    assertThat(await(store.countDeliveries(DeliveryState.DEAD))).isZero();
    assertThat(await(store.listDeliveries(DeliveryState.DEAD, 0, 10)).items()).isEmpty();
    assertThat(await(store.updateDelivery(dead.requeued(300), DeliveryState.DEAD)))
        .as("not dead any more: refused, nothing changed").isFalse();
    assertThat(await(store.getDelivery(d.seq()))).isEqualTo(won);
    Delivery unknown = Delivery.pending(new Firing(999, "x", "t1", 1, 1, 1, null), HOOK);
    assertThat(await(store.updateDelivery(unknown, DeliveryState.PENDING))).isFalse();
    assertThat(await(store.getDelivery(999))).isNull();
  }

  @Test
  void listDeliveriesPagesInSeqOrderByStateWithTheCursor() {
    List<Delivery> ds = fireHooked(5, 100);
    await(store.updateDelivery(ds.get(1).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    await(store.updateDelivery(ds.get(3).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    DeliveryPage p1 = await(store.listDeliveries(DeliveryState.PENDING, 0, 2));
    assertThat(p1.items()).extracting(Delivery::seq).containsExactly(1L, 3L);
    DeliveryPage p2 = await(store.listDeliveries(DeliveryState.PENDING, p1.nextAfter(), 2));
    assertThat(p2.items()).extracting(Delivery::seq).containsExactly(5L);
    assertThat(p2.nextAfter()).isEqualTo(-1);
    assertThat(await(store.listDeliveries(DeliveryState.SUCCEEDED, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(2L, 4L);
    DeliveryPage all = await(store.listDeliveries(null, 2, 10));
    assertThat(all.items()).extracting(Delivery::seq).containsExactly(3L, 4L, 5L);
    assertThat(all.nextAfter()).isEqualTo(-1);
  }

  @Test
  void loadPendingDeliveriesStreamsOnlyThePendingOnesInBoundedBatches() {
    List<Delivery> ds = fireHooked(7, 100);
    await(store.updateDelivery(ds.get(0).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    List<List<Delivery>> batches = new ArrayList<>();
    long n = await(store.loadPendingDeliveries(4, b -> {
      batches.add(new ArrayList<>(b));
      return Future.succeededFuture();
    }));
    assertThat(n).isEqualTo(6);
    assertThat(batches).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(4));
    assertThat(batches.stream().flatMap(List::stream).map(Delivery::seq).sorted().toList())
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  void trimDeliveriesRemovesTheOldestFinishedOnesAndNeverAPendingOne() {
    List<Delivery> ds = fireHooked(6, 100);
    for (int i = 0; i < 4; i++) {
      DeliveryState st = i % 2 == 0 ? DeliveryState.SUCCEEDED : DeliveryState.DEAD;
      await(store.updateDelivery(ds.get(i).after(new Attempt(1, 100, i % 2 == 0 ? 200 : 410, null, 1), st, 0,
          1000 + i)));
    }
    // count: keep the 2 newest finished (seqs 3 and 4)
    assertThat(await(store.trimDeliveries(new Retention(2, Long.MAX_VALUE / 4), 2000))).isEqualTo(2);
    assertThat(await(store.listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(3L, 4L, 5L, 6L);
    // age: finished ones changed before 1003 go (seq 3 changed at 1002); pending ones stay however old
    assertThat(await(store.trimDeliveries(new Retention(100, 1000), 2003))).isEqualTo(1);
    assertThat(await(store.listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(4L, 5L, 6L);
    assertThat(await(store.trimDeliveries(new Retention(1, 0), 1_000_000))).isEqualTo(1);
    assertThat(await(store.listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq).containsExactly(5L, 6L);
    assertThat(await(store.getDelivery(4))).isNull();
  }

  @Test
  void pendingDeliveriesAndTheirAttemptsSurviveAReopen() throws Exception {
    List<Delivery> ds = fireHooked(2, 100);
    Delivery retrying = ds.get(0).after(new Attempt(1, 100, 503, null, 4), DeliveryState.PENDING, 5100, 104);
    await(store.updateDelivery(retrying));
    await(store.close());
    TimerStore reopened = reopenOrSkip();
    store = reopened;
    List<Delivery> loaded = new ArrayList<>();
    await(store.loadPendingDeliveries(10, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).containsExactlyInAnyOrder(retrying, ds.get(1));
    assertThat(await(store.getDelivery(1))).isEqualTo(retrying);
  }

  // ---- durability ----

  @Test
  void timersFiringLogAndSequenceSurviveAReopen() throws Exception {
    Timer keep = periodic("keep", 100, 50);
    Timer gone = timer("gone", 100);
    await(store.putAll(List.of(keep, gone, timer("far", 99_999_999_999L))));
    await(store.recordFirings(List.of(fire(gone, 120, null), fire(keep, 120, keep.fired(150)))));
    await(store.close());
    TimerStore reopened = reopenOrSkip();
    store = reopened;
    assertThat(await(store.get("keep"))).isEqualTo(keep.fired(150));
    assertThat(await(store.get("gone"))).isNull();
    assertThat(await(store.get("far")).nextDueAt()).isEqualTo(99_999_999_999L);
    assertThat(await(store.lastSeq())).isEqualTo(2);
    assertThat(await(store.readFirings(0, 10))).extracting(Firing::id).containsExactly("gone", "keep");
    Timer more = timer("more", 300);
    await(store.put(more));
    assertThat(await(store.recordFirings(List.of(fire(more, 300, null)))).get(0).firing().seq()).isEqualTo(3);
  }
}
