package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreFixtures;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksIterator;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocksDB-specific behaviour beyond the shared contract: threads, ordering, group commit, the timers written last,
 * close, trimming.
 */
class RocksDbStoreBehaviourTest {

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

  private RocksDbStoreOptions options() {
    return new RocksDbStoreOptions().setDataDir(tmp.resolve("db")).setBlockCacheBytes(4 << 20)
        .setWriteBufferBytes(2 << 20);
  }

  private RocksDbTimerStore open(RocksDbStoreOptions o) {
    return await(RocksDbTimerStore.open(vertx, o));
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

  private static Throwable failureOf(Future<?> f) {
    try {
      f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"id\":\"" + id + "\"}", 1, due, 0, 1);
  }

  private static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1]", 1, due, 0, 1);
  }

  private static FiringRequest fire(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next);
  }

  private void recordOnceFirings(RocksDbTimerStore s, int n, long firedAt) {
    List<Timer> ts = new ArrayList<>();
    List<FiringRequest> reqs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Timer t = timer("f" + i, 100 + i);
      ts.add(t);
      reqs.add(fire(t, firedAt, null));
    }
    await(s.putAll(ts));
    await(s.recordFirings(reqs));
  }

  // ---- threads ----

  @Test
  void everyOperationDrivenFromAnEventLoopMakesNoRocksDbCallOnIt() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<RocksDbTimerStore> result = new CompletableFuture<>();
    List<Boolean> onLoop = new ArrayList<>();
    ctx.runOnContext(v -> {
      Timer p = periodic("p", 100, 50);
      Timer o = timer("o", 200);
      RocksDbTimerStore[] s = new RocksDbTimerStore[1];
      RocksDbTimerStore.open(vertx, options())
          .compose(store -> {
            s[0] = store;
            onLoop.add(Context.isOnEventLoopThread());
            return store.put(p);
          })
          .compose(x -> s[0].putAll(List.of(o, timer("x", 300))))
          .compose(x -> s[0].update(o.touched(250), 1))
          .compose(x -> s[0].get("o"))
          .compose(x -> s[0].list("t1", null, 10))
          .compose(x -> s[0].list(null, new TimerCursor(100, "p"), 1))
          .compose(x -> s[0].remove("x"))
          .compose(x -> s[0].recordFirings(List.of(fire(p, 101, p.fired(150)))))
          .compose(x -> s[0].readFirings(0, 10))
          .compose(x -> s[0].lastSeq())
          .compose(x -> s[0].trimFirings(new Retention(1, 0), 10_000))
          .compose(x -> s[0].loadAll(1, batch -> {
            onLoop.add(Context.isOnEventLoopThread());
            return Future.succeededFuture();
          }))
          .compose(x -> {
            onLoop.add(Context.isOnEventLoopThread());
            return s[0].close();
          })
          .onComplete(ar -> {
            onLoop.add(Context.isOnEventLoopThread());
            if (ar.failed()) {
              result.completeExceptionally(ar.cause());
            } else {
              result.complete(s[0]);
            }
          });
    });
    RocksDbTimerStore store = result.get(30, TimeUnit.SECONDS);
    assertThat(onLoop).as("the calls were really driven from an event loop").hasSize(5).containsOnly(true);
    assertThat(store.writeCalls()).isEqualTo(6);
    assertThat(store.eventLoopNativeCalls()).isZero();
  }

  @Test
  void theEventLoopGuardCountsARocksDbCallMadeOnAnEventLoop() throws Exception {
    EventLoopGuard guard = new EventLoopGuard();
    guard.check();
    assertThat(guard.violations()).as("a plain thread is not an event loop").isZero();
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.getOrCreateContext().runOnContext(v -> {
      guard.check();
      done.complete(null);
    });
    done.get(10, TimeUnit.SECONDS);
    assertThat(guard.violations()).isEqualTo(1);
  }

  // ---- ordering and group commit ----

  @Test
  void firingsThatReArmTimersLeaveExactlyOneDueIndexEntryPerTimerAlsoForATimerReArmedTwiceInOneBatch() {
    RocksDbTimerStore s = open(options());
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ts.add(periodic("r" + i, 100 + i, 1000));
    }
    await(s.putAll(ts));
    List<FiringRequest> reqs = new ArrayList<>();
    for (Timer t : ts) {
      reqs.add(fire(t, 110, t.fired(t.nextDueAt() + 1000)));
    }
    Timer r2 = ts.get(2).fired(1102);
    reqs.add(fire(r2, 1110, r2.fired(2102)));
    assertThat(await(s.recordFirings(reqs))).allSatisfy(r -> assertThat(r.applied()).isTrue());
    // touches in one batch, moving timers past each other both ways
    List<Timer> touched = List.of(ts.get(4).fired(1104).touched(50), ts.get(0).fired(1100).touched(5000),
        ts.get(1).fired(1101).touched(1103));
    assertThat(await(s.updateAll(touched, new long[] {1, 1, 1}))).doesNotContainNull();
    await(s.close());

    List<String> entries = new ArrayList<>();
    Db db = Db.open(options());
    try (RocksIterator it = db.db.newIterator(db.due)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        entries.add(Keys.idOfDue(it.key()) + "@" + Keys.dueAtOf(it.key()));
      }
    } finally {
      db.close();
    }
    assertThat(entries).containsExactly("r4@50", "r1@1103", "r3@1103", "r2@2102", "r0@5000");
  }

  @Test
  void aReadCalledRightAfterAWriteWithoutWaitingSeesTheWrite() {
    RocksDbTimerStore s = open(options());
    try {
      List<Future<Timer>> gets = new ArrayList<>();
      List<Future<TimerPage>> lists = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        s.put(timer("ryw-" + i, 1000 + i));
        gets.add(s.get("ryw-" + i));
        lists.add(s.list(null, null, 1000));
      }
      for (int i = 0; i < 300; i++) {
        assertThat(await(gets.get(i))).as("get after put #%d", i).isNotNull();
        // at least every earlier write; a read is not isolated from writes called after it
        assertThat(await(lists.get(i)).timers()).as("list after put #%d", i).extracting(Timer::id)
            .contains("ryw-0", "ryw-" + i);
      }
    } finally {
      await(s.close());
    }
  }

  @Test
  void concurrentWriteCallsAreFoldedIntoFewerBatches() {
    RocksDbTimerStore s = open(options());
    try {
      List<Future<Void>> puts = new ArrayList<>();
      for (int i = 0; i < 5000; i++) {
        puts.add(s.put(timer("g-" + i, i)));
      }
      puts.forEach(RocksDbStoreBehaviourTest::await);
      assertThat(s.writeCalls()).isEqualTo(5000);
      assertThat(s.writeGroups()).isLessThan(5000);
      assertThat(await(s.loadAll(1000, b -> Future.succeededFuture()))).isEqualTo(5000);
    } finally {
      await(s.close());
    }
  }

  @Test
  void withMaxGroupOpsOneEveryCallIsItsOwnBatch() {
    RocksDbTimerStore s = open(options().setMaxGroupOps(1));
    try {
      List<Future<Void>> puts = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        puts.add(s.put(timer("g-" + i, i)));
      }
      puts.forEach(RocksDbStoreBehaviourTest::await);
      assertThat(s.writeGroups()).isEqualTo(500);
    } finally {
      await(s.close());
    }
  }

  @Test
  void conditionalChecksSeeTheEarlierCallsOfTheSameGroup() {
    RocksDbTimerStore s = open(options());
    try {
      Timer p = periodic("cond", 100, 50);
      Timer touched = p.touched(400);
      Future<Void> put = s.put(p);
      Future<Timer> upd = s.update(touched.withoutPayload(), 1);
      Future<Timer> staleUpd = s.update(touched.touched(900), 1);
      Future<List<FiringResult>> staleFire = s.recordFirings(List.of(fire(p, 100, p.fired(150))));
      Future<List<FiringResult>> fired = s.recordFirings(List.of(fire(touched, 400, touched.fired(450))));
      Future<List<FiringResult>> twice = s.recordFirings(List.of(fire(touched, 400, touched.fired(450))));
      Future<Boolean> removed = s.remove("cond");
      Future<Boolean> removedAgain = s.remove("cond");
      await(put);
      assertThat(await(upd)).isEqualTo(touched);
      assertThat(await(staleUpd)).isNull();
      assertThat(await(staleFire).get(0).applied()).isFalse();
      FiringResult r = await(fired).get(0);
      assertThat(r.firing()).isEqualTo(new Firing(1, "cond", "t2", 1, 400, 400, "[1]"));
      assertThat(await(twice).get(0).applied()).isFalse();
      assertThat(await(removed)).isTrue();
      assertThat(await(removedAgain)).isFalse();
      assertThat(await(s.lastSeq())).isEqualTo(1);
      assertThat(await(s.list(null, null, 10)).timers()).isEmpty();
    } finally {
      await(s.close());
    }
  }

  @Test
  void theDueIndexFollowsEveryRescheduleAndRemovalAcrossAReopen() {
    RocksDbTimerStore s = open(options());
    Timer p = periodic("moving", 100, 50);
    await(s.putAll(List.of(p, timer("other", 700))));
    Timer touched = p.touched(500);
    assertThat(await(s.update(touched, 1))).isEqualTo(touched);
    await(s.recordFirings(List.of(fire(touched, 500, touched.fired(900)))));
    await(s.put(timer("gone", 50)));
    await(s.remove("gone"));
    await(s.close());
    s = open(options());
    try {
      TimerPage page = await(s.list(null, null, 10));
      assertThat(page.timers()).extracting(Timer::id).containsExactly("other", "moving");
      assertThat(page.timers()).extracting(Timer::nextDueAt).containsExactly(700L, 900L);
      assertThat(page.timers().get(1).payload()).isEqualTo("[1]");
    } finally {
      await(s.close());
    }
  }

  @Test
  void putAllReplacingStoredTimersAndRepeatingAnIdLeavesOneIndexEntryPerTimer() {
    RocksDbTimerStore s = open(options());
    try {
      await(s.putAll(List.of(timer("a", 100), timer("b", 200))));
      await(s.putAll(List.of(timer("a", 300), timer("c", 50), timer("c", 400), timer("b", 200))));
      TimerPage page = await(s.list(null, null, 10));
      assertThat(page.timers()).extracting(Timer::id).containsExactly("b", "a", "c");
      assertThat(page.timers()).extracting(Timer::nextDueAt).containsExactly(200L, 300L, 400L);
    } finally {
      await(s.close());
    }
  }

  @Test
  void aTopicFilteredListingPagesThroughEveryMatchInOrder() {
    RocksDbTimerStore s = open(options());
    try {
      List<Timer> all = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        all.add(i % 2 == 0 ? timer(String.format("k%02d", i), 1000 - i) : periodic(String.format("k%02d", i), 1000 - i, 10));
      }
      await(s.putAll(all));
      List<String> seen = new ArrayList<>();
      TimerCursor cursor = null;
      int pages = 0;
      do {
        TimerPage page = await(s.list("t2", cursor, 4));
        page.timers().forEach(t -> seen.add(t.id()));
        cursor = page.next();
        pages++;
      } while (cursor != null);
      List<String> expected = new ArrayList<>();
      for (int i = 29; i >= 1; i -= 2) {
        expected.add(String.format("k%02d", i));
      }
      assertThat(seen).isEqualTo(expected);
      assertThat(pages).isEqualTo(4);
    } finally {
      await(s.close());
    }
  }

  @Test
  void aFullWriteQueueFailsFastWithStoreUnavailableAndLosesNoAcceptedWrite() {
    RocksDbTimerStore s = open(options().setMaxQueuedWrites(2));
    try {
      List<Future<Void>> puts = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        puts.add(s.put(timer("q-" + i, i)));
      }
      int accepted = 0;
      int refused = 0;
      for (Future<Void> f : puts) {
        try {
          f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
          accepted++;
        } catch (ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(StoreUnavailableException.class)
              .hasMessageContaining("write queue is full");
          assertThat(((StoreUnavailableException) e.getCause()).mayHaveApplied()).as("refused").isFalse();
          refused++;
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
      assertThat(refused).isPositive();
      assertThat(await(s.loadAll(1000, b -> Future.succeededFuture()))).isEqualTo(accepted);
    } finally {
      await(s.close());
    }
  }

  // ---- records of earlier releases ----

  /** {@code periodic("old", 100, 50)} in timer record version 1, which releases before version 4 wrote. */
  private static final String OLD_PERIODIC_V1_HEX = "010101" + "0000000000000032" + "0000000000000032"
      + "0000000000000000" + "0000000000000001" + "0000000000000064" + "0000000000000000" + "0000000000000001"
      + "000000036f6c64" + "000000027432" + "000000035b315d";
  /** Its first firing, {@code new Firing(1, "old", "t2", 1, 100, 101, "[1]")}, in firing record version 1. */
  private static final String OLD_FIRING_V1_HEX = "010000000000000001000000000000000100000000000000640000000000000065000000036f6c64000000027432000000035b315d";

  @Test
  void aDataDirectoryOfAnEarlierReleaseReadsFiresAndIsRewrittenInTheCurrentVersion() throws Exception {
    Timer old = periodic("old", 100, 50);
    RocksDbTimerStore s = open(options());
    await(s.put(old));
    await(s.close());
    Db raw = Db.open(options());
    try {
      raw.db.put(raw.timers, Keys.id("old"), HexFormat.of().parseHex(OLD_PERIODIC_V1_HEX));
    } finally {
      raw.close();
    }
    s = open(options());
    try {
      assertThat(await(s.get("old"))).isEqualTo(old);
      assertThat(await(s.list(null, null, 10)).timers()).containsExactly(old);
      FiringResult r = await(s.recordFirings(List.of(fire(old, 101, old.fired(150))))).get(0);
      assertThat(r.applied()).isTrue();
      assertThat(await(s.get("old"))).isEqualTo(old.fired(150));
    } finally {
      await(s.close());
    }
    raw = Db.open(options());
    try {
      assertThat(raw.db.get(raw.timers, Keys.id("old"))[0]).as("re-armed in version 4").isEqualTo((byte) 4);
      assertThat(raw.db.get(raw.firings, Keys.seq(1))[0]).as("firing version 3").isEqualTo((byte) 3);
      raw.db.put(raw.firings, Keys.seq(1), HexFormat.of().parseHex(OLD_FIRING_V1_HEX));
    } finally {
      raw.close();
    }
    s = open(options());
    try {
      assertThat(await(s.readFirings(0, 10))).containsExactly(new Firing(1, "old", "t2", 1, 100, 101, "[1]"));
    } finally {
      await(s.close());
    }
  }

  // ---- failures ----

  @Test
  void anUndecodableRecordFailsOnlyItsOwnCallsWithAStoreFaultNotApplied() throws Exception {
    RocksDbTimerStore s = open(options());
    await(s.put(timer("bad", 100)));
    await(s.close());
    Db raw = Db.open(options());
    try {
      byte[] record = Codec.encodeTimer(timer("bad", 100));
      record[0] = 99; // a record version this code does not know
      raw.db.put(raw.timers, Keys.id("bad"), record);
    } finally {
      raw.close();
    }
    s = open(options());
    try {
      Throwable read = failureOf(s.get("bad"));
      assertThat(read).isInstanceOf(StoreFaultException.class).hasMessageContaining("version 99");
      // one group: the call that meets the bad record fails alone, rolled back; the others are written
      Future<Void> before = s.put(timer("ok-1", 200));
      Future<Timer> update = s.update(timer("bad", 300).withGeneration(2), 1);
      Future<Void> after = s.put(timer("ok-2", 400));
      await(before);
      await(after);
      Throwable write = failureOf(update);
      assertThat(write).isInstanceOf(StoreFaultException.class).hasMessageContaining("version 99");
      assertThat(((StoreFaultException) write).mayHaveApplied()).as("rolled back").isFalse();
      assertThat(await(s.get("ok-1"))).isNotNull();
      assertThat(await(s.get("ok-2"))).isNotNull();
    } finally {
      await(s.close());
    }
  }

  // ---- the timers written last (RecentTimers): used, exact, bounded, optional ----

  @Test
  void aTimerWrittenInAnEarlierGroupFiresFromTheCacheWithItsPayloadAndIsThenGone() {
    RocksDbTimerStore s = open(options().setRecentTimers(1024));
    try {
      Timer t = timer("a", 100);
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
    RocksDbTimerStore s = open(options().setRecentTimers(1024));
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
      s = open(options().setRecentTimers(1024));
      assertThat(await(s.get("p"))).isEqualTo(next);
    } finally {
      await(s.close());
    }
  }

  @Test
  void onlyTheLastWrittenAreKeptAndTheOthersAreReadBackFromRocksDb() {
    RocksDbTimerStore s = open(options().setRecentTimers(2));
    try {
      Timer a = timer("a", 100);
      Timer b = timer("b", 101);
      Timer c = timer("c", 102);
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
    RocksDbTimerStore s = open(options().setRecentTimers(0));
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

  // ---- close ----

  @Test
  void closeWritesEverythingQueuedBeforeItAndLaterCallsFail() {
    RocksDbTimerStore s = open(options());
    List<Future<Void>> puts = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      puts.add(s.put(timer("c-" + i, i)));
    }
    Future<Timer> readBeforeClose = s.get("c-1999");
    Future<Void> closed = s.close();
    assertThat(s.close()).as("idempotent").isSameAs(closed);
    await(closed);
    puts.forEach(RocksDbStoreBehaviourTest::await);
    assertThat(await(readBeforeClose)).isNotNull();
    assertThat(failureOf(s.put(timer("late", 1)))).isInstanceOf(StoreClosedException.class)
        .hasMessage("rocksdb store is closed");
    assertThat(failureOf(s.get("c-1"))).isInstanceOf(StoreClosedException.class);
    RocksDbTimerStore reopened = open(options());
    try {
      assertThat(await(reopened.loadAll(500, b -> Future.succeededFuture()))).isEqualTo(2000);
    } finally {
      await(reopened.close());
    }
  }

  @Test
  void aFailingSinkEndsLoadAllWithItsFailureAndReleasesTheIterator() {
    RocksDbTimerStore s = open(options());
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ts.add(timer("l-" + i, i));
    }
    await(s.putAll(ts));
    AtomicInteger batches = new AtomicInteger();
    Throwable t = failureOf(s.loadAll(10, b -> batches.incrementAndGet() == 2
        ? Future.failedFuture(new IllegalStateException("sink is full")) : Future.succeededFuture()));
    assertThat(t).hasMessage("sink is full");
    assertThat(batches.get()).isEqualTo(2);
    assertThat(await(s.get("l-5"))).isNotNull();
    await(s.close());
  }

  @Test
  void closingDuringLoadAllFailsTheStreamAndStillCloses() {
    RocksDbTimerStore s = open(options());
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ts.add(timer("l-" + i, i));
    }
    await(s.putAll(ts));
    Promise<Void> firstBatchHeld = Promise.promise();
    CompletableFuture<Void> inSink = new CompletableFuture<>();
    Future<Long> load = s.loadAll(10, b -> {
      inSink.complete(null);
      return firstBatchHeld.future();
    });
    inSink.join();
    Future<Void> closed = s.close();
    firstBatchHeld.complete();
    await(closed);
    assertThat(failureOf(load)).isInstanceOf(StoreClosedException.class).hasMessageContaining("closed");
  }

  // ---- firing log ----

  @Test
  void trimByAgeDoesBoundedWorkPerCallAndTheNextCallGoesOn() {
    RocksDbTimerStore s = open(options().setTrimMaxScan(10));
    try {
      recordOnceFirings(s, 35, 1000);
      Retention byAge = new Retention(1_000_000, 0);
      assertThat(await(s.trimFirings(byAge, 5000))).isEqualTo(10);
      assertThat(await(s.trimFirings(byAge, 5000))).isEqualTo(10);
      assertThat(await(s.trimFirings(byAge, 5000))).isEqualTo(10);
      assertThat(await(s.trimFirings(byAge, 5000))).as("the newest is kept").isEqualTo(4);
      assertThat(await(s.trimFirings(byAge, 5000))).isZero();
      assertThat(await(s.readFirings(0, 100))).extracting(Firing::seq).containsExactly(35L);
    } finally {
      await(s.close());
    }
  }

  /**
   * A trim by age with more to cut than one write examines goes in several writes, and a write queued meanwhile is
   * applied between them: 25,000 old firings (two and a half writes' worth) are cut in one call (the newest kept),
   * after a put queued right after the trim (in the same event-loop task, so before its second write can be).
   */
  @Test
  void aLargeTrimByAgeGoesInSeveralWritesWithOtherWritesBetweenThem() {
    RocksDbTimerStore s = open(options());
    try {
      int n = 2 * Trims.FiringLog.SCAN_PER_WRITE + 5_000;
      recordOnceFirings(s, n, 1000);
      assertThat(trimThenPut(s, () -> s.trimFirings(new Retention(1_000_000, 0), 5000))).isEqualTo(n - 1);
      assertThat(await(s.readFirings(0, 100))).extracting(Firing::seq).containsExactly((long) n);
    } finally {
      await(s.close());
    }
  }

  /**
   * Calls {@code trim}, then puts timer "between", both in one event-loop task (so the put is queued before the
   * trim's second write can be), and checks the put is answered before the trim; returns what the trim removed.
   */
  private Long trimThenPut(RocksDbTimerStore s, java.util.function.Supplier<Future<Long>> trim) {
    List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    Promise<Long> trimmed = Promise.promise();
    Promise<Void> put = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> {
      trim.get().onComplete(ar -> {
        order.add("trim");
        trimmed.handle(ar);
      });
      s.put(timer("between", 5_000)).onComplete(ar -> {
        order.add("put");
        put.handle(ar);
      });
    });
    Long removed = await(trimmed.future());
    await(put.future());
    assertThat(order).as("answers in order").containsExactly("put", "trim");
    return removed;
  }

  // ---- deliveries ----

  /**
   * The count's excess goes from the oldest finished deliveries, wherever the bounded age check stopped: with a
   * budget of 10 records per call, two trims that remove nothing leave the age check partway, and the next trim by
   * count must still remove the oldest finished ones, not the ones after it. Pending ones are never removed.
   */
  @Test
  void trimByCountRemovesTheOldestFinishedDeliveriesWhereverTheAgeCheckStopped() {
    RocksDbTimerStore s = open(options().setTrimMaxScan(10));
    try {
      hookedDeliveries(s, 40, d -> d.seq() % 4 == 0 ? -1 : 2000); // every fourth stays pending
      Retention keepAll = new Retention(1_000, 1_000);
      assertThat(await(s.trimDeliveries(keepAll, 2_100))).isZero();
      assertThat(await(s.trimDeliveries(keepAll, 2_100))).isZero();
      // 30 finished: keep 26, so the 4 oldest finished go (seqs 1, 2, 3, 5; seq 4 is pending)
      assertThat(await(s.trimDeliveries(new Retention(26, 1_000), 2_100))).isEqualTo(4);
      for (long seq : new long[] {1, 2, 3, 5}) {
        assertThat(await(s.getDelivery(seq))).as("seq %d, among the oldest finished", seq).isNull();
      }
      for (long seq = 4; seq <= 40; seq++) {
        if (seq != 5) {
          assertThat(await(s.getDelivery(seq))).as("seq %d", seq).isNotNull();
        }
      }
      // 26 finished: keep 4, budget 10 a call: 10, 10, then the last 2; pending ones stay
      assertThat(await(s.trimDeliveries(new Retention(4, 1_000), 2_100))).isEqualTo(10);
      assertThat(await(s.trimDeliveries(new Retention(4, 1_000), 2_100))).isEqualTo(10);
      assertThat(await(s.trimDeliveries(new Retention(4, 1_000), 2_100))).isEqualTo(2);
      // the 4 newest finished stay: 35, 37, 39 (succeeded) and 38 (dead)
      assertThat(await(s.listDeliveries(DeliveryState.SUCCEEDED, 0, 100)).items()).extracting(Delivery::seq)
          .containsExactly(35L, 37L, 39L);
      assertThat(await(s.listDeliveries(DeliveryState.DEAD, 0, 100)).items()).extracting(Delivery::seq)
          .containsExactly(38L);
      assertThat(await(s.countDeliveries(DeliveryState.PENDING))).isEqualTo(10);
    } finally {
      await(s.close());
    }
  }

  /**
   * Fires {@code n} new timers with a callback, so {@code n} deliveries (seqs 1..n in a new store), and finishes each
   * at {@code updatedAt.applyAsLong(it)} (odd seqs succeeded, even ones dead), or leaves it pending where that is -1.
   */
  private void hookedDeliveries(RocksDbTimerStore s, int n, java.util.function.ToLongFunction<Delivery> updatedAt) {
    for (int from = 0; from < n; from += 1_000) {
      List<Timer> ts = new ArrayList<>();
      List<FiringRequest> reqs = new ArrayList<>();
      for (int i = from; i < Math.min(n, from + 1_000); i++) {
        Timer t = timer("d" + i, 100 + i);
        ts.add(t);
        reqs.add(StoreFixtures.fireWithHook(t, 1000, null));
      }
      await(s.putAll(ts));
      List<Future<Boolean>> done = new ArrayList<>();
      for (FiringResult r : await(s.recordFirings(reqs))) {
        Delivery d = r.delivery();
        long at = updatedAt.applyAsLong(d);
        if (at >= 0) {
          DeliveryState st = d.seq() % 2 == 0 ? DeliveryState.DEAD : DeliveryState.SUCCEEDED;
          done.add(s.updateDelivery(d.after(new Attempt(1, 1000, 200, null, 1), st, 0, at)));
        }
      }
      await(Future.all(done));
    }
  }

  /**
   * One call's age check examines a bounded number of finished deliveries (pending ones are not read): an old one
   * behind more recent ones than that is removed by the next call, not by the first.
   */
  @Test
  void oneTrimChecksTheAgeOfABoundedNumberOfFinishedDeliveriesAndTheNextGoesOn() {
    RocksDbTimerStore s = open(options());
    try {
      int n = Trims.Deliveries.AGE_CHECKS_PER_WRITE + 1_000;
      long oldSeq = Trims.Deliveries.AGE_CHECKS_PER_WRITE + 801; // past the first call's checks (1 in 7 pending)
      hookedDeliveries(s, n, d -> d.seq() == oldSeq ? 500 : d.seq() % 7 == 0 ? -1 : 2_000);
      Retention byAge = new Retention(1_000_000, 1_000);
      assertThat(await(s.trimDeliveries(byAge, 2_100))).as("the first call does not get that far").isZero();
      assertThat(await(s.getDelivery(oldSeq))).isNotNull();
      assertThat(await(s.trimDeliveries(byAge, 2_100))).isEqualTo(1);
      assertThat(await(s.getDelivery(oldSeq))).isNull();
      assertThat(await(s.trimDeliveries(byAge, 2_100))).isZero();
      assertThat(await(s.countDeliveries(DeliveryState.PENDING))).isEqualTo(n / 7);
    } finally {
      await(s.close());
    }
  }

  /**
   * A trim with more to remove than one write takes goes in several writes, and a write queued meanwhile is applied
   * between them rather than after all of them: 2,500 finished deliveries over the retained count take three writes;
   * a put queued right after the trim (in the same event-loop task, so before its second write can be) is answered
   * first.
   */
  @Test
  void aLargeTrimGoesInSeveralWritesWithOtherWritesBetweenThem() {
    RocksDbTimerStore s = open(options());
    try {
      int excess = 2 * Trims.Deliveries.REMOVALS_PER_WRITE + 500;
      hookedDeliveries(s, excess + 10, d -> 2_000);
      assertThat(trimThenPut(s, () -> s.trimDeliveries(new Retention(10, 1_000_000), 2_100))).isEqualTo(excess);
      assertThat(await(s.countDeliveries(DeliveryState.SUCCEEDED)) + await(s.countDeliveries(DeliveryState.DEAD)))
          .isEqualTo(10);
      assertThat(await(s.get("between"))).isNotNull();
    } finally {
      await(s.close());
    }
  }

  /**
   * A database written before the state index carried each delivery's {@code updatedAt} (empty values): the age
   * check reads those records instead, removes the old ones and gives the others their age.
   */
  @Test
  void anIndexEntryWithoutTheAgeIsCheckedFromItsRecordAndGivenTheAge() throws Exception {
    RocksDbTimerStore s = open(options());
    hookedDeliveries(s, 6, d -> d.seq() <= 3 ? 500 : 2_000);
    await(s.close());
    Db db = Db.open(options());
    try (org.rocksdb.WriteBatch b = new org.rocksdb.WriteBatch();
        org.rocksdb.WriteOptions wo = new org.rocksdb.WriteOptions()) {
      for (long seq = 1; seq <= 6; seq++) {
        int st = (seq % 2 == 0 ? DeliveryState.DEAD : DeliveryState.SUCCEEDED).ordinal();
        assertThat(Keys.indexedUpdatedAt(db.db.get(db.meta, Keys.deliveryState(st, seq)))).isNotEqualTo(Long.MIN_VALUE);
        b.put(db.meta, Keys.deliveryState(st, seq), new byte[0]);
      }
      db.db.write(wo, b);
    } finally {
      db.close();
    }
    s = open(options());
    try {
      assertThat(await(s.trimDeliveries(new Retention(1_000, 1_000), 2_100))).isEqualTo(3);
      assertThat(await(s.listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq).containsExactly(4L, 5L, 6L);
    } finally {
      await(s.close());
    }
    db = Db.open(options());
    try {
      for (long seq = 4; seq <= 6; seq++) {
        int st = (seq % 2 == 0 ? DeliveryState.DEAD : DeliveryState.SUCCEEDED).ordinal();
        assertThat(Keys.indexedUpdatedAt(db.db.get(db.meta, Keys.deliveryState(st, seq)))).isEqualTo(2_000);
      }
    } finally {
      db.close();
    }
  }

  @Test
  void trimByAgeStopsAtTheFirstFiringYoungEnough() {
    RocksDbTimerStore s = open(options());
    try {
      recordOnceFirings(s, 5, 1000);
      Timer late = timer("late", 100);
      await(s.put(late));
      await(s.recordFirings(List.of(fire(late, 4000, null))));
      recordOnceFirings(s, 3, 1000); // older firedAt after a young one: only a prefix is ever trimmed
      assertThat(await(s.trimFirings(new Retention(1000, 2000), 5000))).isEqualTo(5);
      assertThat(await(s.readFirings(0, 100))).extracting(Firing::seq).containsExactly(6L, 7L, 8L, 9L);
    } finally {
      await(s.close());
    }
  }

  @Test
  void theSequenceSurvivesTrimmingToTheNewestFiringAndAReopen() {
    RocksDbTimerStore s = open(options());
    recordOnceFirings(s, 50, 1000);
    assertThat(await(s.trimFirings(new Retention(1, Long.MAX_VALUE), 2000))).isEqualTo(49);
    await(s.close());
    s = open(options());
    try {
      assertThat(await(s.lastSeq())).isEqualTo(50);
      assertThat(await(s.readFirings(0, 100))).extracting(Firing::seq).containsExactly(50L);
      assertThat(await(s.trimFirings(new Retention(1, Long.MAX_VALUE), 2000))).isZero();
      Timer t = timer("next", 10);
      await(s.put(t));
      assertThat(await(s.recordFirings(List.of(fire(t, 20, null)))).get(0).firing().seq()).isEqualTo(51);
      assertThat(await(s.trimFirings(new Retention(1, Long.MAX_VALUE), 2000))).isEqualTo(1);
      assertThat(await(s.readFirings(0, 100))).extracting(Firing::seq).containsExactly(51L);
    } finally {
      await(s.close());
    }
  }

  @Test
  void withFsyncWritesAreDurableAcrossAReopen() {
    RocksDbTimerStore s = open(options().setFsync(true));
    recordOnceFirings(s, 3, 1000);
    await(s.put(timer("synced", 5)));
    await(s.close());
    s = open(options().setFsync(true));
    try {
      assertThat(await(s.get("synced"))).isEqualTo(timer("synced", 5));
      assertThat(await(s.lastSeq())).isEqualTo(3);
    } finally {
      await(s.close());
    }
  }

  @Test
  void invalidArgumentsFailWithMessagesNamingTheField() {
    RocksDbTimerStore s = open(options());
    try {
      assertThat(failureOf(s.loadAll(0, b -> Future.succeededFuture()))).hasMessage("batchSize must be >= 1, was 0");
      assertThat(failureOf(s.list(null, null, -1))).hasMessage("limit must be >= 0, was -1");
      assertThat(failureOf(s.readFirings(0, -5))).hasMessage("limit must be >= 0, was -5");
      assertThatThrownBy(() -> new RocksDbStoreOptions().setMaxGroupOps(0))
          .hasMessage("maxGroupOps must be >= 1, was 0");
      assertThatThrownBy(() -> new RocksDbStoreOptions().setBlockCacheBytes(-1))
          .hasMessage("blockCacheBytes must be >= 0, was -1");
    } finally {
      await(s.close());
    }
  }
}
