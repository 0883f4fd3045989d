package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Many calls in flight at once (pipelined) still apply in call order per thread, and complete on their context. */
class RedisPipelineOrderTest {

  private static Vertx vertx;
  private static RedisServerProcess redis;
  private static RedisTimerStore store;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    redis = RedisServerProcess.start();
    store = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())));
  }

  @AfterAll
  static void stop() {
    await(store.close());
    await(vertx.close());
    redis.close();
  }

  @Test
  void thousandsOfUnawaitedWritesFromOneThreadApplyInCallOrder() {
    List<Future<?>> all = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String id = "o" + (i % 50);
      all.add(store.put(timer(id, i).withGeneration(i)));
      if (i % 7 == 0) {
        all.add(store.remove(id));
      }
    }
    await(Future.all(all));
    for (int k = 0; k < 50; k++) {
      // the last write of each id is the put with the highest i ≡ k (mod 50), unless a remove followed it
      int last = 1950 + k;
      Timer t = await(store.get("o" + k));
      if (last % 7 == 0) {
        assertThat(t).isNull();
      } else {
        assertThat(t.generation()).isEqualTo(last);
      }
    }
  }

  @Test
  void callsFromEventLoopsCompleteOnTheirOwnContextAndInOrderPerContext() throws Exception {
    int loops = 4;
    List<CompletableFuture<Boolean>> results = new ArrayList<>();
    for (int l = 0; l < loops; l++) {
      String base = "ctx" + l + "-";
      Context ctx = vertx.getOrCreateContext();
      CompletableFuture<Boolean> done = new CompletableFuture<>();
      results.add(done);
      ctx.runOnContext(v -> {
        List<Future<Boolean>> checks = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          checks.add(store.put(timer(base + (i % 10), i).withGeneration(i)).map(x -> Vertx.currentContext() == ctx));
        }
        checks.add(store.get(base + "9").map(t -> t.generation() == 499 && Vertx.currentContext() == ctx));
        Future.all(checks).onComplete(ar -> {
          if (ar.failed()) {
            done.completeExceptionally(ar.cause());
          } else {
            done.complete(checks.stream().allMatch(Future::result));
          }
        });
      });
    }
    for (CompletableFuture<Boolean> r : results) {
      assertThat(r.get(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void listFollowsTheCursorOverEqualDueTimesAndTopics() {
    List<Timer> same = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      same.add(timer("same-" + String.format("%04d", i), 777).withNextDueAt(777));
    }
    await(store.putAll(same));
    List<String> seen = new ArrayList<>();
    io.tickwheel.core.store.TimerCursor c = null;
    do {
      var page = await(store.list("t1", c, 64));
      page.timers().stream().filter(t -> t.nextDueAt() == 777).forEach(t -> seen.add(t.id()));
      c = page.next();
    } while (c != null);
    assertThat(seen).hasSize(1000).isSorted();
  }

  @Test
  void aRareTopicIsListedCompletelyByFollowingNextEvenPastTheScanBudget() {
    String p = "rare-";
    List<Future<Void>> writes = new ArrayList<>();
    List<Timer> chunk = new ArrayList<>();
    List<String> rare = new ArrayList<>();
    for (int i = 0; i < 70_000; i++) {
      Timer t = timer(p + String.format("%06d", i), 1_000_000 + i);
      if (i == 0 || i == 69_999) {
        t = new Timer(t.id(), "needle", t.kind(), t.delayMs(), 0, 0, t.misfire(), null, 0, t.nextDueAt(), 0, 1);
        rare.add(t.id());
      }
      chunk.add(t);
      if (chunk.size() == 10_000) {
        writes.add(store.putAll(chunk));
        chunk = new ArrayList<>();
      }
    }
    await(Future.all(writes));
    var first = await(store.list("needle", null, 5));
    assertThat(first.timers()).extracting(Timer::id).as("the scan budget ends the first page early")
        .containsExactly(rare.get(0));
    assertThat(first.next()).isNotNull();
    var second = await(store.list("needle", first.next(), 5));
    assertThat(second.timers()).extracting(Timer::id).containsExactly(rare.get(1));
    assertThat(second.next()).isNull();
  }

  @Test
  void badArgumentsFailWithMessagesNamingThem() {
    Throwable e = RedisTestSupport.failure(store.list(null, null, 0));
    assertThat(e).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    assertThat(RedisTestSupport.failure(store.loadAll(0, b -> Future.succeededFuture())))
        .hasMessageContaining("batchSize");
    assertThat(RedisTestSupport.failure(store.put(timer("white space", 1)))).hasMessageContaining("id")
        .isNotInstanceOf(StoreUnavailableException.class);
  }
}
