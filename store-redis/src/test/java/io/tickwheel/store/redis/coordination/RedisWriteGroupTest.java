package io.tickwheel.store.redis.coordination;

import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.await;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.failure;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.periodic;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fenced writes (creates, puts, updates, removes, firing records) of several partition stores of one coordinator,
 * made in one event-loop turn, against a real standalone redis-server: few script calls for all of them, each
 * partition fenced on its own inside them, firing records ahead of other partitions' paced writes, and the order of
 * one store's calls kept.
 */
class RedisWriteGroupTest {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private static Vertx vertx;
  private RedisClusterCoordinator a;
  private RedisClusterCoordinator b;
  private String prefix;

  @BeforeAll
  static void start() {
    redis = RedisServerProcess.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void twoNodes() {
    prefix = "group" + N.incrementAndGet();
    RedisStoreOptions o = new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix);
    a = await(RedisClusterCoordinator.open(vertx, o));
    b = await(RedisClusterCoordinator.open(vertx, o));
    await(a.join("a", "http://a", 8));
    await(b.join("b", "http://b", 8));
  }

  @AfterEach
  void close() {
    await(a.close());
    await(b.close());
  }

  @Test
  void twoPartitionsRecordedInOneTurnGoInOneScriptCallAndBothApply() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    await(s1.put(timer("x", 100)));
    await(s2.put(periodic("y", 100, 50)));
    await(s2.put(timer("z", 10_000)));      // partition 2 has a timer of x's topic too, which must stay counted
    long before = evalshaCalls();
    List<Future<List<FiringResult>>> out = inOneTurn(() -> List.of(
        s1.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 100, 101, null))),
        s2.recordFirings(List.of(new FiringRequest("y", 1, 0, true, 100, 102, periodic("y", 100, 50).fired(150))))));
    assertThat(evalshaCalls() - before).as("script calls for the turn").isEqualTo(1);

    Firing fx = await(out.get(0)).get(0).firing();
    assertThat(fx.seq()).isEqualTo(1);
    assertThat(fx.id()).isEqualTo("x");
    assertThat(fx.topic()).isEqualTo("t1");
    assertThat(fx.payload()).isEqualTo("{\"n\":\"x\"}");
    Firing fy = await(out.get(1)).get(0).firing();
    assertThat(fy.seq()).as("each partition its own seq").isEqualTo(1);
    assertThat(fy.payload()).isEqualTo("[1,2,3]");
    assertThat(await(s1.get("x"))).isNull();
    assertThat(await(s2.get("y")).nextDueAt()).isEqualTo(150);
    assertThat(await(s1.readFirings(0, 10))).extracting(Firing::id).containsExactly("x");
    assertThat(await(s2.readFirings(0, 10))).extracting(Firing::id).containsExactly("y");
    // each section keeps its own partition's per-topic counts: the fired one-shot counted out, the periodic kept
    String ty = await(s2.get("y")).topic();
    assertThat(await(((DueIndex) s1).topicCount("t1"))).as("partition 1, topic t1").isZero();
    assertThat(await(((DueIndex) s1).timerCount())).isZero();
    assertThat(await(((DueIndex) s2).topicCount(ty))).as("partition 2, topic " + ty).isEqualTo(1);
    assertThat(await(((DueIndex) s2).topicCount("t1"))).as("partition 2, topic t1").isEqualTo(1);
    assertThat(await(((DueIndex) s2).timerCount())).isEqualTo(2);
  }

  @Test
  void aFencedPartitionInTheTurnIsRefusedAloneHavingWrittenNothingAndTheOthersApply() {
    TimerStore s3 = owned(3);
    TimerStore s4 = lostWith(4, timer("q", 100));
    TimerStore s5 = owned(5);
    await(s3.put(timer("p", 100)));
    await(s5.put(timer("r", 100)));

    long before = evalshaCalls();
    List<Future<List<FiringResult>>> out = inOneTurn(() -> List.of(
        s3.recordFirings(List.of(new FiringRequest("p", 1, 0, true, 100, 101, null))),
        s4.recordFirings(List.of(new FiringRequest("q", 1, 0, true, 100, 101, null))),
        s5.recordFirings(List.of(new FiringRequest("r", 1, 0, true, 100, 101, null)))));
    assertThat(evalshaCalls() - before).isEqualTo(1);

    assertThat(await(out.get(0)).get(0).firing().id()).isEqualTo("p");
    Throwable t = failure(out.get(1));
    assertThat(t).isInstanceOfSatisfying(StoreFencedException.class, e -> {
      assertThat(e.partition()).isEqualTo(4);
      assertThat(e.mayHaveApplied()).isFalse();
    });
    assertThat(await(out.get(2)).get(0).firing().id()).isEqualTo("r");
    TimerStore reader = b.partitionReader(4);
    assertThat(await(reader.get("q")).nextDueAt()).as("the fenced partition's timer unchanged").isEqualTo(100);
    assertThat(await(reader.lastSeq())).isZero();
    assertThat(await(reader.readFirings(0, 10))).isEmpty();
    assertThat(await(s3.lastSeq())).isEqualTo(1);
    assertThat(await(s5.lastSeq())).isEqualTo(1);
  }

  @Test
  void loneFiringsOfSeveralPartitionsInOneCallEachGetTheirOwnOutcome() {
    TimerStore s6 = owned(5);
    TimerStore s7 = owned(6);
    TimerStore s8 = owned(7);
    await(s6.put(timer("u", 100)));
    await(s6.put(periodic("u2", 100, 50)));
    await(s7.put(timer("v", 100)));
    await(s8.put(timer("w", 100)));
    redis.command("SET", "{" + prefix + ":p:7}:seq", "not-a-number");

    long before = evalshaCalls();
    List<Future<List<FiringResult>>> out = inOneTurn(() -> List.of(
        s6.recordFirings(List.of(new FiringRequest("u", 1, 0, true, 100, 101, null),
            new FiringRequest("u2", 1, 0, true, 100, 102, periodic("u2", 100, 50).fired(150)))),
        s7.recordFirings(List.of(new FiringRequest("v", 2, 0, true, 100, 101, null))),
        s8.recordFirings(List.of(new FiringRequest("w", 1, 0, true, 100, 101, null)))));
    assertThat(evalshaCalls() - before).as("script calls for the turn").isEqualTo(1);

    assertThat(await(out.get(0))).extracting(r -> r.firing().id() + "@" + r.firing().seq())
        .as("a section of two requests, applied in order").containsExactly("u@1", "u2@2");
    assertThat(await(s6.get("u"))).isNull();
    assertThat(await(s6.get("u2")).nextDueAt()).as("re-armed").isEqualTo(150);
    assertThat(await(((DueIndex) s6).timerCount())).isEqualTo(1);
    assertThat(await(out.get(1)).get(0).applied()).as("generation 2 asked, 1 stored: stale").isFalse();
    assertThat(await(s7.get("v")).nextDueAt()).isEqualTo(100);
    assertThat(await(s7.lastSeq())).as("a stale request takes no seq").isZero();
    assertThat(failure(out.get(2))).isInstanceOf(StoreFaultException.class).hasMessageContaining("not a number");
    assertThat(await(s8.get("w")).nextDueAt()).as("the failed section wrote nothing").isEqualTo(100);
    assertThat(await(((DueIndex) s8).timerCount())).isEqualTo(1);
  }

  @Test
  void loneCreatesAndTouchesOfSeveralPartitionsInOneCallEachGetTheirOwnOutcome() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    TimerStore s4 = lostWith(4, timer("q", 100));
    TimerStore s5 = owned(5);
    TimerStore s6 = owned(6);
    await(s1.put(timer("kept", 100)));
    await(s2.put(timer("u", 100)));
    await(s2.put(timer("u2", 100)));
    await(s6.put(timer("g2", 100)));
    Timer paused = periodic("new2", 300, 50).withPaused(true);

    long before = evalshaCalls();
    List<Future<?>> out = new ArrayList<>();
    inOneTurn(() -> {
      out.add(((DueIndex) s1).createAbsent(List.of(timer("new1", 200))));
      out.add(((DueIndex) s1).createAbsent(List.of(timer("kept", 900))));
      out.add(s2.update(timer("u", 700).withGeneration(2).withPaused(true), 1));
      out.add(s2.update(timer("u2", 700).withGeneration(3), 2));    // generation 2 expected, 1 stored
      out.add(((DueIndex) s4).createAbsent(List.of(timer("q2", 200))));    // fenced
      out.add(((DueIndex) s5).createAbsent(List.of(paused)));
      out.add(((DueIndex) s6).createAbsent(List.of(timer("g1", 200), timer("g2", 900), timer("g3", 300))));
      return List.of();
    });
    for (Future<?> f : out) {
      settled(f);
    }
    assertThat(evalshaCalls() - before).as("script calls for the turn").isEqualTo(1);

    assertThat((java.util.Set<Object>) await(out.get(0))).isEmpty();
    assertThat(await(s1.get("new1")).nextDueAt()).isEqualTo(200);
    assertThat((java.util.Set<Object>) await(out.get(1))).as("a stored id is answered").containsExactly("kept");
    assertThat(await(s1.get("kept")).nextDueAt()).as("and left as it was").isEqualTo(100);
    assertThat(await(((DueIndex) s1).timerCount())).isEqualTo(2);
    assertThat(await(((DueIndex) s1).topicCount("t1"))).isEqualTo(2);
    assertThat(await(((DueIndex) s1).dueBetween(0, 1_000, null, 10)).timers()).extracting(Timer::id)
        .containsExactly("kept", "new1");

    Timer u = (Timer) await(out.get(2));
    assertThat(u.nextDueAt()).isEqualTo(700);
    assertThat(u.payload()).as("the touch answers the stored payload").isEqualTo("{\"n\":\"u\"}");
    assertThat(await(s2.get("u")).generation()).isEqualTo(2);
    assertThat(await(s2.get("u")).paused()).isTrue();
    assertThat((Object) await(out.get(3))).as("a touch of another generation answers null").isNull();
    assertThat(await(s2.get("u2")).nextDueAt()).isEqualTo(100);
    assertThat(await(((DueIndex) s2).dueBetween(0, 1_000, null, 10)).timers()).extracting(Timer::id)
        .as("the due index moved with the touch").containsExactly("u2", "u");
    assertThat(await(((DueIndex) s2).topicCount("t1"))).isEqualTo(2);
    assertThat(await(((DueIndex) s2).pausedCount())).isEqualTo(1);

    assertThat(failure(out.get(4))).isInstanceOfSatisfying(StoreFencedException.class, e -> {
      assertThat(e.partition()).isEqualTo(4);
      assertThat(e.mayHaveApplied()).isFalse();
    });
    assertThat(await(b.partitionReader(4).get("q2"))).as("the fenced create wrote nothing").isNull();

    assertThat(await(s5.get("new2")).paused()).isTrue();
    assertThat(await(((DueIndex) s5).topicCount("t2"))).isEqualTo(1);
    assertThat(await(((DueIndex) s5).pausedCount())).isEqualTo(1);

    assertThat((java.util.Set<Object>) await(out.get(6))).as("one topic's creates answer the ids stored already")
        .containsExactly("g2");
    assertThat(await(((DueIndex) s6).dueBetween(0, 1_000, null, 10)).timers()).extracting(Timer::id)
        .containsExactly("g2", "g1", "g3");
    assertThat(await(s6.get("g2")).nextDueAt()).as("a stored id is left as it was").isEqualTo(100);
    assertThat(await(((DueIndex) s6).topicCount("t1"))).isEqualTo(3);
  }

  @Test
  void twoCallsOfOnePartitionInOneTurnApplyInOrder() {
    TimerStore s6 = owned(6);
    TimerStore s7 = owned(7);
    await(s6.put(periodic("y", 100, 50)));
    await(s7.put(timer("z", 100)));
    Timer after1 = periodic("y", 100, 50).fired(150);
    Timer after2 = after1.fired(200);
    List<Future<List<FiringResult>>> out = inOneTurn(() -> List.of(
        s6.recordFirings(List.of(new FiringRequest("y", 1, 0, true, 100, 101, after1))),
        s7.recordFirings(List.of(new FiringRequest("z", 1, 0, true, 100, 101, null))),
        s6.recordFirings(List.of(new FiringRequest("y", 1, 1, true, 150, 151, after2)))));
    assertThat(await(out.get(0)).get(0).firing().seq()).isEqualTo(1);
    assertThat(await(out.get(2)).get(0).firing().seq()).as("the later call sees what the earlier left").isEqualTo(2);
    assertThat(await(out.get(1)).get(0).firing().seq()).isEqualTo(1);
    assertThat(await(s6.get("y")).nextDueAt()).isEqualTo(200);
  }

  @Test
  void aCallMadeAfterTheRecordInTheSameTurnIsAppliedAfterIt() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    await(s1.put(timer("x", 100)));
    await(s2.put(timer("w", 100)));
    List<Future<?>> out = new ArrayList<>();
    inOneTurn(() -> {
      out.add(s1.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 100, 101, null))));
      out.add(s2.recordFirings(List.of(new FiringRequest("w", 1, 0, true, 100, 101, null))));
      out.add(s1.put(timer("x", 500)));      // after the firing removed the once timer: it is there again
      out.add(s2.lastSeq());                  // a read after the record sees it
      return List.<Future<List<FiringResult>>>of();
    });
    for (Future<?> f : out) {
      await(f);
    }
    assertThat(await(s1.get("x")).nextDueAt()).isEqualTo(500);
    assertThat((Long) await(out.get(3))).isEqualTo(1);
  }

  @Test
  void createsPutsUpdatesAndRemovesOfSeveralPartitionsInOneTurnGoInOneScriptCallEachAnsweredAsAlone() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    TimerStore s3 = owned(3);
    TimerStore s4 = lostWith(4, timer("q", 100));
    await(s1.put(timer("kept", 100)));
    await(s2.put(timer("u", 100)));
    await(s3.put(timer("gone", 100)));

    long before = evalshaCalls();
    List<Future<?>> out = new ArrayList<>();
    inOneTurn(() -> {
      out.add(((DueIndex) s1).createAbsent(List.of(timer("kept", 900), timer("new1", 200), timer("new2", 300))));
      out.add(s2.update(timer("u", 700).withGeneration(2), 1));
      out.add(s2.update(timer("nope", 700).withGeneration(2), 1));
      out.add(s3.remove("gone"));
      out.add(s3.remove("never"));
      out.add(s4.put(timer("q", 5_000)));
      out.add(s1.put(periodic("p", 400, 50)));
      out.add(s4.remove("q"));                // a second section of the fenced partition: refused too
      return List.of();
    });
    for (Future<?> f : out) {
      settled(f);
    }
    assertThat(evalshaCalls() - before).as("script calls for the turn").isEqualTo(1);

    assertThat((java.util.Set<Object>) await(out.get(0))).as("createAbsent answers the ids stored already")
        .containsExactly("kept");
    assertThat(await(s1.get("kept")).nextDueAt()).as("a stored id is left as it was").isEqualTo(100);
    assertThat(await(s1.get("new1")).nextDueAt()).isEqualTo(200);
    assertThat(await(s1.get("new2")).nextDueAt()).isEqualTo(300);
    Timer u = (Timer) await(out.get(1));
    assertThat(u.nextDueAt()).isEqualTo(700);
    assertThat(u.payload()).as("the update answers the stored payload").isEqualTo("{\"n\":\"u\"}");
    assertThat(await(s2.get("u")).generation()).isEqualTo(2);
    assertThat((Object) await(out.get(2))).as("an update of a missing id answers null").isNull();
    assertThat((Boolean) await(out.get(3))).isTrue();
    assertThat((Boolean) await(out.get(4))).isFalse();
    assertThat(await(s3.get("gone"))).isNull();
    assertThat(failure(out.get(5))).isInstanceOfSatisfying(StoreFencedException.class, e -> {
      assertThat(e.partition()).isEqualTo(4);
      assertThat(e.mayHaveApplied()).isFalse();
    });
    assertThat(failure(out.get(7))).isInstanceOf(StoreFencedException.class);
    assertThat(await(b.partitionReader(4).get("q")).nextDueAt()).as("the fenced writes wrote nothing").isEqualTo(100);
    assertThat(await(s1.get("p")).nextDueAt()).isEqualTo(400);
    assertThat(await(((DueIndex) s1).timerCount())).isEqualTo(4);
    assertThat(await(((DueIndex) s1).topicCount("t1"))).isEqualTo(3);
    assertThat(await(((DueIndex) s3).timerCount())).isZero();
  }

  @Test
  void aSectionOfMoreThanFourThousandArgumentsIsCopiedWholeBesideAnotherPartitionsSection() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    await(s2.put(timer("w", 100)));
    List<Timer> many = new ArrayList<>();
    for (int i = 0; i < 1_500; i++) {          // put.lua takes 3 arguments per timer: 4,500 in the section
      many.add(timer(String.format("m%04d", i), 1_000 + i));
    }
    List<Future<?>> out = new ArrayList<>();
    long before = evalshaCalls();
    inOneTurn(() -> {
      out.add(s1.putAll(many));
      out.add(s2.remove("w"));
      return List.<Future<List<FiringResult>>>of();
    });
    for (Future<?> f : out) {
      await(f);
    }
    assertThat(evalshaCalls() - before).as("script calls for the turn").isEqualTo(1);
    assertThat(await(((DueIndex) s1).timerCount())).isEqualTo(1_500);
    for (int i : new int[] {0, 1_332, 1_333, 1_334, 1_499}) {   // the first 4,000 arguments are 1,333 timers and a third
      assertThat(await(s1.get(many.get(i).id()))).as(many.get(i).id()).isEqualTo(many.get(i));
    }
    assertThat((Boolean) await(out.get(1))).isTrue();
    assertThat(await(s2.get("w"))).isNull();
  }

  @Test
  void aFiringRecordGoesAheadOfOtherPartitionsWritesHeldBackWithWhatItsPartitionQueuedBeforeIt() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    TimerStore s3 = owned(3);
    List<String> answered = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Future<?>> bulk = new ArrayList<>();
    List<Future<List<FiringResult>>> fired = new ArrayList<>();
    long before = evalshaCalls();
    inOneTurn(() -> {
      // partition 3's create is queued first: the record of its firing, made last, must find it applied
      Future<Void> created = s3.put(timer("f", 100));
      for (int i = 0; i < 200; i++) {        // more sections than the paced calls in flight hold
        TimerStore s = i % 2 == 0 ? s1 : s2;
        String id = "b" + i;
        bulk.add(s.put(timer(id, 1_000 + i)).onComplete(ar -> answered.add(id)));
      }
      fired.add(s3.recordFirings(List.of(new FiringRequest("f", 1, 0, true, 100, 101, null)))
          .onComplete(ar -> answered.add("fired")));
      bulk.add(created);
      return List.of();
    });
    for (Future<?> f : bulk) {
      await(f);
    }
    FiringResult r = await(fired.get(0)).get(0);
    assertThat(r.firing()).as("the create queued before the record was applied before it").isNotNull();
    assertThat(r.firing().seq()).isEqualTo(1);
    assertThat(answered.get(0)).as("the record is answered before every held-back write").isEqualTo("fired");
    assertThat(answered).hasSize(201);
    assertThat(evalshaCalls() - before).as("the record's call, then paced calls of at most 32 sections")
        .isGreaterThanOrEqualTo(1 + 200 / 32);
    assertThat(await(((DueIndex) s1).timerCount()) + await(((DueIndex) s2).timerCount())).isEqualTo(200);
    assertThat(await(s3.get("f"))).as("the once timer fired").isNull();
  }

  @Test
  void aReadOfAPartitionIsSentAfterThatPartitionsWritesHeldBackByThePacing() {
    TimerStore s1 = owned(1);
    TimerStore s2 = owned(2);
    List<io.vertx.core.Promise<Timer>> reads = List.of(io.vertx.core.Promise.promise(),
        io.vertx.core.Promise.promise());
    List<Future<?>> writes = new ArrayList<>();
    inOneTurn(() -> {
      for (int i = 0; i < 200; i++) {
        writes.add((i % 2 == 0 ? s2 : s1).put(timer("h" + i, 1_000 + i)));
      }
      // the next turn, after the group's flush sent the first paced calls: the last writes are still held back
      Vertx.currentContext().runOnContext(v -> {
        s1.get("h199").onComplete(reads.get(0));
        s2.get("h198").onComplete(reads.get(1));
      });
      return List.of();
    });
    assertThat(await(reads.get(0).future())).as("partition 1 read after its own writes")
        .isEqualTo(timer("h199", 1_199));
    assertThat(await(reads.get(1).future())).as("partition 2 read after its own writes")
        .isEqualTo(timer("h198", 1_198));
    for (Future<?> f : writes) {
      await(f);
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Node a's store of partition p, its counts taken (as a node does before its first write), so the count reads
   * after a test's writes read what the scripts kept, not a recount.
   */
  private TimerStore owned(int p) {
    TimerStore s = a.partitionStore(p, await(a.acquire(p, "a", 60_000)).epoch());
    assertThat(await(((DueIndex) s).pausedCount())).isZero();
    return s;
  }

  /** Node a's store of partition p, which held t when a released the lease; b holds it now, at a later epoch. */
  private TimerStore lostWith(int p, Timer t) {
    Lease l = await(a.acquire(p, "a", 60_000));
    TimerStore s = a.partitionStore(p, l.epoch());
    await(s.put(t));
    await(a.release(p, "a", l.epoch()));
    assertThat(await(b.acquire(p, "b", 60_000)).epoch()).isGreaterThan(l.epoch());
    return s;
  }

  /** Makes the calls in one task on an event-loop context (one turn); returns their futures once all completed. */
  private static List<Future<List<FiringResult>>> inOneTurn(Supplier<List<Future<List<FiringResult>>>> calls) {
    CompletableFuture<List<Future<List<FiringResult>>>> made = new CompletableFuture<>();
    vertx.getOrCreateContext().runOnContext(v -> made.complete(calls.get()));
    List<Future<List<FiringResult>>> fs;
    try {
      fs = made.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    for (Future<?> f : fs) {
      settled(f);
    }
    return fs;
  }

  /** Waits until {@code f} completed, either way. */
  private static void settled(Future<?> f) {
    try {
      f.toCompletionStage().toCompletableFuture().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static long evalshaCalls() {
    return redis.commandCalls("evalsha");
  }
}
