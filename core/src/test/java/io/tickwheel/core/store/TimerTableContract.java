package io.tickwheel.core.store;

import static io.tickwheel.core.store.StoreFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract of the {@link TimerTable} part: writes, reads, listing and recovery of timers, every field of a
 * timer round-tripping. Run against every store by {@link TimerStoreContract}.
 */
public interface TimerTableContract extends StoreUnderTest {

  @Test
  default void putThenGetReturnsTheTimerWithItsPayload() {
    Timer t = timer("a.b:c-1", 5000).withPayload("{\"msg\":\"héllo ☃\",\"n\":[1,2]}");
    await(store().put(t));
    assertThat(await(store().get("a.b:c-1"))).isEqualTo(t);
  }

  @Test
  default void getOfAnUnknownIdIsNull() {
    assertThat(await(store().get("nope"))).isNull();
  }

  @Test
  default void putReplacesAnExistingTimer() {
    await(store().put(timer("x", 5000)));
    Timer replaced = periodic("x", 9000, 100).withGeneration(2);
    await(store().put(replaced));
    assertThat(await(store().get("x"))).isEqualTo(replaced);
  }

  @Test
  default void timerWithoutPayloadRoundTrips() {
    Timer t = timer("np", 10).withPayload(null);
    await(store().put(t));
    assertThat(await(store().get("np"))).isEqualTo(t);
  }

  @Test
  default void removeSaysWhetherTheTimerExisted() {
    await(store().put(timer("r", 5000)));
    assertThat(await(store().remove("r"))).isTrue();
    assertThat(await(store().remove("r"))).isFalse();
    assertThat(await(store().get("r"))).isNull();
  }

