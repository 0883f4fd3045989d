package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client given both nodes of a two-node cluster (real jars on a private redis-server): when the node in use is
 * killed with {@code kill -9}, schedules go to the other node and the subscription resumes there by its cursor, so
 * every acknowledged timer's firing reaches the handler exactly once.
 */
class ClientClusterIT {

  static final int PARTITIONS = 16;
  static final long LEASE_MS = 3000;

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  final List<ServerProcess> nodes = new ArrayList<>();
  Vertx vertx;
  TickwheelClient client;

  @BeforeEach
  void start() {
    redis = RedisServerProcess.start();
    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    for (int i = 0; i < 2; i++) {
      nodes.add(jar.args("--store", "redis", "--redis", redis.uri(), "--cluster", "--node-id", "n" + i,
          "--partitions", "" + PARTITIONS, "--lease-ms", "" + LEASE_MS, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).startAndAwaitListening(Duration.ofSeconds(60)));
    }
    vertx = Vertx.vertx();
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setReconnectInitialBackoffMs(50)
        .setReconnectMaxBackoffMs(500).setEndpoints(List.of(nodes.get(0).baseUrl(), nodes.get(1).baseUrl())));
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      await(client.close());
    }
    nodes.forEach(ServerProcess::close);
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    redis.close();
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /**
   * Schedules {@code id}, again (100 ms apart, for up to 20 s) while the cluster answers 503 (a partition changing
   * hands); fails on anything else.
   */
  void schedule(String id, long delayMs) {
    Awaitility.await("scheduling " + id).atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100)).until(() -> scheduled(id, delayMs));
  }

  /** Whether {@code id} was scheduled: false on a 503, which is retried; any other failure is thrown. */
  boolean scheduled(String id, long delayMs) throws Exception {
    try {
      await(client.schedule(TimerRequest.builder().id(id).topic("cit").delayMs(delayMs).build()));
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TickwheelException t && t.status() == 503) {
        return false;
      }
      throw e;
    }
  }

  @Test
  void afterAKillOfTheNodeInUseSchedulesGoToTheOtherAndEveryFiringReachesTheSubscriptionOnce() throws Exception {
    Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
    Subscription sub = client.subscribe(List.of("cit"), null,
        f -> got.computeIfAbsent(f.id(), k -> new AtomicInteger()).incrementAndGet());
    await(sub.subscribed());                                     // the subscription is live before the first firing
    for (int i = 0; i < 30; i++) {
      schedule("early-" + i, 300);
    }
    Awaitility.await("the early firings").atMost(Duration.ofSeconds(20)).until(() -> got.size() == 30);
    for (int i = 0; i < 30; i++) {
      schedule("late-" + i, 2_000);                              // due after the kill: half on n0's partitions
    }
    nodes.get(0).kill9();
    for (int i = 0; i < 30; i++) {
      schedule("after-" + i, 300);                               // through n1: n0 refuses connections now
    }
    Awaitility.await("all 90 firings").atMost(Duration.ofSeconds(40)).until(() -> got.size() == 90);
    // a negative check, so time is what it checks: no firing is handed out again for a second after the last one
    // (the streams of 16 partitions are merged, so no one later firing could prove the others will not repeat)
    Awaitility.await("no firing handed out twice").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
        .until(() -> got.size() == 90 && got.values().stream().allMatch(n -> n.get() == 1));
  }
}
