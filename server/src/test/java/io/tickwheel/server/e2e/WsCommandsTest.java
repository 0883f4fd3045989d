package io.tickwheel.server.e2e;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** WebSocket write commands on {@code /v1/ws} against the real server verticle, over real sockets. */
@ExtendWith(BlockedThreadGuard.class)
class WsCommandsTest {

  static Vertx vertx;
  GatedStore store;
  ServerHarness server;
  WebSocketClient client;
  WebSocket ws;
  final LinkedBlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  void start() {
    store = new GatedStore();
    server = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory"), store);
    client = vertx.createWebSocketClient();
    ws = TestVertx.await(client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(server.port)
        .setURI("/v1/ws")).map(w -> {
          w.textMessageHandler(t -> messages.add(new JsonObject(t)));
          return w;
        }));
  }

  @AfterEach
  void stop() {
    if (client != null) {
      TestVertx.await(client.close());
    }
    if (server != null) {
      server.close();
    }
  }

  void send(JsonObject command) {
    ws.writeTextMessage(command.encode());
  }

  JsonObject next() throws InterruptedException {
    JsonObject m = messages.poll(30, TimeUnit.SECONDS);
    assertThat(m).as("a message within 30 s").isNotNull();
    return m;
  }

  /** Takes {@code n} results, by ref; fails on a ref answered twice. */
  Map<String, JsonObject> results(int n) throws InterruptedException {
    Map<String, JsonObject> byRef = new HashMap<>();
    for (int i = 0; i < n; i++) {
      JsonObject m = next();
      assertThat(m.getString("type")).isEqualTo("result");
      assertThat(byRef.put(m.getString("ref"), m)).as("ref %s answered once", m.getString("ref")).isNull();
    }
    return byRef;
  }

  static JsonObject schedule(String ref, String id, long delayMs) {
    return new JsonObject().put("op", "schedule").put("ref", ref)
        .put("timer", new JsonObject().put("id", id).put("delayMs", delayMs).put("payload", new JsonObject().put("r", ref)));
  }

  @Test
  void thousandPipelinedCommandsOnOneSocketAreEachAnsweredOnceAndDurableAndShareStoreWrites() throws Exception {
    start();
    for (int i = 0; i < 1000; i++) {
      send(schedule("r" + i, "k" + i, 600_000));
    }
    Map<String, JsonObject> byRef = results(1000);
    for (int i = 0; i < 1000; i++) {
      JsonObject r = byRef.get("r" + i);
      assertThat(r.getInteger("status")).isEqualTo(201);
      assertThat(r.getJsonObject("timer").getString("id")).isEqualTo("k" + i);
      assertThat(r.getJsonObject("timer").getJsonObject("payload").getString("r")).isEqualTo("r" + i);
    }
    assertThat(store.createAllTimers.get()).isEqualTo(1000);
    assertThat(store.createAllCalls.get()).as("commands read in one turn share one createAll").isLessThan(1000);
    assertThat(server.send(GET, "/v1/timers/k999").statusCode()).isEqualTo(200);
    assertThat(server.server.scheduler().pending()).isEqualTo(1000);

    for (int i = 0; i < 1000; i++) {
      send(new JsonObject().put("op", "touch").put("ref", "t" + i).put("id", "k" + i).put("delayMs", 900_000));
    }
    Map<String, JsonObject> touched = results(1000);
    assertThat(touched.values()).allSatisfy(r -> assertThat(r.getInteger("status")).isEqualTo(200));
    assertThat(store.updateAllTimers.get()).isEqualTo(1000);
    assertThat(store.updateAllCalls.get()).as("touches read in one turn share one updateAll").isLessThan(1000);
    assertThat(server.send(GET, "/v1/timers/k5").bodyAsJsonObject().getLong("nextDueAt"))
        .isEqualTo(touched.get("t5").getJsonObject("timer").getLong("nextDueAt"));
  }

  @Test
  void resultsComeOutOfOrderAndAreMatchedByRef() throws Exception {
    start();
    assertThat(server.send(POST, "/v1/timers", "{\"id\":\"beat\",\"delayMs\":600000}").statusCode()).isEqualTo(201);
    store.holdPuts(true);                         // the next create waits in the store
    send(schedule("slow", "later", 600_000));
    send(new JsonObject().put("op", "touch").put("ref", "fast").put("id", "beat"));
    JsonObject first = next();
    assertThat(first.getString("ref")).isEqualTo("fast");
    assertThat(first.getInteger("status")).isEqualTo(200);
    TestVertx.on(store.context, () -> {
      store.holdPuts(false);
      store.release();
      return Future.succeededFuture();
    });
    JsonObject second = next();
    assertThat(second.getString("ref")).isEqualTo("slow");
    assertThat(second.getInteger("status")).isEqualTo(201);
  }

  @Test
  void eachCommandAnswersTheStatusAndErrorItsHttpCallWould() throws Exception {
    start();
    send(new JsonObject().put("op", "put").put("ref", "p1").put("timer", new JsonObject().put("id", "x").put("delayMs", 60_000)));
    assertThat(next().getInteger("status")).isEqualTo(201);
    send(new JsonObject().put("op", "put").put("ref", "p2").put("timer", new JsonObject().put("id", "x").put("delayMs", 70_000)));
    assertThat(next().getInteger("status")).isEqualTo(200);
    send(schedule("dup", "x", 1000));
    JsonObject dup = next();
    assertThat(dup.getInteger("status")).isEqualTo(409);
    assertThat(dup.getJsonObject("error").getString("code")).isEqualTo("already_exists");
    send(new JsonObject().put("op", "cancel").put("ref", "c1").put("id", "x"));
    JsonObject cancelled = next();
    assertThat(cancelled.getInteger("status")).isEqualTo(204);
    assertThat(cancelled.containsKey("timer")).isFalse();
    send(new JsonObject().put("op", "cancel").put("ref", "c2").put("id", "x"));
    JsonObject gone = next();
    assertThat(gone.getInteger("status")).isEqualTo(404);
    assertThat(gone.getJsonObject("error").getString("code")).isEqualTo("not_found");
    send(new JsonObject().put("op", "touch").put("ref", "t1").put("id", "x"));
    assertThat(next().getInteger("status")).isEqualTo(404);
    assertThat(server.send(GET, "/v1/timers/x").statusCode()).isEqualTo(404);
  }

  @Test
  void aBadCommandGetsAnErrorResultNamingTheFieldAndTheSocketStaysOpen() throws Exception {
    start();
    send(schedule("neg", "n", -5));
    JsonObject neg = next();
    assertThat(neg.getString("ref")).isEqualTo("neg");
    assertThat(neg.getInteger("status")).isEqualTo(400);
    assertThat(neg.getJsonObject("error").getString("code")).isEqualTo("invalid_argument");
    assertThat(neg.getJsonObject("error").getString("field")).isEqualTo("timer.delayMs");
    send(new JsonObject().put("op", "put").put("ref", "noid").put("timer", new JsonObject().put("delayMs", 5)));
    assertThat(next().getJsonObject("error").getString("field")).isEqualTo("timer.id");
    send(new JsonObject().put("op", "touch").put("ref", "badid").put("id", "a b"));
    JsonObject badId = next();
    assertThat(badId.getJsonObject("error").getString("field")).isEqualTo("id");
    assertThat(badId.getJsonObject("error").getString("message")).contains("\"a b\"");
    send(new JsonObject().put("op", "touch").put("ref", "dots").put("id", ".."));
    assertThat(next().getJsonObject("error").getString("field")).isEqualTo("id");
    send(new JsonObject().put("op", "put").put("ref", "putdots").put("timer", new JsonObject().put("id", ".").put("delayMs", 5)));
    assertThat(next().getJsonObject("error").getString("field")).isEqualTo("timer.id");
    send(new JsonObject().put("op", "touch").put("ref", "baddelay").put("id", "a").put("delayMs", "soon"));
    assertThat(next().getJsonObject("error").getString("field")).isEqualTo("delayMs");
    send(new JsonObject().put("op", "schedule").put("ref", "notimer"));
    assertThat(next().getJsonObject("error").getString("field")).isEqualTo("timer");
    send(new JsonObject().put("op", "schedule").put("timer", new JsonObject().put("delayMs", 5)));
    JsonObject noRef = next();
    assertThat(noRef.getString("type")).as("without a ref there is no result to answer").isEqualTo("error");
    assertThat(noRef.getString("field")).isEqualTo("ref");
    send(schedule("extra", "e", 5).put("delay", 5));
    JsonObject extra = next();
    assertThat(extra.getString("ref")).isEqualTo("extra");
    assertThat(extra.getInteger("status")).isEqualTo(400);
    assertThat(extra.getJsonObject("error").getString("field")).isEqualTo("delay");
    assertThat(extra.getJsonObject("error").getString("message"))
        .isEqualTo("unknown field 'delay' (op \"schedule\" takes ref, timer)");
    send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("a")).put("form", 5));
    JsonObject sub = next();
    assertThat(sub.getString("type")).isEqualTo("error");
    assertThat(sub.getString("field")).isEqualTo("form");
    ws.writeTextMessage("{\"op\":\"schedule\",\"ref\":\"dup\",\"timer\":{\"id\":\"d\",\"delayMs\":5,\"delayMs\":6}}");
    JsonObject dup = next();
    assertThat(dup.getString("type")).as("a message that repeats a key is not decoded").isEqualTo("error");
    assertThat(dup.getString("field")).isEqualTo("timer");
    assertThat(dup.getString("message"))
        .isEqualTo("duplicate key 'delayMs' at /timer/delayMs (an object takes each key once)");
    send(new JsonObject().put("op", "ping"));
    assertThat(next().getString("type")).isEqualTo("pong");
    assertThat(store.createAllCalls.get()).as("nothing of a bad command is written").isZero();
  }

  @Test
  void atTheCapOfCommandsInFlightTheServerStopsReadingUntilResultsDrain() throws Exception {
    start();
    assertThat(server.send(POST, "/v1/timers", "{\"id\":\"first\",\"delayMs\":600000}").statusCode()).isEqualTo(201);
    store.holdPuts(true);
    int n = 1500;
    for (int i = 0; i < n; i++) {
      send(schedule("r" + i, "k" + i, 600_000));
    }
    // a command in flight is in a held store write or waits behind those (two writes of a kind in flight)
    Callable<Integer> read = () -> TestVertx.on(store.context,
        () -> Future.succeededFuture(store.createAllTimers.get() + server.server.scheduler().pipelineWaiting()));
    Awaitility.await("1,000 commands in flight").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> read.call() >= 1001);
    // a negative check, so time is what it checks: the server reads no more commands for 300 ms while at its cap
    Awaitility.await("no more commands read at the cap").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(10))
        .until(() -> read.call() == 1 + 1000);
    assertThat(read.call()).as("1 before, then 1,000 commands in flight, no more read").isEqualTo(1 + 1000);
    assertThat(messages).isEmpty();
    TestVertx.on(store.context, () -> {
      store.holdPuts(false);
      store.release();
      return Future.succeededFuture();
    });
    Map<String, JsonObject> byRef = results(n);
    assertThat(byRef.values()).allSatisfy(r -> assertThat(r.getInteger("status")).isEqualTo(201));
    assertThat(server.server.scheduler().pending()).isEqualTo(n + 1);
  }
}
