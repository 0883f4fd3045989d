package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.failure;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code minReplicasAcked} against a real standalone master with one real replica (both private redis-server
 * processes): what a success promises, how a missing replica fails a write, and that writes share their WAITs.
 */
class RedisReplicaAckTest {

  private static final String PREFIX = "ack";
  private static final String TIMERS = "{" + PREFIX + "}:timers";
  private static Vertx vertx;
  private RedisServerProcess master;
  private RedisServerProcess replica;
  private final List<TimerStore> stores = new ArrayList<>();

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    await(vertx.close());
  }

  @BeforeEach
  void startRedis() {
    master = RedisServerProcess.start();
    replica = RedisServerProcess.startReplicaOf(master);
  }

  @AfterEach
  void stopRedis() {
    try {
      if (replica != null && replica.isRunning()) {
        replica.resume();
      }
      for (TimerStore s : stores) {
        s.close().toCompletionStage().toCompletableFuture().completeOnTimeout(null, 10, TimeUnit.SECONDS).join();
      }
    } finally {
      if (replica != null) {
        replica.close();
      }
      if (master != null) {
        master.close();
      }
    }
  }

  private TimerStore open(int minReplicasAcked, long replicaAckTimeoutMs) {
    TimerStore s = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(master.uri())
        .setKeyPrefix(PREFIX).setMinReplicasAcked(minReplicasAcked).setReplicaAckTimeoutMs(replicaAckTimeoutMs)
        .setCommandTimeoutMs(5_000)));
    stores.add(s);
    return s;
  }

  @Test
  void everyKindOfWriteWaitsForTheReplicaAndIsOnItWhenItsFutureCompletes() {
    TimerStore store = open(1, 3_000);
    await(store.createAll(List.of(timer("t", 1_000))));
    // each kind of write, sent while the replica is stopped: not complete then (without WAIT it would be, at once),
    // complete once the replica runs again, and on the replica by then
    whileReplicaStopped(() -> store.createAll(List.of(timer("c", 1_000))));
    assertThat(replica.command("HGET", TIMERS, "c")).isEqualTo(master.command("HGET", TIMERS, "c"));
    whileReplicaStopped(() -> store.update(timer("t", 1_000).withNextDueAt(5_000).withGeneration(2), 1));
    assertThat(replica.command("HGET", TIMERS, "t")).contains(Long.toHexString(5_000));
    whileReplicaStopped(() -> store.put(timer("p", 2_000)));
    assertThat(replica.command("HEXISTS", TIMERS, "p")).isEqualTo(":1");
    whileReplicaStopped(() -> store.recordFirings(List.of(new FiringRequest("t", 2, 0, true, 5_000, 5_001, null))));
    assertThat(replica.command("GET", "{" + PREFIX + "}:seq")).isEqualTo("1");
    assertThat(replica.command("HEXISTS", TIMERS, "t")).as("fired and removed").isEqualTo(":0");
    whileReplicaStopped(() -> store.remove("p"));
    assertThat(replica.command("HEXISTS", TIMERS, "p")).isEqualTo(":0");
  }

  /** Stops the replica, sends {@code write}, checks it stays incomplete, resumes the replica, awaits the write. */
  private <T> T whileReplicaStopped(java.util.function.Supplier<Future<T>> send) {
    replica.pause();
    Future<T> write;
    try {
      write = send.get();
      // a negative check, so time is what it checks: the write stays incomplete for 300 ms without its replica
      Future<T> sent = write;
      Awaitility.await("the write incomplete while the replica is stopped").during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(2)).until(() -> !sent.isComplete());
    } finally {
      replica.resume();
    }
    return await(write);
  }

  @Test
  void aWriteWaitsWhileTheReplicaIsPausedAndIsOnItTheMomentItSucceeds() {
    TimerStore store = open(1, 3_000);
    await(store.put(timer("warm", 1)));
    replica.pause();
    Future<Void> put = store.put(timer("held", 2));
    // a negative check, so time is what it checks: the write stays incomplete for 400 ms without its replica
    Awaitility.await("the write incomplete without the replica").during(Duration.ofMillis(400))
        .atMost(Duration.ofSeconds(2)).until(() -> !put.isComplete());
    assertThat(master.command("HEXISTS", TIMERS, "held")).as("the master applied it meanwhile").isEqualTo(":1");
    replica.resume();
    await(put);
    assertThat(replica.command("HEXISTS", TIMERS, "held")).isEqualTo(":1");
  }

  @Test
  void withoutItsReplicaAWriteFailsAfterTheAckTimeoutAsUnavailableAndAppliedAndWorksAgainAfterwards() {
    TimerStore acked = open(1, 2_000);   // not 500 ms: on a loaded machine a CPU-starved replica acknowledged later
    TimerStore plain = open(0, 2_000);
    await(acked.put(timer("before", 1)));
    replica.pause();
    long t0 = System.nanoTime();
    Throwable e = failure(acked.put(timer("lonely", 2)));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(e).isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("0 of 1 replicas").hasMessageContaining("2000 ms").hasMessageContaining("put.lua");
    assertThat(((StoreUnavailableException) e).mayHaveApplied()).isTrue();
    assertThat(ms).as("failed after the WAIT timeout, not the command timeout").isBetween(2_000L, 4_500L);
    assertThat(master.command("HEXISTS", TIMERS, "lonely")).as("applied on the master").isEqualTo(":1");
    await(plain.put(timer("unacked", 3))); // the same write without WAIT succeeds with the replica still paused
    replica.resume();
    replica.awaitReplicaInSync(master, 10_000);
    await(acked.put(timer("after", 4)));
    await(acked.createAll(List.of(timer("after2", 5))));
    assertThat(replica.command("HEXISTS", TIMERS, "after2")).isEqualTo(":1");
  }

  @Test
  void concurrentWritesShareTheirWaits() throws Exception {
    TimerStore store = open(1, 1_000);
    await(store.put(timer("warm", 1)));
    assertThat(master.command("CONFIG", "RESETSTAT")).isEqualTo("+OK");
    int contexts = 4;
    int perContext = 500;
    List<Future<Void>> all = new ArrayList<>();
    List<Promise<List<Future<Void>>>> sent = new ArrayList<>();
    for (int c = 0; c < contexts; c++) {
      Context ctx = ((VertxInternal) vertx).createEventLoopContext();
      Promise<List<Future<Void>>> p = Promise.promise();
      sent.add(p);
      int base = c * perContext;
      ctx.runOnContext(v -> {
        List<Future<Void>> fs = new ArrayList<>();
        for (int i = 0; i < perContext; i++) {
          fs.add(store.put(timer("c" + (base + i), 10_000 + base + i)));
        }
        p.complete(fs);
      });
    }
    for (Promise<List<Future<Void>>> p : sent) {
      all.addAll(await(p.future()));
    }
    await(Future.all(all));
    String stats = master.command("INFO", "commandstats");
    long waits = RedisServerProcess.commandCalls(stats, "wait");
    long evals = RedisServerProcess.commandCalls(stats, "evalsha");
    assertThat(evals).as("one script call per put").isEqualTo(contexts * perContext);
    assertThat(waits).as("WAITs for " + evals + " writes").isBetween(1L, evals / 10);
    System.out.printf("%d puts from %d contexts: %d WAITs%n", evals, contexts, waits);
    assertThat(replica.command("HLEN", TIMERS)).isEqualTo(":" + (contexts * perContext + 1));
  }

  @Test
  void aClusterBroadcastIsNeverRefusedForWantOfReplicasWhileTheCoordinatorsWritesAre() {
    io.tickwheel.store.redis.coordination.RedisClusterCoordinator c = await(
        io.tickwheel.store.redis.coordination.RedisClusterCoordinator.open(vertx, new RedisStoreOptions()
            .setConnectionString(master.uri()).setKeyPrefix("ackc").setMinReplicasAcked(1).setReplicaAckTimeoutMs(2_000)
            .setCommandTimeoutMs(5_000)));
    try {
      List<String> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      c.onBroadcast(got::add);
      await(c.broadcast("f 1 1"));
      Awaitility.await("the first broadcast").atMost(Duration.ofSeconds(10)).until(() -> got.contains("f 1 1"));
      replica.pause();
      await(c.broadcast("f 1 2"));              // a hint keeps nothing: no WAIT, so no refusal
      Awaitility.await("the broadcast sent while the replica is paused").atMost(Duration.ofSeconds(10))
          .until(() -> got.contains("f 1 2"));
      Throwable e = failure(c.setTopicPaused("billing", true));   // a write of the same link still waits, and fails
      assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("0 of 1 replicas");
      assertThat(((StoreUnavailableException) e).mayHaveApplied()).isTrue();
    } finally {
      replica.resume();
      await(c.close());
    }
  }
}
