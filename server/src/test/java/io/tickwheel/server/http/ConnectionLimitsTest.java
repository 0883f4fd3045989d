package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.RawHttp;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Slow and idle clients cannot hold connections: request headers have a deadline (408), idle connections are
 * closed, connections beyond {@code --max-connections} get 503; streams live on through their heartbeats. Small
 * limits, real sockets.
 */
@ExtendWith(BlockedThreadGuard.class)
class ConnectionLimitsTest {

  static final int MAX = 4;
  static final long IDLE_MS = 1_000;
  static final long HEADER_MS = 300;
  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static ServerHarness start() {
    return ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory")
        .withConnectionLimits(MAX, IDLE_MS, HEADER_MS), new MemoryTimerStore());
  }

  /** Whether the server closed {@code s} (end of stream); reads and drops what it sent. */
  static boolean closedByServer(Socket s) {
    try {
      s.setSoTimeout(1);
      InputStream in = s.getInputStream();
      byte[] b = new byte[4096];
      while (true) {
        int n = in.read(b);
        if (n < 0) {
          return true;
        }
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  @Test
  void aSlowlorisClientLosesItsConnectionsAtTheHeaderDeadline() throws Exception {
    try (ServerHarness s = start()) {
      int clients = 20;
      List<Socket> sockets = new ArrayList<>();
      try {
        for (int i = 0; i < clients; i++) {
          Socket so = RawHttp.open(s.port);
          so.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
          sockets.add(so);
        }
        long t0 = System.nanoTime();
        AtomicInteger open = new AtomicInteger(clients);
        // one more header byte on every connection each 50 ms, until the server has closed them all
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
          int n = 0;
          for (Socket so : sockets) {
            if (!so.isClosed() && !closedByServer(so)) {
              try {
                so.getOutputStream().write('x');
                n++;
              } catch (IOException gone) {
                so.close();
              }
            } else {
              so.close();
            }
          }
          open.set(n);
          return n == 0;
        });
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("slowloris: " + clients + " connections dripping headers, all closed by the server after "
            + tookMs + " ms");
        assertThat(tookMs).isGreaterThanOrEqualTo(HEADER_MS - 50);
      } finally {
        for (Socket so : sockets) {
          so.close();
        }
      }
      assertThat(s.send(HttpMethod.GET, "/health").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void headersPastTheDeadlineGet408WithTheErrorBody() throws Exception {
    try (ServerHarness s = start(); Socket so = RawHttp.open(s.port)) {
      OutputStream out = so.getOutputStream();
      out.write("GET /health HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
      RawHttp.Answer a = RawHttp.read(so.getInputStream());
      assertThat(a.status()).isEqualTo(408);
      assertThat(new JsonObject(a.text()).getJsonObject("error").getString("message"))
          .contains("--header-timeout-ms");
    }
  }

  @Test
  void aKeptAliveConnectionIsServedAcrossRequestsAndClosedOnceIdle() throws Exception {
    try (ServerHarness s = start(); Socket so = RawHttp.open(s.port)) {
      OutputStream out = so.getOutputStream();
      InputStream in = so.getInputStream();
      for (int i = 0; i < 3; i++) {
        out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(readHead(in)).startsWith("HTTP/1.1 200");
      }
      long t0 = System.nanoTime();
      await().atMost(Duration.ofSeconds(10)).until(() -> closedByServer(so));
      long tookMs = (System.nanoTime() - t0) / 1_000_000;
      assertThat(tookMs).isGreaterThanOrEqualTo(IDLE_MS - 200);
    }
  }

  /** Reads an answer's head and its Content-Length body. */
  static String readHead(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (!sb.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed after \"" + sb + "\"");
      }
      sb.append((char) c);
    }
    String head = sb.toString();
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        in.readNBytes(Integer.parseInt(line.substring(15).trim()));
      }
    }
    return head;
  }

  @Test
  void connectionsBeyondTheCapGet503UntilOneCloses() throws Exception {
    try (ServerHarness s = start()) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < MAX; i++) {
          Socket so = RawHttp.open(s.port);
          so.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
          assertThat(readHead(so.getInputStream())).startsWith("HTTP/1.1 200");
          held.add(so);
        }
        RawHttp.Answer over = RawHttp.send(s.port, "GET", "/v1/timers", List.of("Host: 127.0.0.1"), null);
        OpenApiValidator.served().validate(HttpMethod.GET, "/v1/timers", over.status(), over.headers(), over.body());
        assertThat(over.status()).isEqualTo(503);
        assertThat(over.header("Retry-After")).isEqualTo("1");
        assertThat(new JsonObject(over.text()).getJsonObject("error").getString("message"))
            .contains("--max-connections");
        held.remove(0).close();
        await().atMost(Duration.ofSeconds(10)).until(() ->
            RawHttp.send(s.port, "GET", "/health", List.of("Host: 127.0.0.1"), null).status() == 200);
      } finally {
        for (Socket so : held) {
          so.close();
        }
      }
    }
  }

  @Test
  void anEventStreamOutlivesTheIdleTimeoutOnItsHeartbeats() throws Exception {
    try (ServerHarness s = start(); Socket so = RawHttp.open(s.port)) {
      so.getOutputStream().write("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = so.getInputStream();
      long t0 = System.nanoTime();
      int heartbeats = 0;
      StringBuilder line = new StringBuilder();
      // heartbeats every third of the idle timeout: two idle timeouts' worth of them and the stream is still open
      while ((System.nanoTime() - t0) / 1_000_000 < 2 * IDLE_MS) {
        int c = in.read();
        assertThat(c).as("the stream ended after " + heartbeats + " heartbeats").isNotNegative();
        if (c == '\n') {
          heartbeats += line.toString().contains("heartbeat") ? 1 : 0;
          line.setLength(0);
        } else {
          line.append((char) c);
        }
      }
      assertThat(heartbeats).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void aWebSocketIsPingedAndOutlivesTheIdleTimeout() {
    try (ServerHarness s = start()) {
      WebSocketClient client = vertx.createWebSocketClient();
      AtomicInteger pings = new AtomicInteger();
      AtomicBoolean closed = new AtomicBoolean();
      WebSocket ws = TestVertx.on(vertx.getOrCreateContext(), () -> client.connect(new WebSocketConnectOptions()
          .setHost("127.0.0.1").setPort(s.port).setURI("/v1/ws")).onSuccess(w -> {
            w.frameHandler(f -> pings.addAndGet(f.isPing() ? 1 : 0));
            w.closeHandler(v -> closed.set(true));
          }));
      long t0 = System.nanoTime();
      // pings every third of the idle timeout; past two idle timeouts the socket is still open
      await().atMost(Duration.ofSeconds(20)).until(() -> (System.nanoTime() - t0) / 1_000_000 >= 2 * IDLE_MS
          && pings.get() >= 4 || closed.get());
      assertThat(closed).isFalse();
      assertThat(pings.get()).isGreaterThanOrEqualTo(4);
      TestVertx.await(ws.close());
      TestVertx.await(client.close());
    }
  }
}
