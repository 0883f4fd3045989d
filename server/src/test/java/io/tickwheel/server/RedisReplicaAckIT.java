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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --redis-min-replicas-acked} on the shaded jar, against a private master and its replica: a create answered
 * 201 is on the replica; with the replica SIGSTOPped a create answers 503 after about the ack timeout (applied on the
 * master), and after SIGCONT creates succeed again.
 */
class RedisReplicaAckIT {

  private static final String TOKEN = "ack-it-token";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path tmp;

  private HttpResponse<String> create(String base, String id) throws Exception {
    HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/v1/timers")).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("id", id).put("topic", "ack")
            .put("delayMs", 3_600_000).encode())).build();
    return http.send(post, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aCreateIsAnsweredOnlyOnceTheReplicaHasItAnd503WhileTheReplicaIsStopped() throws Exception {
    try (RedisServerProcess master = RedisServerProcess.start();
        RedisServerProcess replica = RedisServerProcess.startReplicaOf(master);
        ServerProcess server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
            .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
            .args("--port", "0", "--token", TOKEN, "--store", "redis", "--redis", master.uri(),
                "--redis-min-replicas-acked", "1", "--redis-replica-ack-timeout-ms", "500")
            .logs(tmp, "ack").startAndAwaitListening(Duration.ofSeconds(60))) {
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
        assertThat(ms).isBetween(500L, 2_500L);
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
}
