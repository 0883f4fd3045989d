package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Messages gathered into one write per event-loop task arrive as the same text messages, in order, at Vert.x's own
 * WebSocket client (Netty's frame decoder: an implementation of RFC 6455 independent of the encoder under test).
 */
class WsTextFramesTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  /** A server whose one socket runs {@code script} with a WsTextFrames over its channel; the client's messages. */
  private static List<String> exchange(BiConsumer<ServerWebSocket, WsTextFrames> script, int expected,
      AtomicReference<WsTextFrames> framesOut) throws Exception {
    HttpServer server = vertx.createHttpServer(new HttpServerOptions().setMaxWebSocketFrameSize(65_536))
        .webSocketHandler(ws -> {
          WsTextFrames frames = new WsTextFrames(ws, PushServer.channelOf(ws), () -> { });
          if (framesOut != null) {
            framesOut.set(frames);
          }
          // once the handshake is over (as in the server, where a subscriber writes after a command)
          ws.textMessageHandler(go -> script.accept(ws, frames));
        });
    TestVertx.await(server.listen(0, "127.0.0.1"));
    List<String> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> all = new CompletableFuture<>();
    // the client is kept (and closed below): Vert.x shuts down a client that is garbage collected, its sockets too
    WebSocketClient wsClient = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxFrameSize(65_536)
        .setMaxMessageSize(1 << 20));
    WebSocket client = TestVertx.await(wsClient
        .connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(server.actualPort()).setURI("/")));
    client.textMessageHandler(t -> {
      got.add(t);
      if (got.size() == expected) {
        all.complete(null);
      }
    });
    client.writeTextMessage("go");
    all.get(10, TimeUnit.SECONDS);
    TestVertx.await(client.close());
    TestVertx.await(wsClient.close());
    TestVertx.await(server.close());
    return got;
  }

  private static String text(int length, char c) {
    return String.valueOf(c).repeat(length);
  }

  @Test
  void messagesOfEveryLengthClassArriveWholeAndInOrder() throws Exception {
    List<String> sent = new ArrayList<>();
    for (int n : new int[] {0, 1, 125, 126, 127, 65_535 / 4, WsTextFrames.MAX_GATHERED, WsTextFrames.MAX_GATHERED + 1,
        40_000, 3}) {
      sent.add(text(n, (char) ('a' + sent.size())));
    }
    sent.add("{\"payload\":\"zürich ☃ 𝄞\"}");   // 2-, 3- and 4-byte UTF-8 sequences
    AtomicReference<WsTextFrames> frames = new AtomicReference<>();
    List<String> got = exchange((ws, f) -> sent.forEach(f::write), sent.size(), frames);
    assertThat(got).isEqualTo(sent);
    // the seven up to MAX_GATHERED left in one write before the first longer one, the last two in another: 2, not 11
    assertThat(frames.get().writes).isEqualTo(2);
  }

  @Test
  void aThousandMessagesInOneTaskLeaveInAFewWrites() throws Exception {
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      sent.add("{\"type\":\"fired\",\"seq\":" + i + ",\"id\":\"timer-" + i + "\"}");
    }
    AtomicReference<WsTextFrames> frames = new AtomicReference<>();
    List<String> got = exchange((ws, f) -> sent.forEach(f::write), sent.size(), frames);
    assertThat(got).isEqualTo(sent);
    assertThat(frames.get().writes).isBetween(1L, 3L);      // 1,000 × ~45 bytes: under WRITE_AT or just over
  }

  @Test
  void messagesWrittenOffTheEventLoopGoThroughVertxInOrder() throws Exception {
    List<String> sent = List.of("one", "two", "three");
    AtomicReference<WsTextFrames> frames = new AtomicReference<>();
    List<String> got = exchange((ws, f) -> new Thread(() -> sent.forEach(f::write)).start(), sent.size(), frames);
    assertThat(got).isEqualTo(sent);
    assertThat(frames.get().writes).isZero();
  }

  @Test
  void whatIsGatheredLeavesBeforeACloseThatFollowsIt() throws Exception {
    HttpServer server = vertx.createHttpServer().webSocketHandler(ws -> ws.textMessageHandler(go -> {
      WsTextFrames f = new WsTextFrames(ws, PushServer.channelOf(ws), () -> { });
      f.write("first");
      f.write("second");
      f.flush();
      ws.close((short) 1013, "bye");
    }));
    TestVertx.await(server.listen(0, "127.0.0.1"));
    List<String> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Short> closed = new CompletableFuture<>();
    WebSocketClient wsClient = vertx.createWebSocketClient();    // kept until the end, closed there
    WebSocket client = TestVertx.await(wsClient
        .connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(server.actualPort()).setURI("/")));
    client.textMessageHandler(got::add);
    client.closeHandler(v -> closed.complete(client.closeStatusCode()));
    client.writeTextMessage("go");
    assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo((short) 1013);
    assertThat(got).containsExactly("first", "second");
    TestVertx.await(wsClient.close());
    TestVertx.await(server.close());
  }
}
