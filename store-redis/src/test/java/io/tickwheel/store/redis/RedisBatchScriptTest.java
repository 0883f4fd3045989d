package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.failure;
import static io.tickwheel.store.redis.RedisTestSupport.periodic;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.store.redis.impl.TimerRecord;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The batch scripts (put.lua, fire.lua) read and write in variadic chunks of 1,000 timers instead of one command per
 * timer; these tests pin that the result is still exactly "one request after the other, in list order", also for
 * batches larger than a chunk and for an id that occurs more than once in one batch. createAll writes without a
 * script (one MULTI/EXEC transaction); its tests are here too.
 */
class RedisBatchScriptTest {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private Vertx vertx;
  private RedisTimerStore store;
  private String prefix;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    prefix = "batch" + N.incrementAndGet();
    store = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())
        .setKeyPrefix(prefix)));
  }

  @AfterEach
  void close() {
    await(store.close());
    await(vertx.close());
  }

  private long zcard() {
    return Long.parseLong(redis.command("ZCARD", "{" + prefix + "}:due").trim().substring(1));
  }

  private long hlen() {
    return Long.parseLong(redis.command("HLEN", "{" + prefix + "}:timers").trim().substring(1));
  }

  private List<Timer> listAll() {
    List<Timer> all = new ArrayList<>();
    TimerPage p = await(store.list(null, null, 1000));
    all.addAll(p.timers());
    while (p.next() != null) {
      p = await(store.list(null, p.next(), 1000));
      all.addAll(p.timers());
    }
    return all;
  }

  @Test
  void putAllWithARepeatedIdKeepsTheLastAndOneIndexEntry() {
    await(store.putAll(List.of(timer("a", 100), timer("b", 200), timer("a", 300))));

    assertThat(await(store.get("a")).nextDueAt()).isEqualTo(300);
    assertThat(listAll()).extracting(Timer::id).containsExactly("b", "a");
    assertThat(zcard()).isEqualTo(2);
  }

  @Test
  void putAllLargerThanAChunkWritesAndReindexesEveryTimer() {
    List<Timer> first = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      first.add(timer(String.format("t%05d", i), 10_000 + i));
    }
    await(store.putAll(first));
    List<Timer> second = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      // every other timer moves before all the others, the rest are rewritten in place
      second.add(i % 2 == 0 ? first.get(i).withNextDueAt(i) : first.get(i));
    }
    await(store.putAll(second));

    List<Timer> listed = listAll();
    assertThat(listed).hasSize(2500);
    assertThat(zcard()).isEqualTo(2500);
    assertThat(hlen()).isEqualTo(2500);
    for (int i = 0; i < 1250; i++) {
      assertThat(listed.get(i).id()).isEqualTo(String.format("t%05d", 2 * i));
      assertThat(listed.get(i).nextDueAt()).isEqualTo(2 * i);
      assertThat(listed.get(1250 + i).id()).isEqualTo(String.format("t%05d", 2 * i + 1));
    }
  }

  @Test
  void aReArmedCalendarTimerIsStoredByteForByteAsItsFullRecordWhetherSentShortOrWhole() {
    ZonedCron c = ZonedCron.of("0 30 1 * * *", ZoneId.of("America/New_York"), DstGap.SKIP, DstOverlap.TWICE);
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    Timer plain = new Timer("c1", "cal", Kind.CRON, 0, 0, 9, Misfire.FIRE_ONCE, "{\"k\":\"ä b\"}", 1, 1_000, 0, 3,
        new Timer.Extras(c, 9_000_000_000L, 0, false, 0, cb));
    Timer jittered = new Timer("c2", "cal", Kind.CRON, 0, 0, 0, Misfire.SKIP, null, 1, 1_040, 0, 5,
        new Timer.Extras(c, Timer.NO_END, 60_000, false, 1_000));
    await(store.putAll(List.of(plain, jittered)));
    Timer plain1 = plain.fired(87_400_000);
    Timer plain2 = plain1.fired(173_800_000);
    Timer jittered1 = jittered.fired(86_401_000, 86_401_500);
    assertThat(TimerRecord.rearmedHeader(plain1, 3, 0)).as("sent short").startsWith("+3 1 ");
    assertThat(TimerRecord.rearmedHeader(jittered1, 5, 0)).as("jitter: sent whole").isNull();

    List<FiringResult> rs = await(store.recordFirings(List.of(
        new FiringRequest("c1", 3, 0, true, 1_000, 1_001, plain1),
        new FiringRequest("c2", 5, 0, true, 1_040, 1_041, jittered1, 1_000),
        new FiringRequest("c1", 3, 1, true, 87_400_000, 87_400_001, plain2))));   // the same id again, in one script

    assertThat(rs).allSatisfy(r -> assertThat(r.applied()).isTrue());
    assertThat(rs.get(2).firing().payload()).isEqualTo(plain.payload());
    assertThat(await(store.get("c1"))).isEqualTo(plain2);
    assertThat(await(store.get("c2"))).isEqualTo(jittered1);
    for (Timer t : List.of(plain2, jittered1)) {
      assertThat(redis.command("HGET", "{" + prefix + "}:timers", t.id()))
          .contains(new String(TimerRecord.encode(t), StandardCharsets.UTF_8));
    }
    assertThat(listAll()).extracting(Timer::nextDueAt).containsExactly(86_401_500L, 173_800_000L);
  }

  @Test
  void recordFiringsAppliesARepeatedIdInListOrderAcrossChunks() {
    Timer p = periodic("p", 100, 50);
    List<Timer> fillers = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      fillers.add(timer(String.format("f%04d", i), 100));
    }
    List<Timer> all = new ArrayList<>(fillers);
    all.add(p);
    await(store.putAll(all));

    Timer p1 = p.fired(150);
    Timer p2 = p1.fired(200);
    List<FiringRequest> batch = new ArrayList<>();
    batch.add(new FiringRequest("p", 1, 0, true, 100, 101, p1)); // 0: fires, advances to 150
    for (int i = 0; i < 1500; i++) { // 1..1500: fillers fire once and go
      Timer f = fillers.get(i);
      batch.add(new FiringRequest(f.id(), 1, 0, true, 100, 101, null));
    }
    batch.add(new FiringRequest("p", 1, 1, true, 150, 151, p2)); // 1501 (second chunk): sees the advance
    batch.add(new FiringRequest("p", 1, 1, true, 150, 151, p2)); // 1502: stale now (firings is 2)
    batch.add(new FiringRequest("f0003", 1, 0, true, 100, 101, null)); // 1503: removed at 4 → stale
    batch.add(new FiringRequest("f1600", 1, 0, false, 100, 101, fillers.get(1600).withNextDueAt(5))); // advance

    List<FiringResult> rs = await(store.recordFirings(batch));

    assertThat(rs).hasSize(batch.size());
    assertThat(rs.get(0).firing().seq()).isEqualTo(1);
    assertThat(rs.get(0).firing().payload()).isEqualTo("[1,2,3]");
    assertThat(rs.get(0).firing().topic()).isEqualTo("t2");
    for (int i = 1; i <= 1500; i++) {
      assertThat(rs.get(i).firing().seq()).isEqualTo(i + 1);
      assertThat(rs.get(i).firing().id()).isEqualTo(fillers.get(i - 1).id());
    }
    Firing second = rs.get(1501).firing();
    assertThat(second.seq()).isEqualTo(1502);
    assertThat(second.firing()).isEqualTo(2);
    assertThat(second.dueAt()).isEqualTo(150);
    assertThat(rs.get(1502).applied()).isFalse();
    assertThat(rs.get(1503).applied()).isFalse();
    assertThat(rs.get(1504)).isEqualTo(FiringResult.advanced());
    assertThat(await(store.lastSeq())).isEqualTo(1502);

    Timer stored = await(store.get("p"));
    assertThat(stored.firings()).isEqualTo(2);
    assertThat(stored.nextDueAt()).isEqualTo(200);
    assertThat(stored.payload()).isEqualTo("[1,2,3]");
    List<Timer> listed = listAll();
    assertThat(listed).hasSize(2000 - 1500 + 1);
    assertThat(listed.get(0).id()).isEqualTo("f1600");
    assertThat(listed.get(0).nextDueAt()).isEqualTo(5);
    assertThat(listed).filteredOn(t -> t.id().equals("p")).singleElement()
        .extracting(Timer::nextDueAt).isEqualTo(200L);
    assertThat(zcard()).isEqualTo(hlen()).isEqualTo(501);
    List<Firing> log = await(store.readFirings(1500, 10));
    assertThat(log).extracting(Firing::seq).containsExactly(1501L, 1502L);
    assertThat(log.get(1).id()).isEqualTo("p");
  }

  /**
   * fire.lua has a path of its own for a call of one request (a cluster partition's usual share of a turn). Each
   * request here goes alone to one store and, followed by a stale request, through the batch path to another: the
   * answers and every key of the two stores must be the same after each step.
   */
  @Test
  void aLoneFiringRequestLeavesExactlyWhatTheBatchPathLeaves() {
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    ZonedCron c = ZonedCron.of("0 30 1 * * *", ZoneId.of("America/New_York"), DstGap.SKIP, DstOverlap.TWICE);
    Timer once = timer("once", 100);
    Timer rate = periodic("rate", 100, 50);
    Timer jittered = new Timer("jit", "cal", Kind.CRON, 0, 0, 0, Misfire.SKIP, null, 1, 1_040, 0, 5,
        new Timer.Extras(c, Timer.NO_END, 60_000, false, 1_000));
    Timer hooked = new Timer("hook", "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"h\":1}", 1, 100, 0, 1,
        new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
    Timer paused = new Timer("paused", "t3", Kind.FIXED_DELAY, 10, 10, 0, Misfire.FIRE_ONCE, null, 1, 100, 0, 1,
        new Timer.Extras(null, Timer.NO_END, 0, true, 0));
    Timer text = new Timer("text", "t3", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "\" p=1 \"", 1, 100, 0, 1);
    RedisTimerStore batched = twin(List.of(once, rate, jittered, hooked, paused, text));
    try {
      Timer rate1 = rate.fired(150);
      List<FiringRequest> steps = List.of(
          new FiringRequest("once", 1, 0, true, 100, 101, null),                   // fires, removed
          new FiringRequest("rate", 1, 0, true, 100, 101, rate1),                   // fires, re-armed (short header)
          new FiringRequest("rate", 1, 0, true, 100, 101, rate1),                   // stale: fired already
          new FiringRequest("rate", 1, 1, false, 150, 151, rate1.fired(200)),       // advanced, no firing
          new FiringRequest("jit", 5, 0, true, 1_040, 1_041, jittered.fired(86_401_000, 86_401_500), 1_000),
          new FiringRequest("hook", 1, 0, true, 100, 101, null, 100, cb),           // fires with a delivery
          new FiringRequest("paused", 1, 0, false, 100, 101, paused.fired(110)),    // paused count kept
          new FiringRequest("text", 1, 0, true, 100, 101, null),                    // " p=1 " in the payload
          new FiringRequest("absent", 1, 0, true, 100, 101, null),                  // stale: never stored
          new FiringRequest("paused", 1, 1, true, 110, 111, null));                 // fires, removed
      FiringRequest filler = new FiringRequest("not-stored", 1, 0, true, 100, 101, null);
      for (FiringRequest r : steps) {
        FiringResult alone = await(store.recordFirings(List.of(r))).get(0);
        FiringResult inBatch = await(batched.recordFirings(List.of(r, filler))).get(0);
        assertThat(alone).as(r.toString()).isEqualTo(inBatch);
        assertSameKeys("after " + r, "timers", "due", "seq", "log", "topic-counts", "topics", "dlv", "dlv:pending",
            "dlv:all");
      }
      assertThat(await(store.lastSeq())).isEqualTo(6);
      assertThat(hlen()).isEqualTo(2);
    } finally {
      await(batched.close());
    }
  }

  /**
   * An updateAll of one item runs update.lua (the same steps without the batch script's tables); here against
   * update_all.lua's batch path, as the firing test above compares fire.lua's two paths.
   */
  @Test
  void aLoneTouchLeavesExactlyWhatTheBatchPathLeaves() {
    Timer a = timer("a", 100);
    Timer b = timer("b", 200);
    Timer c = periodic("c", 300, 50);
    RedisTimerStore batched = twin(List.of(a, b, c));
    try {
      Timer cPaused = new Timer("c", "t2", Kind.FIXED_RATE, 50, 50, 0, Misfire.FIRE_ALL, null, 1, 300, 0, 1,
          new Timer.Extras(null, Timer.NO_END, 0, true, 0));
      List<Timer> steps = List.of(
          a.withNextDueAt(5_000),                                                             // moves in the index
          b,                                                                                  // same due time
          new Timer("b", "t9", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, null, 1, 250, 0, 1), // another topic
          cPaused,                                                                            // paused now
          timer("absent", 100));                                                              // not stored
      Timer filler = timer("not-stored", 100);
      for (Timer t : steps) {
        for (long gen : new long[] {1, 7}) {                                                  // 7: another generation
          Timer alone = await(store.updateAll(List.of(t), new long[] {gen})).get(0);
          Timer inBatch = await(batched.updateAll(List.of(t, filler), new long[] {gen, 1})).get(0);
          assertThat(alone).as(t + " generation " + gen).isEqualTo(inBatch);
          assertSameKeys("after " + t + " generation " + gen, "timers", "due", "topic-counts", "topics");
        }
      }
      assertThat(await(store.get("b")).topic()).isEqualTo("t9");
      assertThat(await(store.get("a")).nextDueAt()).isEqualTo(5_000);
    } finally {
      await(batched.close());
    }
  }

  /** A second store on this Redis (prefix + "b"), both stores holding {@code timers}; the caller closes it. */
  private RedisTimerStore twin(List<Timer> timers) {
    RedisTimerStore twin = await(RedisTimerStore.open(vertx, new RedisStoreOptions()
        .setConnectionString(redis.uri()).setKeyPrefix(prefix + "b")));
    await(store.putAll(timers));
    await(twin.putAll(timers));
    return twin;
  }

  /** Each of the store's {@code keys} holds what its {@link #twin}'s holds. */
  private void assertSameKeys(String when, String... keys) {
    for (String key : keys) {
      assertThat(dump("{" + prefix + "}:" + key)).as(key + " " + when).isEqualTo(dump("{" + prefix + "b}:" + key));
    }
  }

  /** A key's whole content, by its type (a hash's pairs sorted by field: their order depends on its history). */
  private List<String> dump(String key) {
    String type = redis.command("TYPE", key).trim();
    return switch (type) {
      case "+hash" -> {
        List<String> flat = redis.commandList("HGETALL", key);
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
          pairs.add(flat.get(i) + "=" + flat.get(i + 1));
        }
        pairs.sort(null);
        yield pairs;
      }
      case "+zset" -> redis.commandList("ZRANGE", key, "0", "-1", "WITHSCORES");
      case "+stream" -> redis.commandList("XRANGE", key, "-", "+");
      case "+string" -> redis.commandList("GET", key);
      case "+none" -> List.of();
      default -> throw new AssertionError(key + " has type " + type);
    };
  }

  @Test
  void createAllWritesOneRecordAndOneIndexEntryPerTimerInOneTransactionWithoutAScript() {
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      ts.add(timer(String.format("c%05d", i), 50_000 - i));
    }
    ts.add(timer("c00007", 1)); // a repeated id: the last one wins, as in putAll
    redis.command("CONFIG", "RESETSTAT");
    await(store.createAll(ts));

    String stats = redis.command("INFO", "COMMANDSTATS");
    assertThat(stats).contains("cmdstat_multi:calls=1,").contains("cmdstat_exec:calls=1,")
        .contains("cmdstat_zadd:calls=2,")      // the due index, and the topic names (one topic: one HINCRBY)
        .contains("cmdstat_hset:calls=1,").contains("cmdstat_hincrby:calls=1,").doesNotContain("cmdstat_evalsha");
    assertThat(zcard()).isEqualTo(hlen()).isEqualTo(2500);
    assertThat(await(store.topicCounts(null, 10))).extracting(io.tickwheel.core.store.TopicCount::count)
        .containsExactly(2500L);
    List<Timer> listed = listAll();
    assertThat(listed).hasSize(2500);
    assertThat(listed.get(0)).isEqualTo(ts.get(2500));
    assertThat(listed.get(1).id()).isEqualTo("c02499");
    assertThat(await(store.get("c01234"))).isEqualTo(ts.get(1234));
  }

  @Test
  void aCreateAllOverAStoredIdLeavesItsOldEntryWhichListAndLoadAllSkipAndEveryLaterWriteHandlesCorrectly() {
    await(store.put(timer("x", 100)));
    await(store.createAll(List.of(timer("x", 900), timer("y", 500)))); // a caller bug: x is stored
    assertThat(zcard()).as("the old entry of x stays").isEqualTo(3);
    assertThat(listAll()).extracting(Timer::id).containsExactly("y", "x");
    assertThat(await(store.list("t1", null, 10)).timers()).extracting(Timer::nextDueAt).containsExactly(500L, 900L);
    List<Timer> loaded = new ArrayList<>();
    assertThat(await(store.loadAll(1, b -> {
      loaded.addAll(b);
      return io.vertx.core.Future.succeededFuture();
    }))).isEqualTo(2);
    assertThat(loaded).extracting(Timer::nextDueAt).containsExactly(500L, 900L);
    List<FiringResult> rs = await(store.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 900, 901, null))));
    assertThat(rs.get(0).applied()).isTrue();
    assertThat(listAll()).extracting(Timer::id).containsExactly("y");
  }

  @Test
  void aLargeCreateAbsentIsOneTransactionWhoseRecordsSkipLuaAndWhichPutsTheStoredOnesBack() {
    Timer x = timer("a00010", 7).withPayload("{\"kept\":1}");
    Timer y = timer("a00150", 8);
    await(store.putAll(List.of(x, y)));
    List<Timer> ts = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ts.add(timer(String.format("a%05d", i), 1_000 + i));
    }
    redis.command("CONFIG", "RESETSTAT");
    assertThat(await(store.createAbsent(ts))).containsExactlyInAnyOrder("a00010", "a00150");

    String stats = redis.command("INFO", "COMMANDSTATS");
    assertThat(stats).contains("cmdstat_multi:calls=1,").contains("cmdstat_exec:calls=1,")
        .contains("cmdstat_eval:calls=2,").doesNotContain("cmdstat_evalsha");
    assertThat(redis.command("EXISTS", "{" + prefix + "}:create-absent-keep").trim()).isEqualTo(":0");
    assertThat(zcard()).isEqualTo(hlen()).isEqualTo(200);
    assertThat(await(store.get("a00010"))).isEqualTo(x);
    assertThat(await(store.get("a00150"))).isEqualTo(y);
    assertThat(await(store.get("a00011"))).isEqualTo(ts.get(11));
    assertThat(listAll()).extracting(Timer::id).startsWith("a00010", "a00150", "a00000", "a00001");
    assertThat(await(store.timerCount())).isEqualTo(200);

    // below the threshold: the one script
    redis.command("CONFIG", "RESETSTAT");
    assertThat(await(store.createAbsent(List.of(timer("a00001", 5), timer("b", 6))))).containsExactly("a00001");
    assertThat(redis.command("INFO", "COMMANDSTATS")).contains("cmdstat_evalsha:calls=1,")
        .doesNotContain("cmdstat_multi");
    assertThat(await(store.timerCount())).isEqualTo(201);
  }

  @Test
  void aCommandFailingInsideTheTransactionFailsCreateAllWithRedisErrorCode() {
    redis.command("SET", "{" + prefix + "}:due", "not a sorted set");
    Throwable e = failure(store.createAll(List.of(timer("w", 1))));
    assertThat(e).isInstanceOf(StoreFaultException.class).hasMessageContaining("WRONGTYPE")
        .hasMessageContaining("createAll");
    assertThat(((StoreFaultException) e).mayHaveApplied()).as("the transaction's other command ran").isTrue();
  }

  @Test
  void aTransactionRedisRefusesWhileQueuingIsDiscardedAsAWhole() {
    await(store.createAll(List.of(timer("before", 1))));
    redis.command("CONFIG", "SET", "maxmemory", "1");
    try {
      Throwable e = failure(store.createAll(List.of(timer("refused", 2))));
      assertThat(e).isInstanceOf(StoreFaultException.class).hasMessageContaining("OOM");
      assertThat(((StoreFaultException) e).mayHaveApplied()).as("discarded as a whole").isFalse();
    } finally {
      redis.command("CONFIG", "SET", "maxmemory", "0");
    }
    assertThat(await(store.get("refused"))).isNull();
    assertThat(zcard()).isEqualTo(hlen()).isEqualTo(1);
  }
}
