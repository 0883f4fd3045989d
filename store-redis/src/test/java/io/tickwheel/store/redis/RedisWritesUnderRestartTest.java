package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.eventually;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis going away while writes are in flight on the pipelined connection (kill -9, shutdown, killed client
 * connection) under a steady write load of creates (the HTTP create path's transaction) and puts (a script):
 * every failed call is a {@link StoreUnavailableException}, never another type (the server answers 503, not 500);
 * a write it reports as not applied is really absent, and every acknowledged write is there. Against a real
 * redis-server with {@code appendfsync always}.
 */
class RedisWritesUnderRestartTest {

  private static final int IN_FLIGHT = 48;

  private Vertx vertx;
  private RedisServerProcess redis;
  private RedisTimerStore store;

  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger outstanding = new AtomicInteger();
  private final Map<String, Throwable> failed = new ConcurrentHashMap<>();
  private final Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    redis = RedisServerProcess.startWithAof("always");
    // short command timeouts for calls cut by the faults; a connect (the first one does the whole handshake) may
    // take its time on a loaded machine: a restarted Redis refuses connections at once, it never waits on this bound
    store = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())
        .setCommandTimeoutMs(2000).setConnectTimeoutMs(10_000).setReconnectBackoffMs(20)
        .setMaxReconnectBackoffMs(100)));
  }

  @AfterEach
  void stop() {
    running.set(false);
    if (store != null) {
      await(store.close());
    }
    await(vertx.close());
    redis.close();
  }

  /** One write: creates (the HTTP create path's transaction) alternating with puts (a script). */
  private void write() {
    if (!running.get()) {
      return;
    }
    int n = next.incrementAndGet();
    String id = "w" + n;
    Timer t = timer(id, 1_000 + n);
    Future<Void> f = n % 2 == 0 ? store.createAll(List.of(t)) : store.put(t);
    outstanding.incrementAndGet();
    f.onComplete(ar -> {
      if (ar.succeeded()) {
        acknowledged.put(id, true);
      } else {
        failed.put(id, ar.cause());
      }
      outstanding.decrementAndGet();
      // a failed call while disconnected fails at once: pace those instead of spinning
      if (ar.failed()) {
        vertx.setTimer(2, x -> write());
      } else {
        write();
      }
    });
  }

  private void load() {
    running.set(true);
    CountDownLatch started = new CountDownLatch(1);
    vertx.runOnContext(v -> {
      for (int i = 0; i < IN_FLIGHT; i++) {
        write();
      }
      started.countDown();
    });
    try {
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private void stopLoad() {
    running.set(false);
    Awaitility.await("no call outstanding").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> outstanding.get() == 0);
  }

  /** Lets the load run until {@code count} more writes were acknowledged. */
  private void awaitAcknowledged(int count) {
    int target = acknowledged.size() + count;
    Awaitility.await(count + " more writes acknowledged").atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(5)).until(() -> acknowledged.size() >= target);
  }

  private String failureTypes() {
    return failed.values().stream()
        .map(e -> e.getClass().getSimpleName() + ": " + e.getMessage())
        .collect(Collectors.groupingBy(s -> s.replaceAll("\\d+", "N"), Collectors.counting()))
        .toString();
  }

  @Test
  void everyWriteThatFailsWhileRedisIsKilledOrRestartedIsUnavailableAndOneReportedNotAppliedIsAbsent() {
    load();
    for (int round = 0; round < 4; round++) {
      awaitAcknowledged(500);
      int failedBefore = failed.size();
      switch (round) {
        case 0, 2 -> redis.kill9();
        case 1 -> redis.shutdownNoSave();
        default -> assertThat(redis.command("CLIENT", "KILL", "TYPE", "normal")).startsWith(":");
      }
      if (!redis.isRunning()) {
        // writes fail while it is down before it comes back
        Awaitility.await("a write failed while Redis is down").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(5)).until(() -> failed.size() > failedBefore);
        redis.restart();
      }
      eventually(10_000, () -> store.get("none"));
    }
    awaitAcknowledged(500);
    stopLoad();

    List<Throwable> others = new ArrayList<>();
    List<String> notApplied = new ArrayList<>();
    int mayHaveApplied = 0;
    for (Map.Entry<String, Throwable> e : failed.entrySet()) {
      if (!(e.getValue() instanceof StoreUnavailableException u)) {
        others.add(e.getValue());
      } else if (u.mayHaveApplied()) {
        mayHaveApplied++;
      } else {
        notApplied.add(e.getKey());
      }
    }
    assertThat(others).as("failures other than StoreUnavailableException; all: " + failureTypes()).isEmpty();
    assertThat(mayHaveApplied).as("writes lost in flight (may have been applied); all: " + failureTypes())
        .isPositive();
    assertThat(notApplied).as("writes refused while disconnected").isNotEmpty();

    List<Future<Timer>> reads = new ArrayList<>();
    for (String id : notApplied) {
      reads.add(store.get(id));
    }
    await(Future.all(reads));
    List<String> present = new ArrayList<>();
    for (int i = 0; i < notApplied.size(); i++) {
      if (reads.get(i).result() != null) {
        present.add(notApplied.get(i));
      }
    }
    assertThat(present).as("writes reported as not applied that are stored after all").isEmpty();

    List<Future<Timer>> acked = new ArrayList<>();
    for (String id : acknowledged.keySet()) {
      acked.add(store.get(id));
    }
    await(Future.all(acked));
    assertThat(acked).as("acknowledged writes (appendfsync always)").allMatch(f -> f.result() != null);
  }
}
