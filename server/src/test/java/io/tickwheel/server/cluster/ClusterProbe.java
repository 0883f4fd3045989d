package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What the cluster ITs ask of a running cluster of server jars on Redis: HTTP calls to a node, its view of the
 * cluster, waiting for the rendezvous spread, and the audit of the firing logs. The logs are read from Redis through
 * a coordinator that joined as a checker (every partition: the truth the streams are built on), not from the nodes.
 * Thread safe for the HTTP calls (the load threads share it).
 */
final class ClusterProbe {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final RedisClusterCoordinator checker;
  private final int partitions;
  private final String token;

  ClusterProbe(RedisClusterCoordinator checker, int partitions) {
    this(checker, partitions, null);
  }

  /** A probe whose HTTP calls carry {@code token} as a bearer token (null: none). */
  ClusterProbe(RedisClusterCoordinator checker, int partitions, String token) {
    this.checker = checker;
    this.partitions = partitions;
    this.token = token;
  }

  /** {@code method url} with a JSON {@code body} (or none), 5 s timeout. */
  HttpResponse<String> send(String url, String method, String body) throws Exception {
    return send(url, method, body, Duration.ofSeconds(5));
  }

  /** {@code method url} with a JSON {@code body} (or none), answered within {@code timeout}. */
  HttpResponse<String> send(String url, String method, String body, Duration timeout) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
        : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code GET /v1/cluster} of {@code via}, which must answer 200. */
  JsonObject cluster(ServerProcess via) throws Exception {
    HttpResponse<String> r = send(via.baseUrl() + "/v1/cluster", "GET", null);
    assertThat(r.statusCode()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  /**
   * Polls until the live nodes seen by {@code via} are exactly {@code ids} and every partition is owned by the node
   * rendezvous hashing gives it among {@code ids}; returns when (epoch ms).
   */
  long awaitOwners(ServerProcess via, Set<String> ids, long timeoutMs) {
    String[] want = Rendezvous.assign(new ArrayList<>(ids), partitions);
    await("partitions owned by " + ids + " in the view of " + via.baseUrl()).atMost(Duration.ofMillis(timeoutMs))
        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(25)).untilAsserted(() -> {
          JsonObject c = cluster(via);
          Set<String> seen = new HashSet<>();
          c.getJsonArray("nodes").forEach(n -> seen.add(((JsonObject) n).getString("id")));
          boolean spread = c.getJsonArray("owners").size() == partitions;
          for (Object o : c.getJsonArray("owners")) {
            JsonObject owner = (JsonObject) o;
            spread &= owner.getString("node").equals(want[owner.getInteger("partition")]);
          }
          assertThat(seen.equals(ids) && spread).as("view %s", c).isTrue();
        });
    return System.currentTimeMillis();
  }

  /** Every partition's firing log, by timer id. */
  Map<String, List<Firing>> firings() {
    return firings(IntStream.range(0, partitions).boxed().toList());
  }

  /** The firing logs of {@code which} partitions, by timer id. */
  Map<String, List<Firing>> firings(Collection<Integer> which) {
    Map<String, List<Firing>> out = new HashMap<>();
    for (int p : which) {
      for (Firing f : TestVertx.await(checker.partitionReader(p).readFirings(0, 1_000_000))) {
        out.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
      }
    }
    return out;
  }

  /**
   * Waits (until {@code waitUntil}, epoch ms) for every acknowledged timer ({@code acked}: id → its acknowledged due
   * time) to be in the logs, then asserts that there were some and that each fired exactly once, never before that
   * due time; prints the counts under {@code label}, followed by {@code more} (e.g. ", refused 3"). Returns the logs.
   */
  Map<String, List<Firing>> verifyFiredOnce(String label, Map<String, Long> acked, long waitUntil,
      String more) {
    try {
      await(label + ": every acknowledged timer in the firing logs")
          .atMost(Duration.ofMillis(Math.max(1, waitUntil - System.currentTimeMillis())))
          .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
          .until(() -> firings().keySet().containsAll(acked.keySet()));
    } catch (ConditionTimeoutException e) {
      // the counts below say what is missing
    }
    Map<String, List<Firing>> fired = firings();
    int duplicates = 0;
    int early = 0;
    int lost = 0;
    for (Map.Entry<String, Long> a : acked.entrySet()) {
      List<Firing> fs = fired.get(a.getKey());
      if (fs == null) {
        lost++;
        continue;
      }
      duplicates += fs.size() - 1;
      early += (int) fs.stream().filter(f -> f.firedAt() < a.getValue()).count();
    }
    String counts = "acknowledged " + acked.size() + ", fired " + fired.size() + ", duplicates " + duplicates
        + ", early " + early + ", lost " + lost + more;
    System.out.println(label + ": " + counts);
    assertThat(List.of(duplicates, early, lost)).as(counts).containsOnly(0);
    assertThat(acked).as(counts).isNotEmpty();
    return fired;
  }
}
