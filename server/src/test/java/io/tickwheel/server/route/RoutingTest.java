package io.tickwheel.server.route;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.server.route.ClusterFixture.Node;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.Limits;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Any node answers every call alike: three in-process nodes over one {@link io.tickwheel.core.coordination.memory.MemoryCoordinator}
 * (8 partitions, partition p served by node p % 3), real HTTP between them. Every answer a client reads is validated
 * against the served OpenAPI document.
 */
class RoutingTest {

  static final int P = 8;
  ClusterFixture cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  HttpResponse<Buffer> send(Node n, HttpMethod m, String uri, String body) {
    var req = n.client.request(m, uri);
    HttpResponse<Buffer> r = TestVertx.await(body == null ? req.send()
        : req.putHeader("content-type", "application/json").sendBuffer(Buffer.buffer(body)));
    return OpenApiValidator.served().validate(m, uri, r);
  }

  /** Sends the same call to every node in turn; returns the answers in node order. */
  List<HttpResponse<Buffer>> everyNode(HttpMethod m, String uri) {
    List<HttpResponse<Buffer>> out = new ArrayList<>();
    for (Node n : cluster.nodes) {
      out.add(send(n, m, uri, null));
    }
    return out;
  }

  static void sameAnswer(List<HttpResponse<Buffer>> answers, int status) {
    for (HttpResponse<Buffer> r : answers) {
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
      assertThat(r.bodyAsString()).isEqualTo(answers.get(0).bodyAsString());
    }
  }

  @Test
  void createGetTouchPauseFireCancelOfEveryPartitionAnswerTheSameThroughEveryNode() {
    cluster = new ClusterFixture(3, P);
    for (int p = 0; p < P; p++) {
      String id = cluster.idIn(p, "t");
      Node owner = cluster.ownerOf(p);
      Node other = cluster.nodes.get((p + 1) % 3);
      Node third = cluster.nodes.get((p + 2) % 3);

      HttpResponse<Buffer> created = send(other, POST, "/v1/timers",
          "{\"id\":\"" + id + "\",\"topic\":\"tp\",\"delayMs\":600000,\"payload\":{\"n\":" + p + ",\"s\":\"é\\\"x\"}}");
      assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
      assertThat(created.getHeader("Location")).isEqualTo("/v1/timers/" + id);
      assertThat(created.bodyAsJsonObject().getJsonObject("payload")).isEqualTo(new JsonObject().put("n", p).put("s", "é\"x"));
      assertThat(created.bodyAsJsonObject().containsKey("generation")).as("no internal field leaks").isFalse();

      List<HttpResponse<Buffer>> got = everyNode(GET, "/v1/timers/" + id);
      sameAnswer(got, 200);
      assertThat(got.get(0).bodyAsString()).isEqualTo(created.bodyAsString());

      HttpResponse<Buffer> dup = send(third, POST, "/v1/timers", "{\"id\":\"" + id + "\",\"delayMs\":1}");
      HttpResponse<Buffer> dupAtOwner = send(owner, POST, "/v1/timers", "{\"id\":\"" + id + "\",\"delayMs\":1}");
      assertThat(dup.statusCode()).isEqualTo(409);
      assertThat(dup.bodyAsString()).isEqualTo(dupAtOwner.bodyAsString());

      HttpResponse<Buffer> touched = send(third, POST, "/v1/timers/" + id + "/touch", "{\"delayMs\":900000}");
      assertThat(touched.statusCode()).isEqualTo(200);
      assertThat(touched.bodyAsJsonObject().getLong("nextDueAt"))
          .isBetween(System.currentTimeMillis() + 890_000, System.currentTimeMillis() + 900_000);
      sameAnswer(everyNode(GET, "/v1/timers/" + id), 200);

      HttpResponse<Buffer> paused = send(other, POST, "/v1/timers/" + id + "/pause", null);
      assertThat(paused.statusCode()).isEqualTo(200);
      assertThat(paused.bodyAsJsonObject().getBoolean("paused")).isTrue();
      HttpResponse<Buffer> resumed = send(third, POST, "/v1/timers/" + id + "/resume", null);
      assertThat(resumed.bodyAsJsonObject().containsKey("paused")).isFalse();

      HttpResponse<Buffer> replaced = send(third, PUT, "/v1/timers/" + id,
          "{\"kind\":\"fixed-rate\",\"periodMs\":60000,\"jitterMs\":5000,\"misfire\":\"skip\"}");
      assertThat(replaced.statusCode()).as(replaced.bodyAsString()).isEqualTo(200);
      assertThat(replaced.bodyAsJsonObject().getJsonArray("upcoming")).hasSize(5);
      List<HttpResponse<Buffer>> again = everyNode(GET, "/v1/timers/" + id);
      sameAnswer(again, 200);
      assertThat(again.get(0).bodyAsString()).as("the owner's timer, upcoming included").isEqualTo(replaced.bodyAsString());

      HttpResponse<Buffer> fired = send(other, POST, "/v1/timers/" + id + "/fire", null);
      assertThat(fired.statusCode()).isEqualTo(200);
      assertThat(fired.bodyAsJsonObject().getLong("firings")).isEqualTo(1);

      assertThat(send(third, DELETE, "/v1/timers/" + id, null).statusCode()).isEqualTo(204);
      sameAnswer(everyNode(GET, "/v1/timers/" + id), 404);
      assertThat(send(other, DELETE, "/v1/timers/" + id, null).statusCode()).isEqualTo(404);
      assertThat(send(other, POST, "/v1/timers/" + id + "/touch", null).statusCode()).isEqualTo(404);
    }
    Node n0 = cluster.nodes.get(0);
    assertThat(n0.routeMetrics.count("forwarded")).isGreaterThan(0);
    assertThat(n0.routeMetrics.count("local")).isGreaterThan(0);
    assertThat(n0.metrics.scrape()).contains("tickwheel_routed_calls_total{outcome=\"forwarded\"}")
        .contains("tickwheel_forward_seconds_count");
  }

