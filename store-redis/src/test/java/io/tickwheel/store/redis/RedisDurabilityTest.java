package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.periodic;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With {@code appendonly yes} + {@code appendfsync always}, a Redis crash ({@code kill -9}) or
 * {@code SHUTDOWN NOSAVE} loses no acknowledged timer, firing or seq. Against a real redis-server.
 */
class RedisDurabilityTest {

  private Vertx vertx;
  private RedisServerProcess redis;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    redis = RedisServerProcess.startWithAof("always");
  }

  @AfterEach
  void stop() {
    await(vertx.close());
    redis.close();
  }

  private RedisTimerStore open() {
    return await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())));
  }

  @Test
  void everyAcknowledgedWriteSurvivesKill9OfRedisWithAppendfsyncAlways() {
    survivesRestart(redis::kill9);
  }

  @Test
  void everyAcknowledgedWriteSurvivesShutdownNoSaveWithAppendfsyncAlways() {
    survivesRestart(redis::shutdownNoSave);
  }

  private void survivesRestart(Runnable crash) {
    RedisTimerStore store = open();
    // 500 single puts in flight at once (pipelined), a batch of 500, firings, a touch and a removal
    List<Future<Void>> acks = new ArrayList<>();
    Map<String, Timer> expected = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      Timer t = timer("single-" + i, 10_000 + i);
      expected.put(t.id(), t);
      acks.add(store.put(t));
    }
    List<Timer> batch = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      Timer t = periodic("batch-" + i, 20_000 + i, 100);
      batch.add(t);
      expected.put(t.id(), t);
    }
    acks.add(store.putAll(batch));
    await(Future.all(acks));
    List<FiringRequest> fires = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Timer t = expected.remove("single-" + i);
      fires.add(new FiringRequest(t.id(), 1, 0, true, t.nextDueAt(), t.nextDueAt() + 1, null));
      Timer p = expected.get("batch-" + i);
      Timer next = p.fired(p.nextDueAt() + 100);
      fires.add(new FiringRequest(p.id(), 1, 0, true, p.nextDueAt(), p.nextDueAt() + 1, next));
      expected.put(p.id(), next);
    }
    assertThat(await(store.recordFirings(fires))).allMatch(r -> r.applied() && r.firing() != null);
    Timer touched = expected.get("single-42").touched(99_000).withoutPayload();
    assertThat(await(store.update(touched, 1))).isNotNull();
    expected.put("single-42", touched.withPayload(expected.get("single-42").payload()));
    assertThat(await(store.remove("single-43"))).isTrue();
    expected.remove("single-43");

    crash.run();
    await(store.close());
    redis.restart();

    RedisTimerStore reopened = open();
    try {
      List<Timer> loaded = Collections.synchronizedList(new ArrayList<>());
      long n = await(reopened.loadAll(300, b -> {
        loaded.addAll(b);
        return Future.succeededFuture();
      }));
      assertThat(n).isEqualTo(expected.size());
      assertThat(loaded).containsExactlyInAnyOrderElementsOf(expected.values());
      assertThat(await(reopened.lastSeq())).isEqualTo(20);
      List<Firing> log = await(reopened.readFirings(0, 100));
      assertThat(log).extracting(Firing::seq).containsExactlyElementsOf(
          java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList());
      assertThat(log.get(0).payload()).isEqualTo("{\"n\":\"single-0\"}");
    } finally {
      await(reopened.close());
    }
  }
}
