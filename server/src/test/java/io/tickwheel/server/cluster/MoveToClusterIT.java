package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Moving to a cluster", run as written against real jars: a single node on the embedded RocksDB default
 * with pending timers of several kinds, its topics paused, then {@code curl export | curl import} into three cluster
 * nodes on a redis-server the test starts. Every pending timer then fires exactly once, on the new side, at its due
 * time (never early, within a window); the old server fires none of them; a paused timer stays paused; a periodic one
 * goes on counting its firings. Then an import with bad lines through another node: each reported by its number, the
 * others imported.
 */
class MoveToClusterIT {

  static final int P = 16;
  static final String TOKEN = "move-admin-0123456789";
  static final Duration START = Duration.ofSeconds(40);
  /** How late a firing on the new side may be: a tick plus scheduling noise on a loaded 2-core machine. */
  static final long LATE_MS = 1500;

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  ServerProcess old;
  final List<ServerProcess> nodes = new ArrayList<>();
  Vertx vertx;
  RedisClusterCoordinator checker;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @AfterEach
  void stop() {
    nodes.forEach(ServerProcess::close);
    if (old != null) {
      old.close();
    }
    if (checker != null) {
      TestVertx.await(checker.close());
    }
    if (vertx != null) {
      TestVertx.close(vertx);
    }
    if (redis != null) {
      redis.close();
    }
  }

  HttpResponse<String> send(String url, String method, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + TOKEN);
    b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
        : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  JsonObject json(String url, String method, String body, int status) throws Exception {
    HttpResponse<String> r = send(url, method, body);
    assertThat(r.statusCode()).as(method + " " + url + ": " + r.body()).isEqualTo(status);
    return new JsonObject(r.body());
  }

  /** Runs a shell pipeline, as a user would; returns its stdout (fails on a non-zero exit). */
  static String shell(String command, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", command).redirectErrorStream(false);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("`" + command + "`: " + err).isZero();
    return out;
  }

  static ServerProcess.Launcher jar() {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  }