  @Test
  void aServerGeneratedIdLandsInItsPartitionAndIsFoundThroughEveryNode() {
    cluster = new ClusterFixture(3, P);
    Set<Integer> partitions = new HashSet<>();
    for (int i = 0; i < 24; i++) {
      HttpResponse<Buffer> created = send(cluster.nodes.get(i % 3), POST, "/v1/timers", "{\"delayMs\":600000}");
      assertThat(created.statusCode()).isEqualTo(201);
      String id = created.bodyAsJsonObject().getString("id");
      partitions.add(Partitions.of(id, P));
      sameAnswer(everyNode(GET, "/v1/timers/" + id), 200);
    }
    assertThat(partitions.size()).as("random ids spread over the partitions").isGreaterThan(3);
  }

  @Test
  void aBatchIsSplitByOwnerAndAnsweredInRequestOrder() {
    cluster = new ClusterFixture(3, P);
    JsonArray timers = new JsonArray();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ids.add("b-" + i);
      timers.add(new JsonObject().put("id", "b-" + i).put("delayMs", 600_000 + i));
    }
    timers.add(new JsonObject().put("id", "b-3").put("delayMs", 5));          // 40: exists → 409 at its owner
    timers.add(new JsonObject().put("id", "bad id").put("delayMs", 5));       // 41: invalid → 400 at the edge
    timers.add(new JsonObject().put("delayMs", 600_000));                      // 42: server-generated id
    HttpResponse<Buffer> first = send(cluster.nodes.get(1), POST, "/v1/timers/batch",
        new JsonObject().put("timers", new JsonArray(timers.getList().subList(0, 40))).encode());
    assertThat(first.statusCode()).isEqualTo(200);
    JsonArray r1 = first.bodyAsJsonObject().getJsonArray("results");
    for (int i = 0; i < 40; i++) {
      assertThat(r1.getJsonObject(i).getInteger("status")).isEqualTo(201);
      assertThat(r1.getJsonObject(i).getJsonObject("timer").getString("id")).isEqualTo("b-" + i);
      assertThat(r1.getJsonObject(i).getJsonObject("timer").containsKey("generation")).isFalse();
    }
    HttpResponse<Buffer> second = send(cluster.nodes.get(2), POST, "/v1/timers/batch",
        new JsonObject().put("timers", new JsonArray().add(timers.getValue(40)).add(timers.getValue(41))
            .add(timers.getValue(42))).encode());
    JsonArray r2 = second.bodyAsJsonObject().getJsonArray("results");
    assertThat(r2.getJsonObject(0).getInteger("status")).isEqualTo(409);
    assertThat(r2.getJsonObject(0).getJsonObject("error").getString("code")).isEqualTo("already_exists");
    assertThat(r2.getJsonObject(1).getInteger("status")).isEqualTo(400);
    assertThat(r2.getJsonObject(2).getInteger("status")).isEqualTo(201);
    for (String id : ids) {
      sameAnswer(everyNode(GET, "/v1/timers/" + id), 200);
    }

