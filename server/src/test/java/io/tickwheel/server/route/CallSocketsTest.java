package io.tickwheel.server.route;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.route.ClusterFixture.Node;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The calls between nodes over one WebSocket per owner ({@link CallSockets}, {@code InternalSocket}): real in-process
 * nodes ({@link ClusterFixture}), and fake owners that refuse the upgrade or never answer.
 */
class CallSocketsTest {

  private static final int P = 4;
  private ClusterFixture cluster;
  private HttpServer fake;

  @AfterEach
  void tearDown() {
    if (fake != null) {
      TestVertx.await(fake.close());
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static HttpResponse<Buffer> send(Node n, HttpMethod m, String uri, String body) {
    var req = n.client.request(m, uri);
    return TestVertx.await(body == null ? req.send()
        : req.putHeader("content-type", "application/json").sendBuffer(Buffer.buffer(body)));
  }

  private static long[] transports(Node n) {
    return n.on(() -> Future.succeededFuture(n.forwarder.transports()));
  }

  @Test
  void callsToAnOwnerGoOverItsSocketManyInFlightEachAnsweredByItsOwnId() {
    cluster = new ClusterFixture(2, P);
    Node a = cluster.nodes.get(0);
    // partitions 1 and 3 are node 1's: 200 calls at once from node 0, creates then reads of each
    List<Future<HttpResponse<Buffer>>> puts = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < 200; k++) {
      String id = cluster.idIn(k % 2 == 0 ? 1 : 3, "s" + k);
      ids.add(id);
      puts.add(a.client.request(PUT, "/v1/timers/" + id).putHeader("content-type", "application/json")
          .sendBuffer(Buffer.buffer("{\"delayMs\":3600000,\"payload\":{\"k\":" + k + "}}")));
    }
    TestVertx.await(Future.join(puts));
    for (int k = 0; k < 200; k++) {
      assertThat(puts.get(k).result().statusCode()).as(ids.get(k)).isEqualTo(201);
    }
    List<Future<HttpResponse<Buffer>>> gets = new ArrayList<>();
    for (String id : ids) {
      gets.add(a.client.request(GET, "/v1/timers/" + id).send());
    }
    TestVertx.await(Future.join(gets));
    for (int k = 0; k < 200; k++) {
      JsonObject t = gets.get(k).result().bodyAsJsonObject();
      assertThat(t.getString("id")).isEqualTo(ids.get(k));
      assertThat(t.getJsonObject("payload").getInteger("k")).isEqualTo(k);
    }
    long[] sent = transports(a);
    assertThat(sent[0]).as("calls over the socket").isGreaterThan(0);
    assertThat(sent[1]).as("calls POSTed").isZero();
  }

  @Test
  void answersLargerThanOneFrameComeWholeOverTheSocket() {
    cluster = new ClusterFixture(2, P);
    Node a = cluster.nodes.get(0);
    // a timer with a payload near the 64 KiB limit, read through node 0: its answer is over one 64 KiB frame
    String big = cluster.idIn(1, "big-payload");
    String pad = "\u00e9".repeat(32_000);
    HttpResponse<Buffer> put = send(cluster.nodes.get(1), PUT, "/v1/timers/" + big,
        new JsonObject().put("delayMs", 3_600_000).put("payload", new JsonObject().put("pad", pad)).encode());
    assertThat(put.statusCode()).as(put.bodyAsString()).isEqualTo(201);
    HttpResponse<Buffer> got = send(a, GET, "/v1/timers/" + big, null);
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.bodyAsJsonObject().getJsonObject("payload").getString("pad")).isEqualTo(pad);
    // a batch of 600 small timers of node 1's: a call under 64 KiB whose answer (each timer's whole state) is over it
    JsonArray timers = new JsonArray();
    for (int k = 0; k < 600; k++) {
      timers.add(new JsonObject().put("id", cluster.idIn(3, "many" + k)).put("delayMs", 3_600_000));
    }
    HttpResponse<Buffer> r = send(a, POST, "/v1/timers/batch", new JsonObject().put("timers", timers).encode());
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
    assertThat(results).hasSize(600);
    for (int k = 0; k < 600; k++) {
      assertThat(results.getJsonObject(k).getJsonObject("timer").getString("id")).isEqualTo(cluster.idIn(3, "many" + k));
    }
    assertThat(transports(a)).as("over the socket, none POSTed").containsExactly(2, 0);
  }

