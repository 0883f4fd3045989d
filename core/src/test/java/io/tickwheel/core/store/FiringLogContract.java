package io.tickwheel.core.store;

import static io.tickwheel.core.store.StoreFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of the {@link FiringLog} part: settling due timers, the sequence, reading and trimming the log.
 * Run against every store by {@link TimerStoreContract}.
 */
public interface FiringLogContract extends StoreUnderTest {

  @Test
  default void firstFiringGetsSeqOneAndCarriesTopicAndPayload() {
    Timer t = timer("f", 100);
    await(store().put(t));
    List<FiringResult> r = await(store().recordFirings(List.of(fire(t, 105, null))));
    assertThat(r).hasSize(1);
    assertThat(r.get(0).applied()).isTrue();
    assertThat(r.get(0).firing()).isEqualTo(new Firing(1, "f", "t1", 1, 100, 105, t.payload()));
    assertThat(await(store().lastSeq())).isEqualTo(1);
  }

  @Test
  default void lastSeqIsZeroOnAnEmptyStore() {
    assertThat(await(store().lastSeq())).isZero();
    assertThat(await(store().readFirings(0, 10))).isEmpty();
  }

  @Test
  default void firingOfAOnceTimerRemovesIt() {
    Timer t = timer("once", 100);
    await(store().put(t));
    await(store().recordFirings(List.of(fire(t, 100, null))));
    assertThat(await(store().get("once"))).isNull();
  }

  @Test
  default void firingOfAPeriodicTimerAdvancesItAndKeepsItsPayload() {
    Timer t = periodic("p", 100, 50);
    await(store().put(t));
    Timer next = t.fired(150).withoutPayload();
    List<FiringResult> r = await(store().recordFirings(List.of(fire(t, 101, next))));
    assertThat(r.get(0).firing().payload()).isEqualTo("[1,2,3]");
    assertThat(await(store().get("p"))).isEqualTo(t.fired(150));
  }

  @Test
  default void staleFiringRequestsAreRefusedAndConsumeNoSeq() {
    Timer t = periodic("s", 100, 50);
    await(store().put(t));
    FiringRequest wrongGen = new FiringRequest("s", 7, 0, true, 100, 100, t.fired(150));
    FiringRequest wrongCount = new FiringRequest("s", 1, 3, true, 100, 100, t.fired(150));
    FiringRequest unknown = new FiringRequest("ghost", 1, 0, true, 100, 100, null);
    List<FiringResult> r = await(store().recordFirings(List.of(wrongGen, wrongCount, unknown)));
    assertThat(r).extracting(FiringResult::applied).containsExactly(false, false, false);
    assertThat(r).extracting(FiringResult::firing).containsOnlyNulls();
    assertThat(await(store().lastSeq())).isZero();
    assertThat(await(store().get("s"))).isEqualTo(t);
    assertThat(await(store().get("ghost"))).as("a stale request never creates a timer").isNull();
  }

  @Test
  default void aSettledFiringCannotBeRecordedTwice() {
    Timer t = periodic("twice", 100, 50);
    await(store().put(t));
    FiringRequest once = fire(t, 100, t.fired(150));
    assertThat(await(store().recordFirings(List.of(once))).get(0).applied()).isTrue();
    assertThat(await(store().recordFirings(List.of(once))).get(0).applied()).isFalse();
    assertThat(await(store().lastSeq())).isEqualTo(1);
  }

  @Test
  default void cancelledTimerNeverFiresAfterwards() {
    Timer t = timer("c", 100);
    await(store().put(t));
    await(store().remove("c"));
    assertThat(await(store().recordFirings(List.of(fire(t, 100, null)))).get(0).applied()).isFalse();
    assertThat(await(store().readFirings(0, 10))).isEmpty();
  }