  @Test
  default void putAllWritesEveryTimer() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      many.add(timer("bulk-" + i, 10_000 + i));
    }
    await(store().putAll(many));
    assertThat(await(store().get("bulk-0"))).isEqualTo(many.get(0));
    assertThat(await(store().get("bulk-1999"))).isEqualTo(many.get(1999));
    assertThat(await(store().loadAll(500, b -> Future.succeededFuture()))).isEqualTo(2000L);
  }

  @Test
  default void createAllStoresNewTimersAsPutAllDoes() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      many.add(timer("new-" + i, 20_000 + i));
    }
    await(store().createAll(many));
    await(store().createAll(List.of(timer("single", 19_999))));
    assertThat(await(store().get("new-0"))).isEqualTo(many.get(0));
    assertThat(await(store().get("new-1499"))).isEqualTo(many.get(1499));
    assertThat(await(store().loadAll(500, b -> Future.succeededFuture()))).isEqualTo(1501L);
    TimerPage first = await(store().list(null, null, 3));
    assertThat(first.timers()).extracting(Timer::id).containsExactly("single", "new-0", "new-1");
    assertThat(await(store().remove("new-7"))).isTrue();
    assertThat(await(store().get("new-7"))).isNull();
  }

  @Test
  default void createAllOfAnIdThatIsStoredAfterAllReplacesItAndListsItOnceAtItsNewDueTime() {
    // a caller bug (createAll promises absent ids): the record is replaced; a store that skipped reading the old
    // version may keep its index entry, but must never show it
    await(store().put(timer("dup", 1000)));
    await(store().put(timer("other", 3000)));
    Timer again = timer("dup", 5000);
    await(store().createAll(List.of(again)));
    assertThat(await(store().get("dup"))).isEqualTo(again);
    assertThat(await(store().list(null, null, 10)).timers()).extracting(Timer::id).containsExactly("other", "dup");
    List<Timer> loaded = new ArrayList<>();
    await(store().loadAll(10, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).extracting(Timer::id).containsExactlyInAnyOrder("dup", "other");
    assertThat(await(store().remove("dup"))).isTrue();
    assertThat(await(store().list(null, null, 10)).timers()).extracting(Timer::id).containsExactly("other");
  }

  @Test
  default void updateReturnsTheStoredTimerWithTheStoredPayloadAndTheNewSchedule() {
    Timer t = timer("u", 5000);
    await(store().put(t));
    Timer touched = t.touched(8000).withoutPayload();
    Timer stored = await(store().update(touched, 1));
    assertThat(stored).isEqualTo(touched.withPayload(t.payload()));
    assertThat(stored.payload()).isEqualTo("{\"n\":\"u\"}");
    assertThat(await(store().get("u"))).isEqualTo(stored);
    Timer none = timer("np", 100).withPayload(null);
    await(store().put(none));
    assertThat(await(store().update(none.touched(200).withPayload("[\"ignored\"]"), 1)))
        .as("a timer without payload stays without; next's payload is ignored")
        .isEqualTo(none.touched(200));
  }

  @Test
  default void updateOfAStaleGenerationOrAnAbsentTimerReturnsNullAndChangesNothing() {
    Timer t = timer("u", 5000);
    await(store().put(t));
    Timer touched = await(store().update(t.touched(8000), 1));
    assertThat(await(store().update(touched.touched(9000), 1))).as("stale generation").isNull();
    assertThat(await(store().get("u"))).isEqualTo(touched);
    assertThat(await(store().list(null, null, 10)).timers()).containsExactly(touched);
    assertThat(await(store().update(timer("absent", 1), 1))).isNull();
    assertThat(await(store().get("absent"))).as("update never creates a timer").isNull();
  }

  @Test
  default void updateAllAppliesEachItemOnItsOwnGenerationAndAnswersInOrder() {
    Timer a = timer("ua", 5000);
    Timer b = timer("ub", 6000).withPayload(null);
    Timer c = timer("uc", 7000);
    await(store().putAll(List.of(a, b, c)));
    Timer staleC = await(store().update(c.touched(7500), 1));
    List<Timer> next = List.of(a.touched(8000).withoutPayload(), timer("absent", 1), b.touched(9000),
        staleC.touched(9500), c.touched(9900));
    List<Timer> out = await(store().updateAll(next.subList(0, 4), new long[] {1, 1, 1, 1}));
    assertThat(out).hasSize(4);
    assertThat(out.get(0)).isEqualTo(a.touched(8000)).extracting(Timer::payload).isEqualTo(a.payload());
    assertThat(out.get(1)).as("absent: nothing created").isNull();
    assertThat(out.get(2)).isEqualTo(b.touched(9000));
    assertThat(out.get(3)).as("stale generation").isNull();
    assertThat(await(store().get("ua"))).isEqualTo(out.get(0));
    assertThat(await(store().get("ub"))).isEqualTo(out.get(2));
    assertThat(await(store().get("uc"))).isEqualTo(staleC);
    assertThat(await(store().get("absent"))).isNull();
    assertThat(await(store().list(null, null, 10)).timers()).containsExactly(staleC, out.get(0), out.get(2));
    assertThat(await(store().updateAll(List.of(), new long[0]))).isEmpty();
  }

  @Test
  default void updateAllOfManyTimersIsOneCallAndKeepsTheIndexInStep() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      ts.add(timer("many-" + i, 10_000 + i));
    }
    await(store().createAll(ts));
    List<Timer> next = new ArrayList<>();
    long[] gens = new long[ts.size()];
    for (int i = 0; i < ts.size(); i++) {
      next.add(ts.get(i).touched(50_000 - i));
      gens[i] = i % 10 == 0 ? 7 : 1;          // every tenth is stale
    }
    List<Timer> out = await(store().updateAll(next, gens));
    for (int i = 0; i < ts.size(); i++) {
      assertThat(out.get(i)).isEqualTo(i % 10 == 0 ? null : next.get(i).withPayload(ts.get(i).payload()));
    }
    List<Timer> first = await(store().list(null, null, 3)).timers();
    assertThat(first).extracting(Timer::id).containsExactly("many-0", "many-10", "many-20");
    Timer lastTouched = await(store().list(null, null, 2500)).timers().get(2499);
    assertThat(lastTouched.id()).isEqualTo("many-1");
    assertThat(lastTouched.nextDueAt()).isEqualTo(49_999);
  }

  @Test
  default void updateAllRefusesRepeatedIdsAndMismatchedGenerationsWithoutWriting() {
    Timer t = timer("rep", 5000);
    await(store().put(t));
    assertThat(failure(store().updateAll(List.of(t.touched(6000), t.touched(7000)), new long[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rep");
    assertThat(failure(store().updateAll(List.of(t.touched(6000)), new long[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(await(store().get("rep"))).isEqualTo(t);
  }

  @Test
  default void callsFromOneThreadApplyInOrder() {
    Timer t = timer("order", 1000);
    store().put(t);
    store().put(t.withGeneration(2).withNextDueAt(2000));
    store().remove("order");
    Future<Void> last = store().put(t.withGeneration(3).withNextDueAt(3000));
    await(last);
    assertThat(await(store().get("order")).generation()).isEqualTo(3);
  }

  @Test
  default void loadAllStreamsEveryTimerInBoundedBatchesOneAtATime() {
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      many.add(timer("load-" + i, 10_000 + i));
    }
    await(store().putAll(many));
    List<Timer> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    AtomicInteger maxBatch = new AtomicInteger();
    long n = await(store().loadAll(1000, batch -> {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      maxBatch.accumulateAndGet(batch.size(), Math::max);
      seen.addAll(batch);
      Promise<Void> later = Promise.promise();
      vertx().setTimer(5, id -> {
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
  default void listOrdersByDueThenIdAndPagesWithTheCursor() {
    await(store().putAll(List.of(timer("c", 300), timer("a", 300), timer("b", 100), timer("d", 200),
        periodic("e", 50, 10))));
    TimerPage p1 = await(store().list(null, null, 2));
    assertThat(p1.timers()).extracting(Timer::id).containsExactly("e", "b");
    assertThat(p1.next()).isNotNull();
    TimerPage p2 = await(store().list(null, TimerCursor.decode(p1.next().encode()), 2));
    assertThat(p2.timers()).extracting(Timer::id).containsExactly("d", "a");
    TimerPage p3 = await(store().list(null, p2.next(), 2));
    assertThat(p3.timers()).extracting(Timer::id).containsExactly("c");
    assertThat(p3.next()).isNull();
  }

  @Test
  default void listFiltersByTopic() {
    await(store().putAll(List.of(timer("a", 300), periodic("p1", 200, 10), timer("b", 100), periodic("p2", 400, 10))));
    TimerPage page = await(store().list("t2", null, 10));
    assertThat(page.timers()).extracting(Timer::id).containsExactly("p1", "p2");
    assertThat(page.next()).isNull();
    assertThat(await(store().list("none", null, 10)).timers()).isEmpty();
  }

  @Test
  default void cronAndJitteredTimersRoundTripEveryExtrasFieldThroughPutGetAndPutAll() {
    Timer c = cron("cron-1", 1_000_000, 1_040_000);
    Timer j = jittered("jit-1", 2_000_000, 2_010_000);
    Timer pausedOnly = timer("paused-once", 3000).withPaused(true);
    Timer endOnly = periodic("end-only", 4000, 10).withExtras(new Timer.Extras(null, 9000, 0, false, 0));
    await(store().put(c));
    await(store().putAll(List.of(j, pausedOnly, endOnly)));
    for (Timer t : List.of(c, j, pausedOnly, endOnly)) {
      Timer got = await(store().get(t.id()));
      assertThat(got).as(t.id()).isEqualTo(t);
      assertThat(got.extras()).as(t.id()).isEqualTo(t.extras());
    }
    Timer got = await(store().get("cron-1"));
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
  default void aCallbackRoundTripsThroughPutCreateTouchAndAFiring() {
    Timer a = withCallback("cb-1", 5000);
    Timer b = withCallback("cb-2", 6000);
    await(store().put(a));
    await(store().createAll(List.of(b)));
    assertThat(await(store().get("cb-1"))).isEqualTo(a);
    assertThat(await(store().get("cb-2")).callback()).isEqualTo(b.callback());
    Timer touched = a.touched(9000);
    assertThat(await(store().update(touched, a.generation())).callback()).isEqualTo(a.callback());
    Timer c = cron("cb-cron", 10_000, 10_040).withPaused(false);
    await(store().put(c));
    Timer next = c.fired(20_000, 20_070);
    await(store().recordFirings(List.of(
        new FiringRequest(c.id(), c.generation(), c.firings(), true, 10_040, 10_041, next, 10_000))));
    Callback got = await(store().get("cb-cron")).callback();
    assertThat(got).isEqualTo(c.callback());
    assertThat(got.url()).isEqualTo("https://hooks.example.com:8443/t/é?x=1&y=%20");
    assertThat(got.minBackoffMs()).isEqualTo(250);
    assertThat(got.maxBackoffMs()).isEqualTo(60_000);
  }

  @Test
  default void extrasRoundTripThroughCreateAllListAndLoadAll() {
    Timer c = cron("cron-2", 500, 530);
    Timer j = jittered("jit-2", 600, 610);
    Timer plain = timer("plain", 700);
    await(store().createAll(List.of(c, j, plain)));
    assertThat(await(store().list(null, null, 10)).timers()).containsExactly(c, j, plain);
    assertThat(await(store().list("cal", null, 10)).timers()).containsExactly(c);
    List<Timer> loaded = Collections.synchronizedList(new ArrayList<>());
    await(store().loadAll(2, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).containsExactlyInAnyOrder(c, j, plain);
    assertThat(loaded.stream().filter(t -> t.id().equals("plain")).findFirst().orElseThrow().extras()).isNull();
  }

  @Test
  default void updateStoresTheNewExtrasWithTheStoredPayload() {
    Timer c = cron("cron-3", 1000, 1050);
    await(store().put(c));
    Timer resumed = c.withPaused(false).touched(2000, 2070).withPayload("ignored");
    Timer stored = await(store().update(resumed, c.generation()));
    assertThat(stored).isEqualTo(resumed.withPayload(c.payload()));
    assertThat(await(store().get("cron-3"))).isEqualTo(stored);
    assertThat(stored.paused()).isFalse();
    assertThat(stored.nominalAt()).isEqualTo(2000);
    Timer j = jittered("jit-3", 100, 110);
    await(store().put(j));
    Timer plainAgain = j.withExtras(null).touched(3000);
    assertThat(await(store().update(plainAgain, j.generation())).extras()).isNull();
    assertThat(await(store().get("jit-3"))).as("extras can be dropped again").isEqualTo(plainAgain.withPayload(j.payload()));
  }

  @Test
  default void calendarTimersNominalTimesAndPausedStateSurviveAReopen() throws Exception {
    Timer c = cron("cron-5", 1000, 1050);
    Timer j = jittered("jit-5", 1000, 1010);
    await(store().putAll(List.of(c, j)));
    Timer next = j.fired(61_000, 61_020);
    FiringResult r = await(store().recordFirings(List.of(
        new FiringRequest(j.id(), j.generation(), j.firings(), true, 1010, 1011, next, 1000)))).get(0);
    await(store().close());
    TimerStore reopened = reopenOrSkip();
    assertThat(await(store().get("cron-5"))).isEqualTo(c);
    assertThat(await(store().get("cron-5")).paused()).as("a paused timer stays paused").isTrue();
    assertThat(await(store().get("jit-5"))).isEqualTo(next.withPayload(j.payload()));
    assertThat(await(store().readFirings(0, 10))).containsExactly(r.firing());
    assertThat(await(store().readFirings(0, 10)).get(0).nominalAt()).isEqualTo(1000);
  }
}