    JsonArray touch = new JsonArray();
    ids.forEach(touch::add);
    touch.add("nobody").add("b-7");
    HttpResponse<Buffer> touched = send(cluster.nodes.get(0), POST, "/v1/timers/touch",
        new JsonObject().put("ids", touch).put("delayMs", 700_000).encode());
    JsonArray rt = touched.bodyAsJsonObject().getJsonArray("results");
    assertThat(rt).hasSize(42);
    long now = System.currentTimeMillis();
    for (int i = 0; i < 40; i++) {
      JsonObject item = rt.getJsonObject(i);
      assertThat(item.getString("id")).isEqualTo("b-" + i);
      assertThat(item.getInteger("status")).isEqualTo(200);
      assertThat(item.getLong("nextDueAt")).isBetween(now + 690_000, now + 700_000);
      assertThat(item.containsKey("timer")).as("no internal field leaks").isFalse();
    }
    assertThat(rt.getJsonObject(40).getInteger("status")).isEqualTo(404);
    assertThat(rt.getJsonObject(41).getLong("nextDueAt")).isEqualTo(rt.getJsonObject(7).getLong("nextDueAt"));
    // every partition's sub-batch went to its own owner: each node served its own share locally
    for (Node n : cluster.nodes) {
      assertThat(n.routeMetrics.count("local")).isGreaterThan(0);
    }
  }

  @Test
  void aFullBatchNearTheBodyLimitIsCreatedAcrossOwners() {
    cluster = new ClusterFixture(2, 2);
    String payload = "p".repeat(54);
    StringBuilder sb = new StringBuilder("{\"timers\":[");
    for (int i = 0; i < 10_000; i++) {
      sb.append(i > 0 ? "," : "").append("{\"id\":\"full-").append(i).append("\",\"delayMs\":600000,\"payload\":\"")
          .append(payload).append("\"}");
    }
    String body = sb.append("]}").toString();
    assertThat(body.length()).as("a client body just under 1 MiB").isBetween(950_000, 1_048_576);
    HttpResponse<Buffer> r = send(cluster.nodes.get(0), POST, "/v1/timers/batch", body);
    assertThat(r.statusCode()).isEqualTo(200);
    JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < results.size(); i++) {
      assertThat(results.getJsonObject(i).getInteger("status")).as(results.getJsonObject(i).encode()).isEqualTo(201);
      ids.add(results.getJsonObject(i).getJsonObject("timer").getString("id"));
    }
    assertThat(ids).hasSize(10_000);
    assertThat(send(cluster.nodes.get(1), GET, "/v1/topics?topic=default", null).bodyAsJsonObject()
        .getJsonArray("topics").getJsonObject(0).getLong("pending")).isEqualTo(10_000);
    assertThat(cluster.nodes.get(0).routeMetrics.count("forwarded")).isGreaterThan(4_000);
  }

  @Test
  void timersWithoutAnIdGetIdsOfPartitionsTheReceivingNodeServesSoNoneIsForwarded() {
    cluster = new ClusterFixture(3, P);
    StringBuilder sb = new StringBuilder("{\"timers\":[");
    for (int i = 0; i < 2_000; i++) {
      sb.append(i > 0 ? "," : "").append("{\"delayMs\":600000}");
    }
    Node n0 = cluster.nodes.get(0);
    HttpResponse<Buffer> r = send(n0, POST, "/v1/timers/batch", sb.append("]}").toString());
    assertThat(r.statusCode()).isEqualTo(200);
    JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < results.size(); i++) {
      assertThat(results.getJsonObject(i).getInteger("status")).isEqualTo(201);
      ids.add(results.getJsonObject(i).getJsonObject("timer").getString("id"));
    }
    for (int i = 0; i < 100; i++) {
      HttpResponse<Buffer> one = send(n0, POST, "/v1/timers", "{\"delayMs\":600000}");
      assertThat(one.statusCode()).isEqualTo(201);
      ids.add(one.bodyAsJsonObject().getString("id"));
    }
    assertThat(ids).hasSize(2_100);
    assertThat(n0.routeMetrics.count("forwarded")).isZero();
    assertThat(n0.routeMetrics.count("local")).isEqualTo(2_100);
    assertThat(send(cluster.nodes.get(1), GET, "/v1/topics?topic=default", null).bodyAsJsonObject()
        .getJsonArray("topics").getJsonObject(0).getLong("pending")).isEqualTo(2_100);
  }

  @Test
  void theListingMergesEveryPartitionInDueOrderAndItsCursorWorksOnAnyNode() {
    cluster = new ClusterFixture(3, P);
    long base = System.currentTimeMillis() + 3_600_000;
    JsonArray timers = new JsonArray();
    for (int i = 0; i < 53; i++) {
      // due times collide in threes, so the id breaks ties across partitions
      timers.add(new JsonObject().put("id", "l-" + i).put("at", base + (i / 3) * 1000L)
          .put("topic", i % 2 == 0 ? "even" : "odd"));
    }
    assertThat(send(cluster.nodes.get(0), POST, "/v1/timers/batch", new JsonObject().put("timers", timers).encode())
        .statusCode()).isEqualTo(200);
    List<JsonObject> all = new ArrayList<>();
    String cursor = null;
    int page = 0;
    do {
      Node n = cluster.nodes.get(page++ % 3);
      String uri = "/v1/timers?limit=7" + (cursor == null ? "" : "&cursor=" + cursor);
      HttpResponse<Buffer> r = send(n, GET, uri, null);
      assertThat(r.statusCode()).isEqualTo(200);
      for (HttpResponse<Buffer> same : everyNode(GET, uri)) {
        assertThat(same.bodyAsString()).as("page %d on every node", page).isEqualTo(r.bodyAsString());
      }
      r.bodyAsJsonObject().getJsonArray("timers").forEach(t -> all.add((JsonObject) t));
      cursor = r.bodyAsJsonObject().getString("next");
    } while (cursor != null);
    List<JsonObject> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.<JsonObject>comparingLong(t -> t.getLong("nextDueAt")).thenComparing(t -> t.getString("id")));
    assertThat(all).hasSize(53).isEqualTo(sorted);
    assertThat(all.stream().map(t -> t.getString("id")).distinct().count()).isEqualTo(53);

    HttpResponse<Buffer> odd = send(cluster.nodes.get(2), GET, "/v1/timers?topic=odd&limit=1000", null);
    JsonArray oddTimers = odd.bodyAsJsonObject().getJsonArray("timers");
    assertThat(oddTimers).hasSize(26);
    oddTimers.forEach(t -> assertThat(((JsonObject) t).getString("topic")).isEqualTo("odd"));
    assertThat(odd.bodyAsJsonObject().getValue("next")).isNull();
  }

  @Test
  void topicsAreCountedOverEveryNodeAndAPauseReachesEveryNodesPartitions() throws Exception {
    cluster = new ClusterFixture(3, P);
    JsonArray timers = new JsonArray();
    for (int i = 0; i < 30; i++) {
      timers.add(new JsonObject().put("id", "tp-" + i).put("delayMs", 600_000).put("topic", i < 20 ? "alpha" : "beta"));
    }
    send(cluster.nodes.get(0), POST, "/v1/timers/batch", new JsonObject().put("timers", timers).encode());
    List<HttpResponse<Buffer>> listed = everyNode(GET, "/v1/topics");
    sameAnswer(listed, 200);
    assertThat(listed.get(0).bodyAsJsonObject().getJsonArray("topics")).containsExactly(
        new JsonObject().put("topic", "alpha").put("pending", 20).put("paused", false),
        new JsonObject().put("topic", "beta").put("pending", 10).put("paused", false));
    HttpResponse<Buffer> page = send(cluster.nodes.get(1), GET, "/v1/topics?limit=1", null);
    assertThat(page.bodyAsJsonObject().getString("next")).isEqualTo("alpha");
    assertThat(send(cluster.nodes.get(2), GET, "/v1/topics?after=alpha", null).bodyAsJsonObject()
        .getJsonArray("topics")).containsExactly(new JsonObject().put("topic", "beta").put("pending", 10).put("paused", false));

    // a timer of alpha due soon, in a partition node 2 serves; the pause is sent to node 1
    String soon = cluster.idIn(2, "soon");
    HttpResponse<Buffer> paused = send(cluster.nodes.get(1), POST, "/v1/topics/alpha/pause", null);
    assertThat(paused.bodyAsJsonObject()).isEqualTo(new JsonObject().put("topic", "alpha").put("pending", 20).put("paused", true));
    assertThat(send(cluster.nodes.get(0), POST, "/v1/timers", "{\"id\":\"" + soon + "\",\"topic\":\"alpha\",\"delayMs\":20}")
        .statusCode()).isEqualTo(201);
    for (Node n : cluster.nodes) {
      // every partition scheduler of every node applies the cluster's set (the broadcast "t")
      n.on(() -> {
        return Future.all(n.schedulers.stream().map(s -> s.topicInfo("alpha").onSuccess(o -> assertThat(
            ((ReadOutcome.Topics) o).topics().get(0).paused()).as(n.id).isTrue())).toList()).mapEmpty();
      });
    }
    sameAnswer(everyNode(GET, "/v1/topics?topic=alpha"), 200);
    // a negative check, so time is what it checks: for 300 ms past its due time the paused timer has not fired
    Awaitility.await("held back by the pause").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
        .until(() -> send(cluster.nodes.get(0), GET, "/v1/timers/" + soon, null).bodyAsJsonObject()
            .getLong("firings") == 0);

    HttpResponse<Buffer> resumed = send(cluster.nodes.get(0), POST, "/v1/topics/alpha/resume", null);
    assertThat(resumed.bodyAsJsonObject().getBoolean("paused")).isFalse();
    int status = Awaitility.await("the resumed timer fired").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> send(cluster.nodes.get(1), GET, "/v1/timers/" + soon, null).statusCode(), st -> st != 200);
    assertThat(status).as("fired once resumed (a once timer then ends)").isEqualTo(404);
  }

  @Test
  void aForwardedCallToANodeThatLostThePartitionIs503WithRetryAfterAndNeverForwardedAgain() {
    cluster = new ClusterFixture(3, P);
    int p = 1;                                   // served by node 1
    Node a = cluster.nodes.get(0);
    Node b = cluster.nodes.get(1);
    // b lost p and thinks a has it now; a still thinks b has it: a call would ping-pong if forwards were forwarded
    b.on(() -> {
      b.owners.local[p] = null;
      b.owners.owner[p] = a.url();
      return Future.succeededFuture();
    });
    String id = cluster.idIn(p, "lost");
    HttpResponse<Buffer> r = send(a, PUT, "/v1/timers/" + id, "{\"delayMs\":1000}");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.getHeader("Retry-After")).isEqualTo("1");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("message"))
        .isEqualTo("partition 1 is not served by this node (its owner changed; the call was not applied); retry shortly");
    // a routed it again after each of its waits; b answered each at once and never forwarded one
    int tries = 1 + RoutedTimers.REROUTE_DELAYS_MS.length;
    assertThat(a.routeMetrics.count("rerouted")).isEqualTo(tries - 1);
    assertThat(b.routeMetrics.count("not_owner")).isEqualTo(tries);
    assertThat(b.routeMetrics.count("forwarded")).isZero();
    assertThat(a.routeMetrics.count("forwarded")).isEqualTo(tries);
    // sent straight to b, a client gets the same: b forwards it to a
    assertThat(send(b, GET, "/v1/timers/" + id, null).statusCode()).isEqualTo(503);
    assertThat(a.routeMetrics.count("not_owner")).isEqualTo(tries);
    assertThat(a.routeMetrics.count("rerouted")).as("a answered b's forwards at once").isEqualTo(tries - 1);
  }

  /**
   * Sends {@code call} through node 0 while partition 1 (node 1's) has no live owner in node 0's view, and gives it its
   * owner back once node 0 has refused the call and waits to route it again; returns the answer.
   */
  HttpResponse<Buffer> sentBetweenOwners(Function<Node, Future<HttpResponse<Buffer>>> call) {
    int p = 1;
    Node a = cluster.nodes.get(0);
    String owner = a.on(() -> Future.succeededFuture(a.owners.owner[p]));
    setOwner(a, p, null);                        // a take-over under way: no live owner yet
    Future<HttpResponse<Buffer>> answer = call.apply(a);
    Awaitility.await("refused once and waiting").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> a.routeMetrics.count("rerouted") >= 1);
    setOwner(a, p, owner);                       // the partition has its owner again
    return TestVertx.await(answer);
  }

  static void setOwner(Node n, int p, String address) {
    n.on(() -> {
      n.owners.owner[p] = address;
      return Future.succeededFuture();
    });
  }

  @Test
  void aSingleCallWhosePartitionIsBetweenOwnersWaitsForItsNewOwnerRatherThanBeing503() {
    cluster = new ClusterFixture(3, P);
    String id = cluster.idIn(1, "moving");
    HttpResponse<Buffer> r = sentBetweenOwners(a -> a.client.request(PUT, "/v1/timers/" + id)
        .putHeader("content-type", "application/json").sendBuffer(Buffer.buffer("{\"delayMs\":60000}")));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    Node a = cluster.nodes.get(0);
    assertThat(a.routeMetrics.count("no_owner")).isPositive();
    assertThat(a.routeMetrics.count("forwarded")).isEqualTo(1);
    assertThat(send(cluster.nodes.get(2), GET, "/v1/timers/" + id, null).statusCode()).isEqualTo(200);
  }

  @Test
  void aBatchsItemsWhosePartitionIsBetweenOwnersWaitForItsNewOwnerTheOthersAreWrittenAtOnce() {
    cluster = new ClusterFixture(3, P);
    String moving = cluster.idIn(1, "moving");
    String staying = cluster.idIn(2, "staying");
    HttpResponse<Buffer> r = sentBetweenOwners(a -> {
      var batch = a.client.request(POST, "/v1/timers/batch").putHeader("content-type", "application/json")
          .sendBuffer(Buffer.buffer("{\"timers\":[{\"id\":\"" + moving + "\",\"delayMs\":60000},{\"id\":\""
              + staying + "\",\"delayMs\":60000}]}"));
      Awaitility.await("the item of a partition with an owner written without waiting").atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> send(cluster.nodes.get(2), GET, "/v1/timers/" + staying, null).statusCode() == 200);
      return batch;
    });
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonArray("results").stream()
        .map(o -> ((JsonObject) o).getInteger("status")).toList()).as(r.bodyAsString()).containsExactly(201, 201);
    assertThat(send(cluster.nodes.get(2), GET, "/v1/timers/" + moving, null).statusCode()).isEqualTo(200);
  }

  @Test
  void aCallForwardedToANodeThatNoLongerOwnsItsPartitionMakesTheEntryNodeReadItsViewAgainAndLands() {
    cluster = new ClusterFixture(3, P);
    int p = 1;
    String id = cluster.idIn(p, "moved");
    Node a = cluster.nodes.get(0);
    String owner = a.on(() -> Future.succeededFuture(a.owners.owner[p]));
    setOwner(a, p, cluster.nodes.get(2).owners.owner[2]);   // a stale view: node 2 (which refuses it) owns p
    a.on(() -> {
      a.owners.onRefused = q -> a.owners.owner[q] = owner;  // reading the view again finds the real owner
      return Future.succeededFuture();
    });
    HttpResponse<Buffer> r = send(a, PUT, "/v1/timers/" + id, "{\"delayMs\":60000}");
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    assertThat(a.<List<Integer>>on(() -> Future.succeededFuture(List.copyOf(a.owners.refused)))).containsExactly(p);
    assertThat(send(cluster.nodes.get(1), GET, "/v1/timers/" + id, null).statusCode()).isEqualTo(200);
  }

  @Test
  void aWriteFencedBecauseTheLeaseMovedIs503NotOwner() {
    cluster = new ClusterFixture(3, P);
    int p = 2;
    Node owner = cluster.ownerOf(p);
    Lease l = cluster.lease(p);
    TestVertx.await(cluster.coordinator.release(p, l.nodeId(), l.epoch()));
    HttpResponse<Buffer> r = send(cluster.nodes.get(0), POST, "/v1/timers",
        "{\"id\":\"" + cluster.idIn(p, "fenced") + "\",\"delayMs\":1000}");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.getHeader("Retry-After")).isEqualTo("1");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("partition 2 is not served");
    assertThat(owner.id).isEqualTo(l.nodeId());
  }

  @Test
  void singleCreatesAndTouchesForwardedInOneTurnGoAsOneBatchCallPerOwnerAndKindEachWithItsOwnOutcome() {
    cluster = new ClusterFixture(3, P);
    Node a = cluster.nodes.get(0);
    TimerParser parser = new TimerParser(Limits.defaults(10), true);
    long now = System.currentTimeMillis();
    // partitions 1 and 2 are served by nodes 1 and 2: 300 creates each, one id twice, then touches in the same turn
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < 300; k++) {
      ids.add(cluster.idIn(1, "b" + k));
      ids.add(cluster.idIn(2, "c" + k));
    }
    String twice = ids.get(0);
    String missing = cluster.idIn(2, "never-created");
    long sent0 = a.routeMetrics.forwardRequests();
    List<WriteOutcome> created = new ArrayList<>();
    List<WriteOutcome> touched = new ArrayList<>();
    a.on(() -> {
      List<Future<WriteOutcome>> cs = new ArrayList<>();
      for (String id : ids) {
        cs.add(a.timers.create(parser.parse(new JsonObject().put("id", id).put("delayMs", 3_600_000), now)));
      }
      cs.add(a.timers.create(parser.parse(new JsonObject().put("id", twice).put("delayMs", 3_600_000), now)));
      return Future.join(cs).map(v -> {
        cs.forEach(f -> created.add(f.result()));
        return null;
      });
    });
    a.on(() -> {
      List<Future<WriteOutcome>> ts = new ArrayList<>();
      ts.add(a.timers.touch(ids.get(1), 60_000L));
      ts.add(a.timers.touch(ids.get(2), null));
      ts.add(a.timers.touch(missing, null));
      return Future.join(ts).map(v -> {
        ts.forEach(f -> touched.add(f.result()));
        return null;
      });
    });
    assertThat(created).hasSize(601);
    for (int k = 0; k < 600; k++) {
      assertThat(created.get(k)).as(ids.get(k)).isInstanceOf(WriteOutcome.Created.class);
      assertThat(((WriteOutcome.Created) created.get(k)).timer().id()).isEqualTo(ids.get(k));
    }
    assertThat(created.get(600)).isEqualTo(new Refusal.Conflict(twice));
    assertThat(touched.get(0)).isInstanceOf(WriteOutcome.Touched.class);
    assertThat(((WriteOutcome.Touched) touched.get(0)).timer().id()).isEqualTo(ids.get(1));
    assertThat(touched.get(1)).isInstanceOf(WriteOutcome.Touched.class);
    assertThat(touched.get(2)).isEqualTo(new Refusal.NotFound(missing));
    // creates: one request per owner (601 calls); touches: one per owner and override (node 2 with 60 s, node 1
    // without, node 2 without)
    assertThat(a.routeMetrics.forwardRequests() - sent0).isEqualTo(2 + 3);
    assertThat(a.routeMetrics.count("forwarded")).isEqualTo(604);
    // each created timer is where its partition's owner keeps it, as if created by a single call
    HttpResponse<Buffer> got = send(cluster.nodes.get(2), GET, "/v1/timers/" + ids.get(1), null);
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.bodyAsJsonObject().getLong("nextDueAt")).isGreaterThanOrEqualTo(now + 59_000).isLessThan(now + 3_600_000);
  }

  @Test
  void singleCreatesWithLargePayloadsForwardedInOneTurnAreSplitUnderTheOwnersBodyLimit() {
    cluster = new ClusterFixture(2, 4);
    Node a = cluster.nodes.get(0);
    TimerParser parser = new TimerParser(Limits.defaults(10), true);
    long now = System.currentTimeMillis();
    // 40 creates of 60 KiB each (2.4 MiB together) for node 1's partition 1: one batch would pass its 1 MiB limit
    String payload = "x".repeat(60 * 1024);
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      ids.add(cluster.idIn(1, "big" + k));
    }
    long sent0 = a.routeMetrics.forwardRequests();
    List<WriteOutcome> created = a.on(() -> {
      List<Future<WriteOutcome>> cs = new ArrayList<>();
      for (String id : ids) {
        cs.add(a.timers.create(parser.parse(new JsonObject().put("id", id).put("delayMs", 3_600_000)
            .put("payload", new JsonObject().put("blob", payload)), now)));
      }
      return Future.join(cs).map(v -> cs.stream().map(Future::result).toList());
    });
    for (int k = 0; k < ids.size(); k++) {
      assertThat(created.get(k)).as(ids.get(k)).isInstanceOf(WriteOutcome.Created.class);
    }
    assertThat(a.routeMetrics.forwardRequests() - sent0).as("split by bytes, not one request per call")
        .isBetween(3L, 10L);
  }

  @Test
  void anOwnerThatDoesNotAnswerInTimeIs503AndTheCapOfForwardsInFlightIs503AtOnce() throws Exception {
    cluster = new ClusterFixture(2, 4, RouteOptions.defaults().withTimeoutMs(400).withMaxInFlight(1));
    // a black hole: accepts connections, reads, never answers
    var hole = TestVertx.await(cluster.vertx.createNetServer().connectHandler(so -> so.handler(b -> { }))
        .listen(0, "127.0.0.1"));
    Node a = cluster.nodes.get(0);
    a.on(() -> {
      a.owners.owner[1] = "http://127.0.0.1:" + hole.actualPort();
      return Future.succeededFuture();
    });
    String id = cluster.idIn(1, "slow");
    long t0 = System.nanoTime();
    var slow = a.client.request(PUT, "/v1/timers/" + id).putHeader("content-type", "application/json")
        .sendBuffer(Buffer.buffer("{\"delayMs\":1000}"));
    Awaitility.await("the slow call forwarded").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> a.on(() -> Future.succeededFuture(a.forwarder.inFlight())) == 1);
    HttpResponse<Buffer> full = send(a, GET, "/v1/timers/" + cluster.idIn(1, "other"), null);
    assertThat(full.statusCode()).isEqualTo(503);
    assertThat(full.getHeader("Retry-After")).isEqualTo("1");
    assertThat(full.bodyAsJsonObject().getJsonObject("error").getString("message"))
        .contains("maximum of 1 forwarded calls in flight");
    HttpResponse<Buffer> timedOut = TestVertx.await(slow);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(timedOut.statusCode()).isEqualTo(503);
    assertThat(timedOut.getHeader("Retry-After")).isEqualTo("1");
    // the hole never answered the call socket's upgrade: the call was never sent, so it was not applied
    assertThat(timedOut.bodyAsJsonObject().getJsonObject("error").getString("message"))
        .contains("did not answer within 400 ms").doesNotContain("may have been applied");
    assertThat(ms).as("answered after the timeout, not hung").isBetween(390L, 10_000L);
    assertThat(a.routeMetrics.count("timeout")).isEqualTo(1);
    assertThat(a.routeMetrics.count("full")).isEqualTo(1);
    assertThat(a.on(() -> Future.succeededFuture(a.forwarder.inFlight()))).isZero();
    // a partition nobody holds: 503 at once
    a.on(() -> {
      a.owners.owner[1] = null;
      return Future.succeededFuture();
    });
    HttpResponse<Buffer> none = send(a, GET, "/v1/timers/" + id, null);
    assertThat(none.statusCode()).isEqualTo(503);
    assertThat(none.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("no live node holds partition 1");
    TestVertx.await(hole.close());
  }

  @Test
  void webSocketCommandsForEveryPartitionAreRoutedAndAnsweredByRef() throws Exception {
    cluster = new ClusterFixture(3, P);
    Node n = cluster.nodes.get(0);
    WebSocketClient client = cluster.vertx.createWebSocketClient();
    LinkedBlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
    WebSocket ws = TestVertx.await(client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(n.port)
        .setURI("/v1/ws")).map(w -> {
          w.textMessageHandler(t -> messages.add(new JsonObject(t)));
          return w;
        }));
    int count = 60;
    for (int i = 0; i < count; i++) {
      ws.writeTextMessage(new JsonObject().put("op", "schedule").put("ref", "s" + i)
          .put("timer", new JsonObject().put("id", "w-" + i).put("delayMs", 600_000)).encode());
    }
    ws.writeTextMessage(new JsonObject().put("op", "touch").put("ref", "none").put("id", "nobody").encode());
    Map<String, JsonObject> byRef = new HashMap<>();
    while (byRef.size() < count + 1) {
      JsonObject m = messages.poll(30, TimeUnit.SECONDS);
      assertThat(m).isNotNull();
      assertThat(byRef.put(m.getString("ref"), m)).as("one result per ref").isNull();
    }
    for (int i = 0; i < count; i++) {
      JsonObject r = byRef.get("s" + i);
      assertThat(r.getInteger("status")).as(r.encode()).isEqualTo(201);
      assertThat(r.getJsonObject("timer").getString("id")).isEqualTo("w-" + i);
    }
    assertThat(byRef.get("none").getInteger("status")).isEqualTo(404);
    for (int i = 0; i < count; i += 7) {
      sameAnswer(everyNode(GET, "/v1/timers/w-" + i), 200);
    }
    for (int i = 0; i < count; i++) {
      ws.writeTextMessage(new JsonObject().put("op", "cancel").put("ref", "c" + i).put("id", "w-" + i).encode());
    }
    Set<String> cancelled = new HashSet<>();
    while (cancelled.size() < count) {
      JsonObject m = messages.poll(30, TimeUnit.SECONDS);
      assertThat(m.getInteger("status")).isEqualTo(204);
      cancelled.add(m.getString("ref"));
    }
    assertThat(n.routeMetrics.count("forwarded")).isGreaterThan(0);
    TestVertx.await(client.close());
  }
}
