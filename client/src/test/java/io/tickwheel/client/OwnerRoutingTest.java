package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.client.impl.ClientImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client given a cluster's nodes reads the partition map ({@code GET /v1/cluster}) and sends each timer of a batch
 * create or touch to the node that owns its id; one endpoint reads no map.
 */
class OwnerRoutingTest {

  static final int PARTITIONS = 16;

  private Vertx vertx;
  private ScriptedServer a;
  private ScriptedServer b;
  private TickwheelClient client;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    a = new ScriptedServer(vertx);
    b = new ScriptedServer(vertx);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) {
      await(client.close());
    }
    a.close();
    b.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  /** The server's partition of an id (core's {@code Partitions.of}), written out independently of the client's. */
  static int partition(String id) {
    int h = id.hashCode();
    h = (h ^ (h >>> 16)) * 0x85ebca6b;
    h = (h ^ (h >>> 13)) * 0xc2b2ae35;
    h ^= h >>> 16;
    return (int) ((h & 0xffffffffL) % PARTITIONS);
  }

  /** A {@code GET /v1/cluster} body: even partitions on {@code even}, odd ones on {@code odd}. */
  static JsonObject map(String even, String odd) {
    JsonArray owners = new JsonArray();
    for (int p = 0; p < PARTITIONS; p++) {
      owners.add(new JsonObject().put("partition", p).put("node", p % 2 == 0 ? "e" : "o").put("epoch", 1));
    }
    return new JsonObject().put("nodeId", "e").put("partitions", PARTITIONS)
        .put("nodes", new JsonArray().add(new JsonObject().put("id", "e").put("address", even))
            .add(new JsonObject().put("id", "o").put("address", odd)))
        .put("owners", owners);
  }

  private void serveMap(String even, String odd) {
    for (ScriptedServer s : List.of(a, b)) {
      s.onOther = req -> {
        if ("/v1/cluster".equals(req.path())) {
          req.response().putHeader("Content-Type", "application/json").end(map(even, odd).encode());
        } else {
          req.response().setStatusCode(404).end();
        }
      };
    }
  }

  private void awaitMap() {
    Awaitility.await("the partition map read").atMost(Duration.ofSeconds(10))
        .until(() -> ((ClientImpl) client).partitionMapLoaded());
  }

  private static Set<String> ids(List<JsonObject> bodies, String field) {
    Set<String> out = new HashSet<>();
    for (JsonObject body : bodies) {
      for (Object x : body.getJsonArray(field)) {
        out.add(x instanceof JsonObject t ? t.getString("id") : (String) x);
      }
    }
    return out;
  }

  @Test
  void each_timer_of_a_batch_create_and_a_batch_touch_goes_to_its_owner() throws Exception {
    serveMap(a.url(), b.url());
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoints(List.of(a.url(), b.url())));
    await(client.touch("warm-up")); // the first call reads the map
    awaitMap();
    a.batches.clear();
    b.batches.clear();
    List<Future<TimerInfo>> created = new ArrayList<>();
    List<Future<Long>> touched = new ArrayList<>();
    Set<String> even = new HashSet<>();
    Set<String> odd = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      String id = "k-" + i;
      (partition(id) % 2 == 0 ? even : odd).add(id);
      created.add(client.schedule(TimerRequest.builder().id(id).delayMs(60_000).build()));
      touched.add(client.touch(id));
    }
    for (int i = 0; i < created.size(); i++) {
      assertThat(await(created.get(i)).id()).isEqualTo("k-" + i);
      await(touched.get(i));
    }
    assertThat(even).isNotEmpty();
    assertThat(odd).isNotEmpty();
    assertThat(ids(a.creates, "timers")).isEqualTo(even);
    assertThat(ids(b.creates, "timers")).isEqualTo(odd);
    assertThat(ids(a.batches, "ids")).isEqualTo(even);
    assertThat(ids(b.batches, "ids")).isEqualTo(odd);
  }

  @Test
  void a_timer_whose_owner_cannot_be_reached_goes_to_the_endpoint_in_use() throws Exception {
    String gone;
    try (ServerSocket s = new ServerSocket(0)) {
      gone = "http://127.0.0.1:" + s.getLocalPort();   // closed again: connections to it are refused
    }
    serveMap(a.url(), gone);
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setReconnectInitialBackoffMs(10)
        .setEndpoints(List.of(a.url(), b.url())));
    client.touch("warm-up");
    awaitMap();
    List<Future<TimerInfo>> created = new ArrayList<>();
    Set<String> all = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      String id = "u-" + i;
      all.add(id);
      created.add(client.schedule(TimerRequest.builder().id(id).delayMs(60_000).build()));
    }
    for (Future<TimerInfo> f : created) {
      await(f);
    }
    assertThat(ids(a.creates, "timers")).isEqualTo(all);
    assertThat(b.creates).isEmpty();
  }

  /** Serves the map as {@link #serveMap}, answers {@code GET /v1/timers/{id}} and every command, recording them. */
  private void serveTimers(String even, String odd, Map<ScriptedServer, List<String>> reads) {
    for (ScriptedServer s : List.of(a, b)) {
      s.onOther = req -> {
        if ("/v1/cluster".equals(req.path())) {
          req.response().putHeader("Content-Type", "application/json").end(map(even, odd).encode());
        } else if (req.path().startsWith("/v1/timers/")) {
          String id = req.path().substring("/v1/timers/".length());
          reads.get(s).add(id);
          req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("id", id)
              .put("topic", "t").put("kind", "once").put("delayMs", 1000).put("nextDueAt", 1L).put("firings", 0)
              .put("createdAt", 1L).encode());
        } else {
          req.response().setStatusCode(404).end();
        }
      };
      s.onMessage = (ws, c, m) -> ws.writeTextMessage(("cancel".equals(m.getString("op"))
          ? new JsonObject().put("type", "result").put("ref", m.getString("ref")).put("status", 204)
          : ScriptedServer.ok(m, 201, 0)).encode());
    }
  }

  /** The ids of the commands {@code s} received. */
  private static Set<String> commanded(ScriptedServer s, String op) {
    Set<String> out = new HashSet<>();
    for (JsonObject m : s.received) {
      if (op.equals(m.getString("op"))) {
        out.add("put".equals(op) ? m.getJsonObject("timer").getString("id") : m.getString("id"));
      }
    }
    return out;
  }

  @Test
  void puts_cancels_and_reads_of_a_timer_go_to_its_owner() throws Exception {
    Map<ScriptedServer, List<String>> reads = Map.of(a, new CopyOnWriteArrayList<>(), b, new CopyOnWriteArrayList<>());
    serveTimers(a.url(), b.url(), reads);
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoints(List.of(a.url(), b.url())));
    await(client.touch("warm-up"));
    awaitMap();
    Set<String> even = new HashSet<>();
    Set<String> odd = new HashSet<>();
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String id = "p-" + i;
      (partition(id) % 2 == 0 ? even : odd).add(id);
      calls.add(client.put(TimerRequest.builder().id(id).delayMs(60_000).build()));
      calls.add(client.cancel(id));
      calls.add(client.get(id));
    }
    for (Future<?> f : calls) {
      await(f);
    }
    assertThat(even).isNotEmpty();
    assertThat(odd).isNotEmpty();
    assertThat(commanded(a, "put")).isEqualTo(even);
    assertThat(commanded(b, "put")).isEqualTo(odd);
    assertThat(commanded(a, "cancel")).isEqualTo(even);
    assertThat(commanded(b, "cancel")).isEqualTo(odd);
    assertThat(new HashSet<>(reads.get(a))).isEqualTo(even);
    assertThat(new HashSet<>(reads.get(b))).isEqualTo(odd);
  }

  @Test
  void a_put_whose_owner_cannot_be_reached_goes_to_the_endpoint_in_use() throws Exception {
    String gone;
    try (ServerSocket s = new ServerSocket(0)) {
      gone = "http://127.0.0.1:" + s.getLocalPort();   // closed again: connections to it are refused
    }
    Map<ScriptedServer, List<String>> reads = Map.of(a, new CopyOnWriteArrayList<>(), b, new CopyOnWriteArrayList<>());
    serveTimers(a.url(), gone, reads);
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setReconnectInitialBackoffMs(10)
        .setEndpoints(List.of(a.url(), b.url())));
    await(client.touch("warm-up"));
    awaitMap();
    Set<String> all = new HashSet<>();
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String id = "g-" + i;
      all.add(id);
      calls.add(client.put(TimerRequest.builder().id(id).delayMs(60_000).build()));
      calls.add(client.get(id));
    }
    for (Future<?> f : calls) {
      await(f);
    }
    assertThat(commanded(a, "put")).isEqualTo(all);
    assertThat(new HashSet<>(reads.get(a))).isEqualTo(all);
    assertThat(b.received).isEmpty();
  }

  @Test
  void an_owner_answering_503_has_the_map_read_again() throws Exception {
    serveMap(a.url(), b.url());
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoints(List.of(a.url(), b.url())));
    await(client.touch("warm-up"));
    awaitMap();
    long reads = ((ClientImpl) client).partitionMapReads();
    String id = "k-0";
    ScriptedServer owner = partition(id) % 2 == 0 ? a : b;
    owner.onCreate = (req, body) -> req.response().setStatusCode(503).putHeader("Retry-After", "1")
        .end(new JsonObject().put("error", new JsonObject().put("code", "unavailable").put("message", "moving"))
            .encode());
    Future<TimerInfo> refused = client.schedule(TimerRequest.builder().id(id).delayMs(60_000).build());
    try {
      await(refused);
    } catch (java.util.concurrent.ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TickwheelException.class);
      assertThat(((TickwheelException) e.getCause()).status()).isEqualTo(503);
    }
    assertThat(refused.failed()).isTrue();
    Awaitility.await("the map read again").atMost(Duration.ofSeconds(10))
        .until(() -> ((ClientImpl) client).partitionMapReads() > reads);
  }

  @Test
  void a_client_of_one_endpoint_reads_no_map_and_sends_everything_there() throws Exception {
    serveMap(b.url(), b.url());
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoint(a.url()));
    for (int i = 0; i < 20; i++) {
      await(client.schedule(TimerRequest.builder().id("s-" + i).delayMs(60_000).build()));
    }
    assertThat(((ClientImpl) client).partitionMapReads()).isZero();
    assertThat(b.creates).isEmpty();
    assertThat(ids(a.creates, "timers")).hasSize(20);
  }
}