  @Test
  void movingFromRocksDbToAThreeNodeRedisClusterFiresEveryPendingTimerOnceOnTheNewSideAtItsDueTime()
      throws Exception {
    // the old node and the three new ones start side by side (each JVM takes seconds on a busy machine)
    old = jar().args("--store", "rocksdb", "--data-dir", tmp.resolve("old-data").toString(), "--token", TOKEN,
        "--port", "0", "--host", "127.0.0.1").logs(tmp, "old").start();
    redis = RedisServerProcess.start();
    for (int i = 0; i < 3; i++) {
      nodes.add(jar().args("--store", "redis", "--redis", redis.uri(), "--cluster", "--node-id", "n" + i,
          "--partitions", "" + P, "--token", TOKEN, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).start());
    }
    old.awaitListening(START);
    nodes.forEach(n -> n.awaitListening(START));
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx,
        new RedisStoreOptions().setConnectionString(redis.uri())));
    TestVertx.await(checker.join("checker", "none", P));
    ClusterProbe probe = new ClusterProbe(checker, P, TOKEN);
    for (ServerProcess n : nodes) {   // every node's view has settled: no partition is still being taken over
      probe.awaitOwners(n, Set.of("n0", "n1", "n2"), 30_000);
    }

    // the old server: a periodic timer that has fired, a paused one, 300 once timers over two topics
    String o = old.baseUrl();
    json(o + "/v1/timers", "POST", "{\"id\":\"beat\",\"topic\":\"jobs\",\"kind\":\"fixed-rate\",\"periodMs\":1000,"
        + "\"maxFirings\":1000}", 201);
    long sleeperAt = System.currentTimeMillis() + 20_000;
    json(o + "/v1/timers", "POST", "{\"id\":\"sleeper\",\"topic\":\"jobs\",\"at\":" + sleeperAt + "}", 201);
    json(o + "/v1/timers/sleeper/pause", "POST", null, 200);
    await("the periodic timer fires on the old server").atMost(Duration.ofSeconds(10))
        .until(() -> json(o + "/v1/timers/beat", "GET", null, 200).getLong("firings") >= 2);
    long base = System.currentTimeMillis() + 8_000;
    Map<String, Long> due = new HashMap<>();
    JsonArray batch = new JsonArray();
    for (int i = 0; i < 300; i++) {
      String id = "move-" + i;
      long at = base + i * 10L;
      due.put(id, at);
      batch.add(new JsonObject().put("id", id).put("topic", i % 2 == 0 ? "orders" : "mail").put("at", at)
          .put("payload", new JsonObject().put("n", i)));
    }
    JsonObject created = json(o + "/v1/timers/batch", "POST", new JsonObject().put("timers", batch).encode(), 200);
    assertThat(created.getJsonArray("results").stream().allMatch(r -> ((JsonObject) r).getInteger("status") == 201))
        .isTrue();

    // the move, as the README gives it: pause the topics, export | import
    for (String topic : List.of("orders", "mail", "jobs")) {
      json(o + "/v1/topics/" + topic + "/pause", "POST", null, 200);
    }
    long beatFirings = json(o + "/v1/timers/beat", "GET", null, 200).getLong("firings");
    String report = shell("curl -sS --fail -H \"$ADMIN\" $OLD/v1/export | curl -sS --fail -H \"$ADMIN\" -XPOST "
        + "--data-binary @- $NEW/v1/import", Map.of("ADMIN", "Authorization: Bearer " + TOKEN, "OLD", o, "NEW",
        nodes.get(0).baseUrl()));
    long importedAt = System.currentTimeMillis();
    assertThat(importedAt).as("the move finished before the timers came due").isLessThan(base);
    assertThat(new JsonObject(report)).isEqualTo(new JsonObject().put("imported", 302).put("failed", 0)
        .put("errors", new JsonArray()));
    // the old server's firings are the beat's before the pause (the exported count), nothing else
    long oldBeat = json(o + "/v1/timers/beat", "GET", null, 200).getLong("firings");
    assertThat(oldBeat).isEqualTo(beatFirings);

    Map<String, List<Firing>> fired = probe.verifyFiredOnce("MoveToClusterIT", due, base + 3000 + 20_000, "");
    long worst = 0;
    for (Map.Entry<String, Long> d : due.entrySet()) {
      Firing f = fired.get(d.getKey()).get(0);
      assertThat(f.dueAt()).isEqualTo(d.getValue());
      assertThat(f.firing()).isEqualTo(1);
      worst = Math.max(worst, f.firedAt() - d.getValue());
    }
    System.out.println("MoveToClusterIT: 300 moved timers fired once on the cluster, the latest " + worst
        + " ms after its due time");
    assertThat(worst).isLessThanOrEqualTo(LATE_MS);
    // the periodic timer counts on from its exported firings; the paused one stays paused and silent
    await("the periodic timer fires on the cluster").atMost(Duration.ofSeconds(10))
        .until(() -> probe.firings().getOrDefault("beat", List.of()).size() >= 2);
    List<Firing> beat = probe.firings().get("beat");
    for (int k = 0; k < beat.size(); k++) {
      assertThat(beat.get(k).firing()).isEqualTo(beatFirings + 1 + k);
    }
    assertThat(probe.firings()).doesNotContainKey("sleeper");
    JsonObject sleeper = json(nodes.get(2).baseUrl() + "/v1/timers/sleeper", "GET", null, 200);
    assertThat(sleeper.getBoolean("paused")).isTrue();
    assertThat(sleeper.getLong("nextDueAt")).isEqualTo(sleeperAt);
    // none fired on the old server: all 300 are still pending there (a fired once timer is gone)
    for (String id : due.keySet()) {
      assertThat(send(o + "/v1/timers/" + id, "GET", null).statusCode()).as(id).isEqualTo(200);
    }

    // an import with bad lines through another node: each reported by number, the others imported
    long at = System.currentTimeMillis() + 600_000;
    String body = "{\"id\":\"later-1\",\"nextDueAt\":" + at + "}\n"
        + "{\"id\":\"later-2\",\"nextDueAt\":\"tomorrow\"}\n"
        + "{oops\n"
        + "{\"id\":\"later-3\",\"topic\":\"orders\",\"kind\":\"fixed-rate\",\"periodMs\":60000,\"nextDueAt\":" + at
        + ",\"firings\":5}\n";
    String bad = shell("printf '%s' \"$BODY\" | curl -sS --fail -H \"$ADMIN\" -H 'Content-Type: application/x-ndjson' "
        + "-XPOST --data-binary @- $NEW/v1/import", Map.of("BODY", body, "ADMIN", "Authorization: Bearer " + TOKEN,
        "NEW", nodes.get(1).baseUrl()));
    JsonObject r = new JsonObject(bad);
    assertThat(r.getLong("imported")).isEqualTo(2);
    assertThat(r.getLong("failed")).isEqualTo(2);
    assertThat(r.getJsonArray("errors").stream().map(e -> ((JsonObject) e).getLong("line")).toList())
        .containsExactly(2L, 3L);
    assertThat(r.getJsonArray("errors").getJsonObject(0).getJsonObject("error").getString("field"))
        .isEqualTo("nextDueAt");
    assertThat(json(nodes.get(2).baseUrl() + "/v1/timers/later-3", "GET", null, 200).getLong("firings"))
        .isEqualTo(5);
    assertThat(send(nodes.get(0).baseUrl() + "/v1/timers/later-2", "GET", null).statusCode()).isEqualTo(404);
    Set<String> exported = new java.util.HashSet<>();
    for (String line : send(nodes.get(1).baseUrl() + "/v1/export?topic=orders", "GET", null).body().split("\n")) {
      exported.add(new JsonObject(line).getString("id"));
    }
    assertThat(exported).containsExactly("later-3");    // the moved ones of "orders" have fired and are gone
  }
}
