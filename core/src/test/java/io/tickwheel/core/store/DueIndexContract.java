package io.tickwheel.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link DueIndex}: range reads of the stored timers by due time, and the exact count. A store's test
 * extends it and says how to open a fresh, empty store (a {@link TimerStore} that is a {@link DueIndex}) and, for a
 * persistent store, how to reopen the same data.
 */
public abstract class DueIndexContract {

  protected static Vertx vertx;
  protected TimerStore store;

  /** A new, empty store; it implements {@link DueIndex}. */
  protected abstract TimerStore createStore(Vertx vertx) throws Exception;

  /** The store over the same data as the last {@link #createStore}, after it was closed; {@code null}: none. */
  protected TimerStore reopenStore(Vertx vertx) throws Exception {
    return null;
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
    assertThat(store).isInstanceOf(DueIndex.class);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      await(store.close());
    }
  }

  private DueIndex index() {
    return (DueIndex) store;
  }

  protected static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("store call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  private static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":\"" + id + "\"}", 1, due, 0, 1);
  }

  private static Timer periodic(String id, long due) {
    return new Timer(id, "t2", Kind.FIXED_RATE, 100, 100, 0, Misfire.FIRE_ALL, null, 1, due, 0, 1);
  }

  private static List<String> ids(TimerPage p) {
    return p.timers().stream().map(Timer::id).toList();
  }

  /** Every timer of the range, following {@code next} with pages of {@code limit}. */
  private List<Timer> readAll(long from, long to, int limit) {
    List<Timer> all = new ArrayList<>();
    TimerCursor c = null;
    int pages = 0;
    do {
      TimerPage p = await(index().dueBetween(from, to, c, limit));
      assertThat(p.timers().size()).isLessThanOrEqualTo(limit);
      all.addAll(p.timers());
      c = p.next();
      assertThat(++pages).as("pages").isLessThan(10_000);
    } while (c != null);
    return all;
  }

  // ------------------------------------------------------------------ range reads

  @Test
  void rangeIsFromInclusiveToExclusiveOrderedByDueThenIdWithPayloads() {
    await(store.putAll(List.of(timer("b", 1000), timer("a", 1000), timer("c", 999), timer("d", 2000),
        timer("e", 1999), timer("f", 1500))));
    TimerPage p = await(index().dueBetween(1000, 2000, null, 100));
    assertThat(ids(p)).containsExactly("a", "b", "f", "e");
    assertThat(p.next()).isNull();
    assertThat(p.timers().get(0)).isEqualTo(timer("a", 1000));
    assertThat(p.timers().get(0).payload()).isEqualTo("{\"n\":\"a\"}");
  }

  @Test
  void anEmptyOrInvertedRangeAnswersNothing() {
    await(store.putAll(List.of(timer("a", 1000), timer("b", 2000))));
    assertThat(await(index().dueBetween(1000, 1000, null, 10)).timers()).isEmpty();
    assertThat(await(index().dueBetween(2000, 1000, null, 10)).timers()).isEmpty();
    assertThat(await(index().dueBetween(1001, 2000, null, 10)).timers()).isEmpty();
    assertThat(await(index().dueBetween(1001, 2000, null, 10)).next()).isNull();
    assertThat(await(index().dueBetween(0, 10, null, 10)).timers()).isEmpty();
  }

  @Test
  void negativeAndExtremeDueTimesSortInTimeOrder() {
    await(store.putAll(List.of(timer("n", -5), timer("z", 0), timer("p", 5), timer("max", Long.MAX_VALUE - 1))));
    assertThat(ids(await(index().dueBetween(-10, 10, null, 10)))).containsExactly("n", "z", "p");
    assertThat(ids(await(index().dueBetween(Long.MIN_VALUE, Long.MAX_VALUE, null, 10))))
        .containsExactly("n", "z", "p", "max");
  }

  @Test
  void pagesFollowTheCursorAndEndWithNoNext() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      ts.add(timer(String.format("id%03d", i), 10_000 + (i % 7) * 10));   // many share a due time
    }
    await(store.putAll(ts));
    List<Timer> all = readAll(10_000, 10_070, 16);
    assertThat(all).hasSize(250);
    assertThat(all).isSortedAccordingTo((a, b) -> a.nextDueAt() != b.nextDueAt()
        ? Long.compare(a.nextDueAt(), b.nextDueAt()) : a.id().compareTo(b.id()));
    assertThat(all.stream().map(Timer::id).distinct().count()).isEqualTo(250);
    // a page that ends exactly at the last timer of the range
    TimerPage first = await(index().dueBetween(10_060, 10_070, null, 35));
    List<Timer> rest = new ArrayList<>(first.timers());
    if (first.next() != null) {
      rest.addAll(await(index().dueBetween(10_060, 10_070, first.next(), 35)).timers());
    }
    assertThat(rest).hasSize((int) ts.stream().filter(t -> t.nextDueAt() == 10_060).count());
  }

  @Test
  void aCursorBeforeTheRangeStartsAtItsLowerBoundAndOneBeyondItAnswersNothing() {
    await(store.putAll(List.of(timer("a", 100), timer("b", 200), timer("c", 300))));
    assertThat(ids(await(index().dueBetween(200, 400, new TimerCursor(100, "a"), 10)))).containsExactly("b", "c");
    assertThat(ids(await(index().dueBetween(100, 400, new TimerCursor(200, "b"), 10)))).containsExactly("c");
    assertThat(ids(await(index().dueBetween(100, 400, new TimerCursor(200, "a"), 10)))).containsExactly("b", "c");
    assertThat(ids(await(index().dueBetween(100, 300, new TimerCursor(300, "c"), 10)))).isEmpty();
  }

  @Test
  void writesMoveTimersInAndOutOfTheRange() {
    await(store.putAll(List.of(timer("a", 100), timer("b", 200), periodic("p", 150))));
    // touch a out of the range, b into it
    Timer a2 = await(store.update(timer("a", 5000).touched(5000), 1));
    assertThat(a2).isNotNull();
    await(store.put(timer("c", 120)));
    assertThat(await(store.remove("b"))).isTrue();
    assertThat(ids(await(index().dueBetween(0, 1000, null, 10)))).containsExactly("c", "p");
    // a firing that advances p leaves it out of its old place
    List<FiringResult> r = await(store.recordFirings(List.of(
        new FiringRequest("p", 1, 0, true, 150, 151, periodic("p", 150).fired(2000)))));
    assertThat(r.get(0).applied()).isTrue();
    assertThat(ids(await(index().dueBetween(0, 1000, null, 10)))).containsExactly("c");
    assertThat(ids(await(index().dueBetween(1000, 6000, null, 10)))).containsExactly("p", "a");
    assertThat(await(index().dueBetween(1000, 6000, null, 10)).timers().get(1).generation()).isEqualTo(2);
  }

  @Test
  void aLimitOutsideItsBoundsIsRefused() {
    assertThatThrownBy(() -> await(index().dueBetween(0, 10, null, 0))).hasRootCauseInstanceOf(
        IllegalArgumentException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> await(index().dueBetween(0, 10, null, DueIndex.MAX_DUE_LIMIT + 1)))
        .hasRootCauseInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
  }

  @Test
  void storedIdsAnswersWhichIdsHaveARecord() {
    await(store.putAll(List.of(timer("a", 100), timer("b", 200))));
    await(store.remove("b"));
    assertThat(await(index().storedIds(List.of("a", "b", "c")))).containsExactly("a");
    assertThat(await(index().storedIds(List.of()))).isEmpty();
    List<String> tooMany = new ArrayList<>();
    for (int i = 0; i <= DueIndex.MAX_DUE_LIMIT; i++) {
      tooMany.add("x" + i);
    }
    assertThatThrownBy(() -> await(index().storedIds(tooMany))).hasRootCauseInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void createAbsentWritesOnlyTheIdsNotStoredAndNamesTheOthers() {
    await(store.putAll(List.of(timer("a", 100), inTopic("b", "x", 200))));
    Timer a2 = timer("a", 900).withPayload("{\"n\":\"a2\"}");
    Set<String> stored = await(index().createAbsent(List.of(timer("c", 300), a2, inTopic("d", "y", 50),
        inTopic("b", "y", 950))));
    assertThat(stored).containsExactlyInAnyOrder("a", "b");
    // the stored ones are untouched (due time, payload, topic); the new ones are due-indexed and counted
    assertThat(ids(await(index().dueBetween(0, 1000, null, 10)))).containsExactly("d", "a", "b", "c");
    assertThat(await(store.get("a")).payload()).isEqualTo("{\"n\":\"a\"}");
    assertThat(await(index().timerCount())).isEqualTo(4);
    assertThat(allTopics()).containsExactly(new TopicCount("t1", 2), new TopicCount("x", 1), new TopicCount("y", 1));
    assertThat(await(index().createAbsent(List.of()))).isEmpty();
  }

  @Test
  void aCreateAbsentOfOneTimerWritesItOrNamesIt() {
    await(store.put(inTopic("b", "x", 200)));
    assertThat(await(index().createAbsent(List.of(inTopic("a", "y", 100).withPaused(true))))).isEmpty();
    Timer b2 = inTopic("b", "z", 50).withPayload("{\"n\":\"b2\"}");
    assertThat(await(index().createAbsent(List.of(b2)))).containsExactly("b");
    // a was written, indexed and counted (paused too); b is untouched
    assertThat(ids(await(index().dueBetween(0, 1000, null, 10)))).containsExactly("a", "b");
    assertThat(await(store.get("a")).paused()).isTrue();
    assertThat(await(store.get("b")).topic()).isEqualTo("x");
    assertThat(await(index().timerCount())).isEqualTo(2);
    assertThat(allTopics()).containsExactly(new TopicCount("x", 1), new TopicCount("y", 1));
    assertThat(await(index().pausedCount())).isEqualTo(1);
  }

  @Test
  void aLargeCreateAbsentOverSeveralTopicsCountsOnlyWhatItWrote() {
    // stored ones spread over the call (first, middle, last of a topic's run), topics interleaved, some paused
    await(store.putAll(List.of(inTopic("k0", "old", 5), inTopic("k1777", "old", 6), inTopic("k2999", "old", 7))));
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Timer t = inTopic("k" + i, i % 3 == 2 ? "y" : "x", 10 + i);
      ts.add(i % 5 == 0 ? t.withPaused(true) : t);
    }
    assertThat(await(index().createAbsent(ts))).containsExactlyInAnyOrder("k0", "k1777", "k2999");
    assertThat(await(index().timerCount())).isEqualTo(3000);
    // k0 (x, paused), k1777 (x) and k2999 (y) kept their old topic and were not counted again
    assertThat(allTopics()).containsExactly(new TopicCount("old", 3), new TopicCount("x", 1998),
        new TopicCount("y", 999));
    assertThat(await(index().pausedCount())).isEqualTo(599);
    assertThat(await(store.get("k1777")).nextDueAt()).isEqualTo(6);
    assertThat(await(store.get("k1778")).nextDueAt()).isEqualTo(1788);
    List<String> firstDue = ids(await(index().dueBetween(0, 13, null, 10)));
    assertThat(firstDue).containsExactly("k0", "k1777", "k2999", "k1", "k2");
  }

  @Test
  void createAbsentIsOrderedWithTheCallersWrites() {
    // not awaited one by one: a create, a remove, then createAbsent of the same ids, as one caller sends them
    Future<Void> put = store.putAll(List.of(timer("a", 100), timer("b", 200)));
    Future<Boolean> removed = store.remove("a");
    Future<Set<String>> absent = index().createAbsent(List.of(timer("a", 300), timer("b", 400), timer("c", 500)));
    await(put);
    assertThat(await(removed)).isTrue();
    assertThat(await(absent)).containsExactly("b");
    assertThat(await(store.get("a")).nextDueAt()).isEqualTo(300);
    assertThat(await(store.get("b")).nextDueAt()).isEqualTo(200);
  }

  @Test
  void createAbsentRefusesRepeatedIdsAndTooManyTimersWritingNothing() {
    assertThatThrownBy(() -> await(index().createAbsent(List.of(timer("a", 1), timer("a", 2)))))
        .hasRootCauseInstanceOf(IllegalArgumentException.class).hasRootCauseMessage("timers hold id a twice");
    List<Timer> tooMany = new ArrayList<>();
    for (int i = 0; i <= DueIndex.MAX_DUE_LIMIT; i++) {
      tooMany.add(timer("x" + i, i));
    }
    assertThatThrownBy(() -> await(index().createAbsent(tooMany)))
        .hasRootCauseInstanceOf(IllegalArgumentException.class).rootCause().hasMessageContaining("at most");
    assertThat(await(index().timerCount())).isZero();
  }

  // ------------------------------------------------------------------ count

  @Test
  void theCountFollowsEveryKindOfWrite() {
    assertThat(await(index().timerCount())).isZero();
    await(store.putAll(List.of(timer("a", 100), timer("b", 200), periodic("p", 150))));
    assertThat(await(index().timerCount())).isEqualTo(3);
    await(store.createAll(List.of(timer("c", 300), timer("d", 400))));
    assertThat(await(index().timerCount())).isEqualTo(5);
    await(store.put(timer("a", 999)));                 // a replace
    await(store.putAll(List.of(timer("b", 1), timer("e", 2))));   // one replace, one new
    assertThat(await(index().timerCount())).isEqualTo(6);
    await(store.update(timer("c", 700).touched(700), 1));
    assertThat(await(index().timerCount())).isEqualTo(6);
    assertThat(await(store.remove("d"))).isTrue();
    assertThat(await(store.remove("d"))).isFalse();
    assertThat(await(index().timerCount())).isEqualTo(5);
    // a firing that ends a once timer removes it; one that advances a periodic one does not; a stale one nothing
    List<FiringResult> r = await(store.recordFirings(List.of(
        new FiringRequest("e", 1, 0, true, 2, 3, null),
        new FiringRequest("p", 1, 0, true, 150, 151, periodic("p", 150).fired(250)),
        new FiringRequest("b", 99, 0, true, 1, 3, null))));
    assertThat(r).extracting(FiringResult::applied).containsExactly(true, true, false);
    assertThat(await(index().timerCount())).isEqualTo(4);
  }

  @Test
  void theCountSurvivesAReopen() throws Exception {
    await(store.putAll(List.of(timer("a", 100), timer("b", 200), timer("c", 300))));
    await(store.remove("b"));
    await(store.close());
    store = reopenStore(vertx);
    Assumptions.assumeTrue(store != null, "the store keeps nothing across a close");
    assertThat(await(index().timerCount())).isEqualTo(2);
    assertThat(ids(await(index().dueBetween(0, 1000, null, 10)))).containsExactly("a", "c");
  }

  // ------------------------------------------------------------------ per-topic and paused counts

  private static Timer inTopic(String id, String topic, long due) {
    return new Timer(id, topic, Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, null, 1, due, 0, 1);
  }

  private List<TopicCount> allTopics() {
    return await(index().topicCounts(null, DueIndex.MAX_DUE_LIMIT));
  }

  @Test
  void topicCountsFollowEveryKindOfWrite() {
    assertThat(allTopics()).isEmpty();
    await(store.putAll(List.of(inTopic("a", "x", 100), inTopic("b", "x", 200), inTopic("c", "y", 300))));
    await(store.createAll(List.of(inTopic("d", "z", 400), inTopic("e", "x", 500))));
    assertThat(allTopics()).containsExactly(new TopicCount("x", 3), new TopicCount("y", 1), new TopicCount("z", 1));
    await(store.put(inTopic("a", "y", 100)));                          // a replace that moves a to y
    await(store.putAll(List.of(inTopic("b", "x", 250), inTopic("f", "w", 1))));   // one replace in place, one new
    assertThat(allTopics()).containsExactly(new TopicCount("w", 1), new TopicCount("x", 2), new TopicCount("y", 2),
        new TopicCount("z", 1));
    await(store.update(inTopic("c", "y", 700).touched(700), 1));      // a touch keeps the topic
    assertThat(await(index().topicCount("y"))).isEqualTo(2);
    assertThat(await(store.remove("d"))).isTrue();
    assertThat(await(store.remove("d"))).isFalse();
    assertThat(await(index().topicCount("z"))).isZero();
    await(store.put(periodic("p", 150)));
    // a firing that ends a once timer takes it out; one that advances a periodic one keeps it; a stale one nothing
    List<FiringResult> r = await(store.recordFirings(List.of(
        new FiringRequest("f", 1, 0, true, 1, 3, null),
        new FiringRequest("p", 1, 0, true, 150, 151, periodic("p", 150).fired(250)),
        new FiringRequest("e", 99, 0, true, 1, 3, null))));
    assertThat(r).extracting(FiringResult::applied).containsExactly(true, true, false);
    assertThat(allTopics()).containsExactly(new TopicCount("t2", 1), new TopicCount("x", 2), new TopicCount("y", 2));
    assertThat(await(index().topicCount("w"))).isZero();
    assertThat(await(index().topicCount("never"))).isZero();
    long sum = allTopics().stream().mapToLong(TopicCount::count).sum();
    assertThat(sum).isEqualTo(await(index().timerCount()));
  }

  @Test
  void topicCountsPageByNameAfterACursor() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      for (int k = 0; k <= i % 3; k++) {
        ts.add(inTopic("id" + i + "-" + k, String.format("topic%02d", i), 1000 + i));
      }
    }
    await(store.putAll(ts));
    List<TopicCount> first = await(index().topicCounts(null, 7));
    assertThat(first).extracting(TopicCount::topic)
        .containsExactly("topic00", "topic01", "topic02", "topic03", "topic04", "topic05", "topic06");
    assertThat(first).extracting(TopicCount::count).containsExactly(1L, 2L, 3L, 1L, 2L, 3L, 1L);
    assertThat(await(index().topicCounts("topic06", 2))).containsExactly(new TopicCount("topic07", 2),
        new TopicCount("topic08", 3));
    assertThat(await(index().topicCounts("topic065", 1))).containsExactly(new TopicCount("topic07", 2));
    assertThat(await(index().topicCounts("topic29", 5))).isEmpty();
    assertThat(await(index().topicCounts("a", 100))).hasSize(30);
    assertThatThrownBy(() -> await(index().topicCounts(null, 0))).hasRootCauseInstanceOf(
        IllegalArgumentException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> await(index().topicCounts(null, DueIndex.MAX_DUE_LIMIT + 1)))
        .hasRootCauseInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
  }

  @Test
  void thePausedCountFollowsPausesResumesAndRemovals() {
    assertThat(await(index().pausedCount())).isZero();
    Timer a = inTopic("a", "x", 100);
    Timer b = inTopic("b", "x", 200);
    await(store.putAll(List.of(a.withPaused(true), b, periodic("p", 150).withPaused(true))));
    await(store.createAll(List.of(inTopic("c", "y", 300).withPaused(true))));
    assertThat(await(index().pausedCount())).isEqualTo(3);
    // a pause and a resume are updates
    assertThat(await(store.update(b.withPaused(true).withGeneration(2), 1))).isNotNull();
    assertThat(await(store.update(a.withGeneration(2), 1))).isNotNull();
    assertThat(await(index().pausedCount())).isEqualTo(3);
    assertThat(await(store.updateAll(List.of(b.withGeneration(3), inTopic("c", "y", 300).withGeneration(2)),
        new long[] {2, 1}))).doesNotContainNull();
    assertThat(await(index().pausedCount())).isEqualTo(1);
    await(store.put(periodic("p", 150)));                            // a replace that is not paused
    assertThat(await(index().pausedCount())).isZero();
    await(store.put(inTopic("d", "z", 1).withPaused(true)));
    assertThat(await(index().pausedCount())).isEqualTo(1);
    // a fire-now of a paused once timer ends it
    List<FiringResult> r = await(store.recordFirings(List.of(new FiringRequest("d", 1, 0, true, 1, 3, null))));
    assertThat(r.get(0).applied()).isTrue();
    assertThat(await(index().pausedCount())).isZero();
    await(store.put(inTopic("e", "z", 1).withPaused(true)));
    assertThat(await(store.remove("e"))).isTrue();
    assertThat(await(index().pausedCount())).isZero();
  }

  @Test
  void theTopicAndPausedCountsSurviveAReopen() throws Exception {
    await(store.putAll(List.of(inTopic("a", "x", 100), inTopic("b", "x", 200).withPaused(true),
        inTopic("c", "y", 300))));
    await(store.remove("c"));
    await(store.close());
    store = reopenStore(vertx);
    Assumptions.assumeTrue(store != null, "the store keeps nothing across a close");
    assertThat(allTopics()).containsExactly(new TopicCount("x", 2));
    assertThat(await(index().pausedCount())).isEqualTo(1);
    await(store.put(inTopic("d", "y", 1)));
    assertThat(allTopics()).containsExactly(new TopicCount("x", 2), new TopicCount("y", 1));
  }
}
