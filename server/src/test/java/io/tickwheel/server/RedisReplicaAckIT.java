package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --redis-min-replicas-acked} on the shaded jar, against a private master and its replica: a create answered
 * 201 is on the replica; with the replica SIGSTOPped a create answers 503 after about the ack timeout (applied on the
 * master), and after SIGCONT creates succeed again; firings that came due meanwhile, and the timer of that 503
 * create, are pushed once each when the replica is back.
 */
class RedisReplicaAckIT {

  private static final String TOKEN = "ack-it-token";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path tmp;

  /** The jar on {@code master} with one replica acknowledgement required within 500 ms. */
  private ServerProcess start(RedisServerProcess master, String logs) {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--token", TOKEN, "--store", "redis", "--redis", master.uri(),
            "--redis-min-replicas-acked", "1", "--redis-replica-ack-timeout-ms", "2000") // 500 ms: CPU-starved replicas ran late
        .logs(tmp, logs).startAndAwaitListening(Duration.ofSeconds(60));
  }

  private HttpResponse<String> create(String base, String id) throws Exception {
    return send(base, id, "ack", 3_600_000);
  }

  @Test
  void aCreateIsAnsweredOnlyOnceTheReplicaHasItAnd503WhileTheReplicaIsStopped() throws Exception {
    try (RedisServerProcess master = RedisServerProcess.start();
        RedisServerProcess replica = RedisServerProcess.startReplicaOf(master);
        ServerProcess server = start(master, "ack")) {
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> r = create(server.baseUrl(), "t" + i);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(replica.command("HEXISTS", "{tw}:timers", "t" + i)).as("t" + i + " on the replica").isEqualTo(":1");
      }
      try {
        replica.pause();
        long t0 = System.nanoTime();
        HttpResponse<String> r = create(server.baseUrl(), "stopped");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
        assertThat(ms).isBetween(2_000L, 4_500L);
        assertThat(master.command("HEXISTS", "{tw}:timers", "stopped")).as("applied on the master").isEqualTo(":1");
      } finally {
        replica.resume();
      }
      replica.awaitReplicaInSync(master, 10_000);
      HttpResponse<String> again = create(server.baseUrl(), "again");
      assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
      assertThat(replica.command("HEXISTS", "{tw}:timers", "again")).isEqualTo(":1");
    }
  }

  @Test
  void whileTheReplicaIsStoppedFiringsAndA503CreateAreKeptAndPushedOnceWhenItIsBack() throws Exception {
    try (RedisServerProcess master = RedisServerProcess.start();
        RedisServerProcess replica = RedisServerProcess.startReplicaOf(master);
        ServerProcess server = start(master, "ack-fire")) {
      java.util.List<JsonObject> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      HttpRequest sse = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/events?topic=ackf"))
          .header("Authorization", "Bearer " + TOKEN).build();
      java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> stream =
          http.sendAsync(sse, HttpResponse.BodyHandlers.ofLines());
      HttpResponse<java.util.stream.Stream<String>> open = stream.get(10, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(open.statusCode()).isEqualTo(200);
      Thread reader = new Thread(() -> open.body().filter(l -> l.startsWith("data:"))
          .map(l -> new JsonObject(l.substring(5).trim())).filter(j -> "fired".equals(j.getString("type")))
          .forEach(got::add), "sse-reader");
      reader.setDaemon(true);
      reader.start();
      try {
        assertThat(send(server.baseUrl(), "due", "ackf", 1_500).statusCode()).isEqualTo(201);
        replica.pause();
        HttpResponse<String> lost = send(server.baseUrl(), "lost", "ackf", 1_000);
        assertThat(lost.statusCode()).as(lost.body()).isEqualTo(503);
        assertThat(lost.body()).contains("may have been applied");
        // a negative check, so time is what it checks: for 3 s both come due, their firings cannot be acknowledged by
        // the replica, and nothing is pushed that the replica does not have
        Awaitility.await("nothing pushed that the replica does not have").during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(4)).until(got::isEmpty);
      } finally {
        replica.resume();
      }
      Awaitility.await("both pushed once the replica is back").atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(20)).until(() -> got.size() >= 2);
      // a negative check, so time is what it checks: nothing more in the 500 ms after (each once)
      Awaitility.await("nothing more pushed").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
          .until(() -> got.size() == 2);
      assertThat(got).extracting(j -> j.getString("id")).containsExactlyInAnyOrder("due", "lost");
      assertThat(got.get(1).getLong("seq")).isGreaterThan(got.get(0).getLong("seq"));
      assertThat(replica.command("XLEN", "{tw}:log")).isEqualTo(":2");
    }
  }

  /** POST /v1/timers of timer {@code id} in {@code topic}, due {@code delayMs} from now. */
  private HttpResponse<String> send(String base, String id, String topic, long delayMs) throws Exception {
    HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/v1/timers")).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("id", id).put("topic", topic)
            .put("delayMs", delayMs).encode())).build();
    return http.send(post, HttpResponse.BodyHandlers.ofString());
  }
}
