package io.tickwheel.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of the {@link TimerExport} part of the store SPI, run against every store: a store's test extends it
 * and opens a fresh, empty store that is both a {@link TimerStore} and a {@link TimerExport}.
 */
public abstract class TimerExportContract {

  protected static Vertx vertx;
  private TimerStore store;

  /** A new, empty store, implementing {@link TimerExport}. */
  protected abstract TimerStore createStore(Vertx vertx) throws Exception;

  /**
   * Whether the store's export reads one point-in-time snapshot (memory, RocksDB): then a write made while the export
   * runs is never seen by it. Redis's paged export promises less (see {@code RedisTimerStore#exportAll}).
   */
  protected abstract boolean pointInTime();

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
  void close() {
    if (store != null) {
      await(store.close());
    }
  }

  private TimerExport export() {
    return (TimerExport) store;
  }

  private static <T> T await(Future<T> f) {
    return StoreFixtures.await(f);
  }

  @Test
  void anEmptyStoreExportsNothing() {
    AtomicInteger calls = new AtomicInteger();
    assertThat(await(export().exportAll(10, b -> {
      calls.incrementAndGet();
      return Future.succeededFuture();
    }))).isZero();
    assertThat(calls).hasValue(0);
  }

  @Test
  void everyTimerIsExportedOnceWithItsWholeState() {
    List<Timer> all = new ArrayList<>();
    all.add(StoreFixtures.cron("c1", 1_000_000, 1_020_000));
    all.add(StoreFixtures.jittered("j1", 2_000_000, 2_010_000));
    all.add(StoreFixtures.withCallback("cb1", 3_000_000));
    all.add(StoreFixtures.periodic("p1", 4_000_000, 5_000));
    for (int i = 0; i < 250; i++) {
      all.add(StoreFixtures.timer("t" + i, 10_000_000 + (i % 7) * 1000));
    }
    await(store.putAll(all));
    Map<String, Timer> seen = new HashMap<>();
    List<Integer> sizes = new ArrayList<>();
    long n = await(export().exportAll(32, batch -> {
      sizes.add(batch.size());
      for (Timer t : batch) {
        assertThat(seen.put(t.id(), t)).as("exported twice: %s", t.id()).isNull();
      }
      return Future.succeededFuture();
    }));
    assertThat(n).isEqualTo(all.size());
    assertThat(sizes).allSatisfy(s -> assertThat(s).isBetween(1, 32));
    for (Timer t : all) {
      assertThat(seen.get(t.id())).as(t.id()).isEqualTo(t);
    }
  }

  @Test
  void theNextBatchIsReadOnlyAfterTheSinkFinishedTheLastAndAFailedSinkEndsTheExport() {
    List<Timer> all = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      all.add(StoreFixtures.timer("b" + i, 1_000 + i));
    }
    await(store.putAll(all));
    List<Promise<Void>> held = new ArrayList<>();
    AtomicInteger delivered = new AtomicInteger();
    CompletableFuture<Long> done = new CompletableFuture<>();
    vertx.runOnContext(v -> export().exportAll(10, batch -> {
      delivered.addAndGet(batch.size());
      Promise<Void> p = Promise.promise();
      synchronized (held) {
        held.add(p);
      }
      return p.future();
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        done.complete(ar.result());
      } else {
        done.completeExceptionally(ar.cause());
      }
    }));
    Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> delivered.get() == 10);
    // the store waits for the sink: a second batch is not read while the first is not done
    Awaitility.await().during(300, TimeUnit.MILLISECONDS).atMost(2, TimeUnit.SECONDS)
        .until(() -> delivered.get() == 10 && !done.isDone());
    vertx.runOnContext(v -> held.get(0).complete());
    Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> delivered.get() == 20);
    RuntimeException boom = new RuntimeException("client went away");
    vertx.runOnContext(v -> held.get(1).fail(boom));
    Awaitility.await().atMost(10, TimeUnit.SECONDS).until(done::isDone);
    assertThat(done).isCompletedExceptionally();
    assertThat(delivered).hasValue(20);
    // the store still works (the snapshot was released; a closing store would refuse)
    assertThat(await(store.get("b0"))).isNotNull();
  }

  @Test
  void writesDuringTheExportAreNotSeenByAPointInTimeSnapshotAndUntouchedTimersComeOnce() {
    List<Timer> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      all.add(StoreFixtures.timer("s" + String.format("%02d", i), 50_000 + i));
    }
    await(store.putAll(all));
    Map<String, Integer> count = new HashMap<>();
    Map<String, Timer> seen = new HashMap<>();
    AtomicInteger batches = new AtomicInteger();
    long n = await(export().exportAll(10, batch -> {
      for (Timer t : batch) {
        count.merge(t.id(), 1, Integer::sum);
        seen.put(t.id(), t);
      }
      if (batches.incrementAndGet() == 1) {
        // while the export runs: a new timer, one removed, one re-armed later (as a firing would)
        return store.put(StoreFixtures.timer("new", 50_030))
            .compose(v -> store.remove("s59"))
            .compose(v -> store.put(StoreFixtures.timer("s58", 90_000).withGeneration(2)))
            .mapEmpty();
      }
      return Future.succeededFuture();
    }));
    for (int i = 0; i < 58; i++) {
      String id = "s" + String.format("%02d", i);
      assertThat(count.get(id)).as("untouched %s", id).isEqualTo(1);
      assertThat(seen.get(id)).isEqualTo(all.get(i));
    }
    if (pointInTime()) {
      assertThat(n).isEqualTo(60);
      assertThat(count).doesNotContainKey("new");
      assertThat(seen.get("s59")).isEqualTo(all.get(59));
      assertThat(seen.get("s58")).isEqualTo(all.get(58));
      assertThat(count.get("s58")).isEqualTo(1);
    } else {
      // each version streamed is a whole stored one
      if (seen.containsKey("s58")) {
        assertThat(seen.get("s58").generation() == 2 ? seen.get("s58").nextDueAt() : all.get(58).nextDueAt())
            .isEqualTo(seen.get("s58").nextDueAt());
      }
    }
  }
}
