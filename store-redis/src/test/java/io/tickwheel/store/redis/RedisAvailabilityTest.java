package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.eventually;
import static io.tickwheel.store.redis.RedisTestSupport.failure;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis going away (stopped, killed connection, hung): calls fail fast with {@link StoreUnavailableException}, the
 * store reconnects by itself and works again without being recreated. Against a real redis-server.
 */
class RedisAvailabilityTest {

  private Vertx vertx;
  private RedisServerProcess redis;
  private RedisTimerStore store;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    redis = RedisServerProcess.startWithAof("always");
    store = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())
        .setCommandTimeoutMs(1000).setReconnectBackoffMs(20).setMaxReconnectBackoffMs(200)));
  }

  @AfterEach
  void stop() {
    if (store != null) {
      await(store.close());
    }
    await(vertx.close());
    redis.close();
  }

  /** Fails with StoreUnavailableException naming the endpoint, within {@code maxMs}. */
  private void assertFailsFastAsUnavailable(String what, Supplier<Future<?>> call, long maxMs) {
    long t0 = System.nanoTime();
    Throwable e = failure(call.get());
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(e).as(what).isInstanceOf(StoreUnavailableException.class);
    assertThat(e.getMessage()).as(what).contains("127.0.0.1:" + redis.port());
    assertThat(ms).as(what + " failed after %d ms", ms).isLessThan(maxMs);
  }

  @Test
  void callsFailFastWhileRedisIsStoppedAndTheSameStoreWorksAgainAfterARestart() {
    Timer before = timer("before", 5000);
    await(store.put(before));

    redis.shutdownNoSave();
    // the first call may already be in flight when the socket closes; from then on there is no connection
    failure(store.get("before"));
    assertFailsFastAsUnavailable("put", () -> store.put(timer("x", 1)), 500);
    assertFailsFastAsUnavailable("get", () -> store.get("before"), 500);
    assertFailsFastAsUnavailable("remove", () -> store.remove("before"), 500);
    assertFailsFastAsUnavailable("putAll", () -> store.putAll(List.of(timer("y", 1))), 500);
    assertFailsFastAsUnavailable("recordFirings", () -> store.recordFirings(
        List.of(new FiringRequest("before", 1, 0, true, 5000, 5000, null))), 500);
    assertFailsFastAsUnavailable("lastSeq", () -> store.lastSeq(), 500);
    assertFailsFastAsUnavailable("loadAll", () -> store.loadAll(10, b -> Future.succeededFuture()), 500);
    assertThat(store.isConnected()).isFalse();

    redis.restart();
    Timer back = eventually(10_000, () -> store.get("before"));
    assertThat(back).as("acknowledged before the stop, AOF always").isEqualTo(before);
    await(store.put(timer("after", 6000)));
    assertThat(await(store.recordFirings(List.of(new FiringRequest("after", 1, 0, true, 6000, 6001, null))))
        .get(0).firing().seq()).as("scripts were loaded again on the restarted server").isEqualTo(1);
    assertThat(store.isConnected()).isTrue();
  }

  @Test
  void aKilledConnectionIsReestablishedByTheStoreItself() {
    await(store.put(timer("k", 100)));
    assertThat(redis.command("CLIENT", "KILL", "TYPE", "normal")).startsWith(":");
    Timer t = eventually(5_000, () -> store.get("k"));
    assertThat(t.id()).isEqualTo("k");
    await(store.put(timer("k2", 100)));
    assertThat(await(store.remove("k2"))).isTrue();
  }

  @Test
  void aHungRedisFailsCallsAfterTheCommandTimeoutAndAnswersAgainWhenResumed() {
    await(store.put(timer("h", 100)));
    redis.pause();
    try {
      long t0 = System.nanoTime();
      Throwable e = failure(store.get("h"));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("did not answer");
      assertThat(ms).as("bounded by the 1000 ms command timeout").isBetween(900L, 3_000L);
    } finally {
      redis.resume();
    }
    assertThat(eventually(5_000, () -> store.get("h")).id()).isEqualTo("h");
  }

  @Test
  void aFlushedScriptCacheIsReloadedAndTheCallSucceeds() {
    await(store.put(timer("s1", 100)));
    assertThat(redis.command("SCRIPT", "FLUSH")).isEqualTo("+OK");
    await(store.put(timer("s2", 200)));
    assertThat(await(store.get("s2")).nextDueAt()).isEqualTo(200);
    assertThat(await(store.remove("s1"))).isTrue();
  }

  @Test
  void openFailsWithStoreUnavailableWhenNothingListens() {
    int port = RedisServerProcess.freePort(false);
    long t0 = System.nanoTime();
    Throwable e = failure(RedisTimerStore.open(vertx, new RedisStoreOptions()
        .setConnectionString("redis://127.0.0.1:" + port).setConnectTimeoutMs(500)));
    assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("127.0.0.1:" + port);
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000L);
  }
}
