package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.client.impl.ClientImpl;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client given both nodes of a settled two-node cluster (real jars on a private redis-server) sends every call
 * about one timer (put, get, pause, resume, fire, cancel; schedule and touch too) to the timer's owner: neither node
 * forwards any of them ({@code tickwheel_routed_calls_total{outcome="forwarded"}} stays absent or 0), and both
 * serve some of them locally.
 */
class OwnerRoutingIT {

  static final int PARTITIONS = 16;
  static final long LEASE_MS = 3000;

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  final List<ServerProcess> nodes = new ArrayList<>();
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
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
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(e.getCause());
    }
  }

  String get(String url) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  /** The node's count of routed calls with {@code outcome}, from its {@code /metrics} (0 when absent). */
  double routed(ServerProcess node, String outcome) throws Exception {
    Matcher m = Pattern.compile("(?m)^tickwheel_routed_calls_total\\{outcome=\"" + outcome + "\"\\} (\\S+)$")
        .matcher(get(node.baseUrl() + "/metrics"));
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /**
   * Waits until every node's view has both nodes and every partition owned where rendezvous hashing puts it over
   * them: no hand-over is under way or still to come, so a map read now stays right.
   */
  void awaitSettled() {
    String[] want = rendezvous(List.of("n0", "n1"), PARTITIONS);
    Awaitility.await("every view settled").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
          for (ServerProcess n : nodes) {
            JsonObject c = new JsonObject(get(n.baseUrl() + "/v1/cluster"));
            JsonArray owners = c.getJsonArray("owners");
            boolean settled = c.getJsonArray("nodes").size() == 2 && owners.size() == PARTITIONS;
            for (Object o : owners) {
              JsonObject owner = (JsonObject) o;
              settled &= owner.getString("node").equals(want[owner.getInteger("partition")]);
            }
            assertThat(settled).as("the view of %s: %s", n.baseUrl(), c.encode()).isTrue();
          }
        });
  }

  /** The server's rendezvous assignment of partitions to node ids, written out apart from the server's. */
  static String[] rendezvous(List<String> ids, int partitions) {
    long golden = 0x9E3779B97F4A7C15L;
    String[] out = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      long pk = fmix64(p + 1L) * golden;
      String best = null;
      long bestW = 0;
      for (String id : ids) {
        long w = fmix64(fnv(id) ^ pk);
        int c = best == null ? 1 : Long.compareUnsigned(w, bestW);
        if (c > 0 || c == 0 && id.compareTo(best) < 0) {
          best = id;
          bestW = w;
        }
      }
      out[p] = best;
    }
    return out;
  }

  static long fnv(String id) {
    long x = 0xcbf29ce484222325L;
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      x ^= b & 0xff;
      x *= 0x100000001b3L;
    }
    return fmix64(x);
  }

  static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  @Test
  void everyCallAboutOneTimerReachesItsOwnerDirectly() throws Exception {
    awaitSettled();
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoints(
        List.of(nodes.get(0).baseUrl(), nodes.get(1).baseUrl())));
    ClientImpl impl = (ClientImpl) client;
    assertThat(await(client.touch("warm-up").otherwise(-1L))).isEqualTo(-1L); // no such timer; reads the map
    Awaitility.await("the partition map read").atMost(Duration.ofSeconds(10)).until(impl::partitionMapLoaded);
    double[] forwardedBefore = new double[2];
    double[] localBefore = new double[2];
    for (int i = 0; i < 2; i++) {   // the warm-up went to the endpoint in use, which may have forwarded it
      forwardedBefore[i] = routed(nodes.get(i), "forwarded");
      localBefore[i] = routed(nodes.get(i), "local");
    }
    int n = 40;
    for (int i = 0; i < n; i++) {
      String id = "r-" + i;
      assertThat(await(client.put(TimerRequest.builder().id(id).topic("rt").delayMs(600_000).build())).id())
          .isEqualTo(id);
      assertThat(await(client.get(id)).id()).isEqualTo(id);
      assertThat(await(client.pause(id)).id()).isEqualTo(id);
      assertThat(await(client.resume(id)).id()).isEqualTo(id);
      assertThat(await(client.fire(id)).firings()).isEqualTo(1);
      assertThat(await(client.put(TimerRequest.builder().id(id).topic("rt").delayMs(500_000).build())).id())
          .isEqualTo(id);
      await(client.touch(id));
      await(client.cancel(id));
      assertThat(await(client.schedule(TimerRequest.builder().id(id).topic("rt").delayMs(600_000).build())).id())
          .isEqualTo(id);
      await(client.cancel(id));
    }
    for (int i = 0; i < 2; i++) {
      ServerProcess node = nodes.get(i);
      assertThat(routed(node, "forwarded")).as("calls %s forwarded", node.baseUrl()).isEqualTo(forwardedBefore[i]);
      assertThat(routed(node, "not_owner")).as("calls %s refused as not its own", node.baseUrl()).isZero();
      assertThat(routed(node, "local")).as("calls %s served", node.baseUrl()).isGreaterThan(localBefore[i] + 50);
    }
  }
}