  @Test
  void aCallOverASocketMessageGoesAsAPostAndIsAnsweredAsOne() {
    cluster = new ClusterFixture(2, P);
    Node a = cluster.nodes.get(0);
    // a batch of node 1's timers whose forwarded part is over 64 KiB: one create_all call, POSTed
    JsonArray timers = new JsonArray();
    String pad = "x".repeat(1000);
    for (int k = 0; k < 100; k++) {
      timers.add(new JsonObject().put("id", cluster.idIn(1, "big" + k)).put("delayMs", 3_600_000)
          .put("payload", new JsonObject().put("pad", pad)));
    }
    HttpResponse<Buffer> r = send(a, POST, "/v1/timers/batch", new JsonObject().put("timers", timers).encode());
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonArray("results")).hasSize(100);
    assertThat(r.bodyAsJsonObject().getJsonArray("results").getJsonObject(99).getInteger("status")).isEqualTo(201);
    assertThat(transports(a)[1]).as("calls POSTed").isEqualTo(1);
    HttpResponse<Buffer> got = send(a, GET, "/v1/timers/" + cluster.idIn(1, "big99"), null);
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.bodyAsJsonObject().getJsonObject("payload").getString("pad")).isEqualTo(pad);
  }

  @Test
  void anOwnerThatRefusesTheUpgradeGetsPostsWithoutBeingAskedAgain() {
    cluster = new ClusterFixture(2, P);
    Node a = cluster.nodes.get(0);
    AtomicInteger upgrades = new AtomicInteger();
    List<String> posted = new CopyOnWriteArrayList<>();
    // a node of an earlier version: 404 for the upgrade, the POST answered
    fake = TestVertx.await(cluster.vertx.createHttpServer().requestHandler(req -> {
      if (req.method() == HttpMethod.GET) {
        upgrades.incrementAndGet();
        req.response().setStatusCode(404).end();
        return;
      }
      req.body().onSuccess(b -> {
        posted.add(b.toString());
        req.response().putHeader("content-type", "application/json").end(new JsonObject().put("item",
            new JsonObject().put("refused", new JsonObject().put("status", 404).put("code", "not_found")
                .put("message", "no timer here").put("retryAfter", 0))).encode());
      });
    }).listen(0, "127.0.0.1"));
    a.on(() -> {
      a.owners.owner[1] = "http://127.0.0.1:" + fake.actualPort();
      return Future.succeededFuture();
    });
    for (int k = 0; k < 3; k++) {
      HttpResponse<Buffer> r = send(a, GET, "/v1/timers/" + cluster.idIn(1, "old" + k), null);
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("old" + k);
    }
    assertThat(posted).hasSize(3);
    assertThat(posted.get(2)).contains("\"call\":\"get\"").contains(cluster.idIn(1, "old2"));
    assertThat(upgrades.get()).as("the upgrade is not tried again for a while").isEqualTo(1);
    assertThat(transports(a)).containsExactly(0, 3);
  }

  @Test
  void aCallWhoseMessageIsNotWrittenGoesAsAPostAndGetsThePostsAnswer() {
    Vertx vertx = TestVertx.create();
    try {
      List<Buffer> tried = new CopyOnWriteArrayList<>();
      // a socket that opens, but whose writes fail (it closed under them, its close not yet handled)
      WebSocket socket = fake(WebSocket.class, (m, args) -> switch (m.getName()) {
        case "writeBinaryMessage" -> {
          tried.add((Buffer) args[0]);
          yield Future.failedFuture(new IllegalStateException("WebSocket is closed"));
        }
        case "isClosed" -> false;
        case "close" -> Future.succeededFuture();
        default -> null;
      });
      WebSocketClient client = fake(WebSocketClient.class, (m, args) -> switch (m.getName()) {
        case "connect" -> Future.succeededFuture(socket);
        case "close" -> Future.succeededFuture();
        default -> throw new UnsupportedOperationException(m.getName());
      });
      List<Buffer> posted = new CopyOnWriteArrayList<>();
      CallSockets sockets = new CallSockets(RouteOptions.defaults(), "n0", () -> "t", (base, body, done, onSent) -> {
        posted.add(body);
        onSent.run();
        done.complete(new Forwarder.Answer(201, Buffer.buffer("{\"created\":true}"), -1));
      }, client);
      Context ctx = vertx.getOrCreateContext();
      AtomicInteger sent = new AtomicInteger();
      for (String call : List.of("{\"call\":\"create\",\"n\":1}", "{\"call\":\"create\",\"n\":2}")) {
        Forwarder.Answer answer = TestVertx.on(ctx, () -> {
          Promise<Forwarder.Answer> done = Promise.promise();
          sockets.send("http://127.0.0.1:9", Buffer.buffer(call), done, sent::incrementAndGet);
          return done.future();
        });
        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.body().toString()).isEqualTo("{\"created\":true}");
        assertThat(CallMessages.callBody(tried.get(tried.size() - 1)).toString()).as("tried over the socket first")
            .isEqualTo(call);
        assertThat(posted.get(posted.size() - 1).toString()).as("then POSTed").isEqualTo(call);
      }
      assertThat(tried).hasSize(2);
      assertThat(posted).hasSize(2);
      assertThat(sockets.overSocket).as("calls counted over the socket").isZero();
      assertThat(sockets.posted).as("calls counted as POSTs").isEqualTo(2);
      assertThat(sent.get()).as("marked sent").isPositive();
      TestVertx.on(ctx, sockets::close);
    } finally {
      TestVertx.close(vertx);
    }
  }

  /** An implementation of {@code type} answering {@code answer}; its methods that return {@code type} return it. */
  @SuppressWarnings("unchecked")
  private static <T> T fake(Class<T> type, java.util.function.BiFunction<Method, Object[], Object> answer) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
      if (m.getDeclaringClass() == Object.class) {
        return switch (m.getName()) {
          case "equals" -> proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          default -> type.getSimpleName() + " fake";
        };
      }
      Object r = answer.apply(m, args);
      return r == null && m.getReturnType().isInstance(proxy) ? proxy : r;
    });
  }

  @Test
  void aCallSentAndNotAnsweredMayHaveBeenAppliedAndAClosedSocketFailsItsCallsAtOnce() throws Exception {
    cluster = new ClusterFixture(2, P, RouteOptions.defaults().withTimeoutMs(500));
    Node a = cluster.nodes.get(0);
    List<ServerWebSocket> sockets = new CopyOnWriteArrayList<>();
    List<Buffer> calls = new CopyOnWriteArrayList<>();
    // an owner that takes the calls and never answers
    fake = TestVertx.await(cluster.vertx.createHttpServer().webSocketHandler(ws -> {
      sockets.add(ws);
      ws.binaryMessageHandler(calls::add);
    }).listen(0, "127.0.0.1"));
    a.on(() -> {
      a.owners.owner[1] = "http://127.0.0.1:" + fake.actualPort();
      return Future.succeededFuture();
    });
    HttpResponse<Buffer> timedOut = send(a, PUT, "/v1/timers/" + cluster.idIn(1, "lost"), "{\"delayMs\":1000}");
    assertThat(timedOut.statusCode()).isEqualTo(503);
    assertThat(timedOut.bodyAsJsonObject().getJsonObject("error").getString("message"))
        .contains("did not answer within 500 ms").contains("may have been applied");
    assertThat(calls).hasSize(1);
    assertThat(CallMessages.callBody(calls.get(0)).toString()).contains("\"call\":\"upsert\"");
    assertThat(sockets.get(0).path()).isEqualTo(InternalCodec.PATH);
    assertThat(sockets.get(0).headers().get(InternalCodec.NODE_HEADER)).isEqualTo(a.id);
    assertThat(sockets.get(0).headers().get("Origin")).isNull();
    // the next call is sent on the same socket; the owner's socket closes before it answers
    long t0 = System.nanoTime();
    var pending = a.client.request(PUT, "/v1/timers/" + cluster.idIn(1, "gone"))
        .putHeader("content-type", "application/json").sendBuffer(Buffer.buffer("{\"delayMs\":1000}"));
    Awaitility.await("the second call sent").atMost(Duration.ofSeconds(5)).until(() -> calls.size() == 2);
    TestVertx.await(sockets.get(0).close());
    HttpResponse<Buffer> closed = TestVertx.await(pending);
    assertThat(closed.statusCode()).isEqualTo(503);
    assertThat(closed.bodyAsJsonObject().getJsonObject("error").getString("message"))
        .contains("closed before it answered").contains("may have been applied");
    assertThat((System.nanoTime() - t0) / 1_000_000).as("failed when the socket closed, not at the timeout")
        .isLessThan(500);
    assertThat(sockets).hasSize(1);
    // a call after that opens another socket
    send(a, GET, "/v1/timers/" + cluster.idIn(1, "again"), null);
    assertThat(sockets).hasSize(2);
  }

  @Test
  void theSocketRefusesWhatIsNotACallAndAnswersEachCallByItsId() {
    cluster = new ClusterFixture(2, P);
    Node b = cluster.nodes.get(1);
    WebSocketClient client = cluster.vertx.createWebSocketClient();
    WebSocketConnectOptions o = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(b.port)
        .setURI(InternalCodec.PATH).setAllowOriginHeader(false).putHeader(InternalCodec.NODE_HEADER, "node-0");
    // two calls in one go: a read of a missing timer, and an empty body
    WebSocket ws = TestVertx.await(client.connect(o));
    List<Buffer> answers = new CopyOnWriteArrayList<>();
    ws.binaryMessageHandler(answers::add);
    String missing = cluster.idIn(1, "missing");
    ws.writeBinaryMessage(CallMessages.call(7, InternalCodec.encode(new InternalCall.OnTimer(
        InternalCall.Op.GET, missing))));
    ws.writeBinaryMessage(CallMessages.call(-3, Buffer.buffer()));
    Awaitility.await("both answered").atMost(Duration.ofSeconds(5)).until(() -> answers.size() == 2);
    CallMessages.Read read = answers.stream().map(CallMessages::read).filter(x -> x.id() == 7).findFirst().orElseThrow();
    assertThat(read.answer().status()).isEqualTo(200);
    assertThat(new JsonObject(read.answer().body()).getJsonObject("refused").getInteger("status")).isEqualTo(404);
    CallMessages.Read empty = answers.stream().map(CallMessages::read).filter(x -> x.id() == -3).findFirst()
        .orElseThrow();
    assertThat(empty.answer().status()).isEqualTo(400);
    assertThat(new JsonObject(empty.answer().body()).getJsonObject("error").getString("message"))
        .isEqualTo("an internal call needs a body");
    // while the node is not ready (recovering), a call on a socket opened before is refused as a POST would be
    b.recovering = true;
    answers.clear();
    ws.writeBinaryMessage(CallMessages.call(8, InternalCodec.encode(new InternalCall.OnTimer(
        InternalCall.Op.GET, missing))));
    Awaitility.await("answered").atMost(Duration.ofSeconds(5)).until(() -> answers.size() == 1);
    CallMessages.Read recovering = CallMessages.read(answers.get(0));
    assertThat(recovering.id()).isEqualTo(8);
    assertThat(recovering.answer().status()).isEqualTo(503);
    HttpResponse<Buffer> posted = TestVertx.await(b.client.post(InternalCodec.PATH)
        .putHeader(InternalCodec.NODE_HEADER, "node-0").putHeader("content-type", "application/json")
        .sendBuffer(InternalCodec.encode(new InternalCall.OnTimer(InternalCall.Op.GET, missing))));
    assertThat(posted.statusCode()).isEqualTo(503);
    assertThat(recovering.answer().body().toString()).isEqualTo(posted.bodyAsString());
    String retryAfter = posted.getHeader("Retry-After");
    assertThat(recovering.answer().retryAfter()).isEqualTo(retryAfter == null ? 0 : Integer.parseInt(retryAfter));
    assertThat(posted.bodyAsJsonObject().getJsonObject("error").getString("message")).containsIgnoringCase("recover");
    b.recovering = false;
    // a message too short for an id closes the socket, naming why
    short[] code = {0};
    String[] reason = {null};
    ws.closeHandler(v -> {
      code[0] = ws.closeStatusCode();
      reason[0] = ws.closeReason();
    });
    ws.writeBinaryMessage(Buffer.buffer(new byte[] {1, 2, 3}));
    Awaitility.await("closed").atMost(Duration.ofSeconds(5)).until(() -> code[0] != 0);
    assertThat(code[0]).isEqualTo((short) 1007);
    assertThat(reason[0]).isEqualTo("a call message starts with its 8-byte id; this one has 3 bytes");
    // text: 1003
    WebSocket text = TestVertx.await(client.connect(o));
    short[] textCode = {0};
    text.closeHandler(v -> textCode[0] = text.closeStatusCode());
    text.writeTextMessage("{\"call\":\"get\"}");
    Awaitility.await("closed").atMost(Duration.ofSeconds(5)).until(() -> textCode[0] != 0);
    assertThat(textCode[0]).isEqualTo((short) 1003);
    // a browser's upgrade (an Origin) and one without the node header: 403, as for a POST
    for (WebSocketConnectOptions bad : List.of(
        new WebSocketConnectOptions(o).setAllowOriginHeader(true),
        new WebSocketConnectOptions().setHost("127.0.0.1").setPort(b.port).setURI(InternalCodec.PATH)
            .setAllowOriginHeader(false))) {
      Throwable refused = TestVertx.await(client.connect(bad).map(w -> (Throwable) null)
          .recover(Future::succeededFuture));
      assertThat(refused).isInstanceOf(io.vertx.core.http.UpgradeRejectedException.class);
      assertThat(((io.vertx.core.http.UpgradeRejectedException) refused).getStatus()).isEqualTo(403);
    }
    TestVertx.await(client.close());
  }
}