  @Test
  default void aBatchOfFiringsGetsConsecutiveSeqsInListOrder() {
    List<FiringRequest> reqs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Timer t = timer("b" + i, 100 + i);
      await(store().put(t));
      reqs.add(fire(t, 200, null));
    }
    List<FiringResult> r = await(store().recordFirings(reqs));
    for (int i = 0; i < 100; i++) {
      assertThat(r.get(i).firing().seq()).isEqualTo(i + 1);
      assertThat(r.get(i).firing().id()).isEqualTo("b" + i);
    }
  }

  @Test
  default void aTimerReArmedTwiceInOneBatchBesideOthersIsIndexedOnceAtItsLastDueTime() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ts.add(periodic("r" + i, 100 + i, 1000));
    }
    await(store().putAll(ts));
    Timer r2 = ts.get(2).fired(1102);
    List<FiringRequest> reqs = new ArrayList<>();
    for (Timer t : ts) {
      reqs.add(fire(t, 110, t.fired(t.nextDueAt() + 1000)));
    }
    reqs.add(fire(r2, 1110, r2.fired(2102)));          // r2 again, after the others
    reqs.add(fire(ts.get(0), 110, null));               // stale now: r0 has fired once
    List<FiringResult> r = await(store().recordFirings(reqs));

    assertThat(r).extracting(FiringResult::applied).containsExactly(true, true, true, true, true, true, false);
    List<Timer> listed = await(store().list(null, null, 100)).timers();
    assertThat(listed).extracting(Timer::id).containsExactly("r0", "r1", "r3", "r4", "r2");
    assertThat(listed).extracting(Timer::nextDueAt).containsExactly(1100L, 1101L, 1103L, 1104L, 2102L);
    assertThat(await(store().get("r2"))).isEqualTo(r2.fired(2102));
    assertThat(await(store().list(null, TimerCursor.after(r2.fired(2102)), 100)).timers()).isEmpty();
  }

  @Test
  default void skippedMisfireAdvancesTheTimerWithoutALogEntry() {
    Timer t = periodic("skip", 100, 50);
    await(store().put(t));
    Timer next = t.withNextDueAt(1050);
    FiringRequest skip = new FiringRequest("skip", 1, 0, false, 1000, 1020, next);
    List<FiringResult> r = await(store().recordFirings(List.of(skip)));
    assertThat(r.get(0).applied()).isTrue();
    assertThat(r.get(0).firing()).isNull();
    assertThat(await(store().lastSeq())).isZero();
    assertThat(await(store().get("skip")).nextDueAt()).isEqualTo(1050);
  }

  @Test
  default void readFiringsReturnsThoseAfterTheSeqInOrderUpToTheLimit() {
    recordOnceFirings(10, 1000);
    List<Firing> after3 = await(store().readFirings(3, 4));
    assertThat(after3).extracting(Firing::seq).containsExactly(4L, 5L, 6L, 7L);
    assertThat(await(store().readFirings(0, 100))).hasSize(10);
    assertThat(await(store().readFirings(10, 100))).isEmpty();
  }

  @Test
  default void trimByCountKeepsTheNewestFiringsAndTheSequenceGoesOn() {
    recordOnceFirings(20, 1000);
    assertThat(await(store().trimFirings(new Retention(5, Long.MAX_VALUE / 4), 2000))).isEqualTo(15);
    assertThat(await(store().readFirings(0, 100))).extracting(Firing::seq).containsExactly(16L, 17L, 18L, 19L, 20L);
    assertThat(await(store().lastSeq())).isEqualTo(20);
    Timer t = timer("after-trim", 3000);
    await(store().put(t));
    assertThat(await(store().recordFirings(List.of(fire(t, 3000, null)))).get(0).firing().seq()).isEqualTo(21);
  }

  @Test
  default void trimByAgeRemovesOldFiringsButAlwaysKeepsTheNewest() {
    recordOnceFirings(5, 1000);     // fired at 1000
    assertThat(await(store().trimFirings(new Retention(1000, 500), 10_000))).isEqualTo(4);
    assertThat(await(store().readFirings(0, 100))).extracting(Firing::seq).containsExactly(5L);
    assertThat(await(store().lastSeq())).isEqualTo(5);
  }

  @Test
  default void trimByAgeRemovesEveryOldFiringUpToTheFirstRecentOne() {
    recordOnceFirings("old", 300, 1000);
    recordOnceFirings("new", 20, 5000);
    assertThat(await(store().trimFirings(new Retention(1000, 500), 5_200))).isEqualTo(300);
    assertThat(await(store().readFirings(0, 1000))).extracting(Firing::seq)
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(301, 320).boxed().toList());
    assertThat(await(store().trimFirings(new Retention(1000, 500), 5_200))).as("nothing old is left").isZero();
    assertThat(await(store().readFirings(0, 1000))).hasSize(20);
  }

  @Test
  default void aTrimThatRemovedNothingDoesNotHideWhatAgesOutOrComesLater() {
    Retention byAge = new Retention(1000, 500);
    recordOnceFirings("a", 3, 1000);
    recordOnceFirings("b", 2, 3000);
    assertThat(await(store().trimFirings(byAge, 1200))).as("nothing is old yet").isZero();
    assertThat(await(store().trimFirings(byAge, 1400))).as("still nothing").isZero();
    assertThat(await(store().trimFirings(byAge, 1600))).as("the first three aged out").isEqualTo(3);
    assertThat(await(store().trimFirings(byAge, 3400))).as("the rest is young").isZero();
    assertThat(await(store().trimFirings(byAge, 4000))).as("the newest is always kept").isEqualTo(1);
    assertThat(await(store().trimFirings(byAge, 900_000))).as("only the newest is left").isZero();

    Retention byCount = new Retention(2, Long.MAX_VALUE / 4);
    assertThat(await(store().trimFirings(byCount, 900_000))).isZero();
    recordOnceFirings("c", 3, 900_000);
    assertThat(await(store().trimFirings(byCount, 900_000))).as("the new firings count").isEqualTo(2);
    assertThat(await(store().readFirings(0, 100))).extracting(Firing::seq).containsExactly(7L, 8L);
  }

  private void recordOnceFirings(int n, long firedAt) {
    recordOnceFirings("log", n, firedAt);
  }

  private void recordOnceFirings(String prefix, int n, long firedAt) {
    List<FiringRequest> reqs = new ArrayList<>();
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Timer t = timer(prefix + i, 100 + i);
      ts.add(t);
      reqs.add(fire(t, firedAt, null));
    }
    await(store().putAll(ts));
    await(store().recordFirings(reqs));
  }

  @Test
  default void aRecordedFiringKeepsItsNominalTimeAndTheAdvancedTimerItsExtras() {
    Timer c = cron("cron-4", 10_000, 10_040).withPaused(false);
    Timer plain = timer("plain-4", 10_000);
    await(store().putAll(List.of(c, plain)));
    Timer next = c.fired(20_000, 20_070);
    List<FiringResult> r = await(store().recordFirings(List.of(
        new FiringRequest(c.id(), c.generation(), c.firings(), true, 10_040, 10_041, next, 10_000),
        fire(plain, 10_002, null))));
    assertThat(r.get(0).firing().nominalAt()).isEqualTo(10_000);
    assertThat(r.get(0).firing().dueAt()).isEqualTo(10_040);
    assertThat(r.get(1).firing().nominalAt()).as("no jitter: nominal is due").isEqualTo(10_000);
    assertThat(await(store().readFirings(0, 10))).containsExactly(r.get(0).firing(), r.get(1).firing());
    Timer stored = await(store().get("cron-4"));
    assertThat(stored).isEqualTo(next.withPayload(c.payload()));
    assertThat(stored.nominalAt()).isEqualTo(20_000);
  }

  @Test
  default void timersFiringLogAndSequenceSurviveAReopen() throws Exception {
    Timer keep = periodic("keep", 100, 50);
    Timer gone = timer("gone", 100);
    await(store().putAll(List.of(keep, gone, timer("far", 99_999_999_999L))));
    await(store().recordFirings(List.of(fire(gone, 120, null), fire(keep, 120, keep.fired(150)))));
    await(store().close());
    TimerStore reopened = reopenOrSkip();
    assertThat(await(store().get("keep"))).isEqualTo(keep.fired(150));
    assertThat(await(store().get("gone"))).isNull();
    assertThat(await(store().get("far")).nextDueAt()).isEqualTo(99_999_999_999L);
    assertThat(await(store().lastSeq())).isEqualTo(2);
    assertThat(await(store().readFirings(0, 10))).extracting(Firing::id).containsExactly("gone", "keep");
    Timer more = timer("more", 300);
    await(store().put(more));
    assertThat(await(store().recordFirings(List.of(fire(more, 300, null)))).get(0).firing().seq()).isEqualTo(3);
  }
}
