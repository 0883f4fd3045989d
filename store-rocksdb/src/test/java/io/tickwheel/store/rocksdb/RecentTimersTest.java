package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's cache of the timers it wrote last: used, exact (stale requests still refused), bounded, optional. */
class RecentTimersTest {

  private static Vertx vertx;

  @TempDir
  Path tmp;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private RocksDbTimerStore open(int recent) {
    return await(RocksDbTimerStore.open(vertx, new RocksDbStoreOptions().setDataDir(tmp.resolve("db"))
        .setBlockCacheBytes(4 << 20).setWriteBufferBytes(2 << 20).setRecentTimers(recent)));
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("store call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  private static Timer once(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"id\":\"" + id + "\"}", 1, due, 0, 1);
  }

  private static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1]", 1, due, 0, 1);
  }

  private static FiringRequest fire(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next);
  }

  @Test
  void aTimerWrittenInAnEarlierGroupFiresFromTheCacheWithItsPayloadAndIsThenGone() {
    RocksDbTimerStore s = open(1024);
    try {
      Timer t = once("a", 100);
      await(s.put(t));
      // the scheduler's copy is payload-less: the firing's payload comes from the store's (cached) version
      FiringResult r = await(s.recordFirings(List.of(fire(t.withoutPayload(), 105, null)))).get(0);
      assertThat(r.applied()).isTrue();
      assertThat(r.firing()).isEqualTo(new Firing(1, "a", "t1", 1, 100, 105, "{\"id\":\"a\"}"));
      assertThat(s.recentTimerHits()).as("read from the cache, not from RocksDB").isEqualTo(1);
      // removed: not in the cache, and RocksDB has nothing either
      assertThat(await(s.recordFirings(List.of(fire(t, 106, null)))).get(0).applied()).isFalse();
      assertThat(await(s.get("a"))).isNull();
    } finally {
      await(s.close());
    }
  }

  @Test
  void aRequestForAnOlderVersionIsStillRefusedWhenTheCurrentOneIsCached() {
    RocksDbTimerStore s = open(1024);
    try {
      Timer p = periodic("p", 100, 50);
      await(s.put(p));
      Timer touched = p.touched(400);
      assertThat(await(s.update(touched, 1))).isEqualTo(touched);
      long hits = s.recentTimerHits();
      assertThat(await(s.recordFirings(List.of(fire(p, 100, p.fired(150))))).get(0).applied())
          .as("the generation before the touch").isFalse();
      FiringResult r = await(s.recordFirings(List.of(fire(touched, 400, touched.fired(450))))).get(0);
      assertThat(r.applied()).isTrue();
      assertThat(s.recentTimerHits()).isGreaterThan(hits);
      // the re-armed version went back into the cache and is what a reopened store reads too
      Timer next = touched.fired(450);
      assertThat(await(s.recordFirings(List.of(fire(touched, 400, next)))).get(0).applied())
          .as("the same firing twice").isFalse();
      await(s.close());
      s = open(1024);
      assertThat(await(s.get("p"))).isEqualTo(next);
    } finally {
      await(s.close());
    }
  }

  @Test
  void onlyTheLastWrittenAreKeptAndTheOthersAreReadBackFromRocksDb() {
    RocksDbTimerStore s = open(2);
    try {
      Timer a = once("a", 100);
      Timer b = once("b", 101);
      Timer c = once("c", 102);
      await(s.put(a));
      await(s.put(b));
      await(s.put(c));
      List<FiringResult> rs = await(s.recordFirings(List.of(fire(a, 110, null), fire(b, 110, null),
          fire(c, 110, null))));
      assertThat(rs).allMatch(FiringResult::applied);
      assertThat(rs.get(0).firing().payload()).isEqualTo("{\"id\":\"a\"}");
      assertThat(s.recentTimerHits()).as("b and c; a was evicted and read from RocksDB").isEqualTo(2);
    } finally {
      await(s.close());
    }
  }

  @Test
  void withTheCacheOffEveryTimerIsReadFromRocksDbWithTheSameResults() {
    RocksDbTimerStore s = open(0);
    try {
      Timer p = periodic("p", 100, 50);
      await(s.put(p));
      Timer touched = p.touched(400);
      await(s.update(touched, 1));
      assertThat(await(s.recordFirings(List.of(fire(p, 100, p.fired(150))))).get(0).applied()).isFalse();
      assertThat(await(s.recordFirings(List.of(fire(touched, 400, touched.fired(450))))).get(0).applied()).isTrue();
      assertThat(s.recentTimerHits()).isZero();
    } finally {
      await(s.close());
    }
  }

  @Test
  void aGroupsRemovalDropsTheEntryARewriteMovesItLastAndAFailedWriteForgetsAll() {
    Timer removed = once("-", 0);
    RecentTimers r = new RecentTimers(2, 1 << 20);
    Map<String, Timer> g1 = new HashMap<>();
    g1.put("a", once("a", 1));
    g1.put("b", once("b", 2));
    r.groupWritten(g1, removed);
    r.groupWritten(Map.of("a", once("a", 3)), removed); // a rewritten: now b is the eldest
    r.groupWritten(Map.of("c", once("c", 4)), removed);
    assertThat(r.has("b")).isFalse();
    assertThat(r.get("a").nextDueAt()).isEqualTo(3);
    assertThat(r.has("c")).isTrue();
    r.groupWritten(Map.of("c", removed), removed);
    assertThat(r.has("c")).isFalse();
    r.forget();
    assertThat(r.size()).isZero();
    assertThat(r.bytes()).isZero();
    assertThat(r.get("a")).isNull();
  }

  @Test
  void largePayloadsAreBoundedByBytesNotOnlyByCount() {
    Timer removed = once("-", 0);
    String big = "x".repeat(10_000);
    Timer one = once("a", 1).withPayload(big);
    long w = RecentTimers.weight(one);
    assertThat(w).isGreaterThan(20_000);
    RecentTimers r = new RecentTimers(1000, 3 * w);
    for (int i = 0; i < 10; i++) {
      r.groupWritten(Map.of("k" + i, once("k" + i, i).withPayload(big)), removed);
    }
    assertThat(r.size()).isEqualTo(2); // the ids are one character longer than "a": each weighs a little more
    assertThat(r.bytes()).isLessThanOrEqualTo(3 * w);
    assertThat(r.has("k9")).isTrue();
    assertThat(r.has("k7")).isFalse();
    // a timer heavier than the whole budget is not kept at all (and pushes nothing out)
    RecentTimers small = new RecentTimers(1000, 1000);
    small.groupWritten(Map.of("s", once("s", 1)), removed);
    small.groupWritten(Map.of("a", one), removed);
    assertThat(small.has("a")).isFalse();
    assertThat(small.has("s")).isTrue();
    // rewriting an entry replaces its weight rather than adding to it
    small.groupWritten(Map.of("s", once("s", 2)), removed);
    assertThat(small.bytes()).isEqualTo(RecentTimers.weight(once("s", 2)));
  }
}
