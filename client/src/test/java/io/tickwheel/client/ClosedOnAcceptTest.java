package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server that accepts the WebSocket upgrade and closes at once with 1001 (a node shutting down), the 101 answer and
 * the close frame in one TCP segment, on every connection. The client must take each as a closed connection and
 * connect again, for its commands and its subscriptions alike: three upgrades are the first connection and two
 * reconnections. (The client attaches its handlers on its own context as the upgrade completes, before a later frame
 * is read; a client that attached them later would find the socket already closed and never reconnect.)
 */
class ClosedOnAcceptTest {

  private static final Pattern KEY = Pattern.compile("(?i)sec-websocket-key:\\s*(\\S+)");
  private static final Duration WAIT = Duration.ofSeconds(10);

  private Vertx vertx;
  private NetServer server;
  private final AtomicInteger upgrades = new AtomicInteger();
  private TickwheelClient client;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    server = vertx.createNetServer().connectHandler(socket -> {
      Buffer head = Buffer.buffer();
      socket.handler(chunk -> {
        head.appendBuffer(chunk);
        String text = head.toString(StandardCharsets.ISO_8859_1);
        if (!text.contains("\r\n\r\n")) {
          return;
        }
        socket.handler(null);
        Matcher m = KEY.matcher(text);
        if (!m.find()) {
          socket.close();
          return;
        }
        upgrades.incrementAndGet();
        Buffer out = Buffer.buffer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: " + accept(m.group(1)) + "\r\n\r\n", "ISO-8859-1");
        out.appendBytes(new byte[] {(byte) 0x88, 2, 0x03, (byte) 0xE9}); // close, 1001, unmasked (server to client)
        socket.write(out).onComplete(v -> socket.close());
      });
    }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) {
      client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static String accept(String key) {
    try {
      byte[] sha1 = MessageDigest.getInstance("SHA-1")
          .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.ISO_8859_1));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private TickwheelClient client() {
    client = TickwheelClient.create(vertx, new TickwheelClientOptions()
        .setEndpoint("http://127.0.0.1:" + server.actualPort())
        .setReconnectInitialBackoffMs(10).setRequestTimeoutMs(60_000));
    return client;
  }

  @Test
  void a_subscription_whose_socket_is_closed_on_accept_connects_again() {
    client().subscribe(List.of("*"), null, f -> { });
    Awaitility.await("two reconnections").atMost(WAIT).until(() -> upgrades.get() >= 3);
  }

  @Test
  void a_command_whose_socket_is_closed_on_accept_connects_again() {
    client().put(TimerRequest.builder().id("p").delayMs(60_000).build());
    Awaitility.await("two reconnections").atMost(WAIT).until(() -> upgrades.get() >= 3);
  }
}
