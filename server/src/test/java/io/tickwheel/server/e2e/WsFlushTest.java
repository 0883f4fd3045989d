package io.tickwheel.server.e2e;

import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A turn's firings reach a WebSocket subscriber in a few large writes, not one {@code write(2)} per firing: read
 * over a raw TCP socket (no WebSocket client in between), counting the reads it takes.
 */
class WsFlushTest {

  static final int TIMERS = 2_000;
  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @Test
  void aTurnOfTwoThousandFiringsReachesTheSubscriberInAFewWritesNotOnePerFiring() throws Exception {
    ServerConfig cfg = ServerConfig.defaults().withStore("memory");
    ServerHarness s = ServerHarness.start(vertx, cfg, new MemoryTimerStore());
    NetClient net = vertx.createNetClient();
    try {
      NetSocket so = TestVertx.await(net.connect(s.port, "127.0.0.1"));
      Buffer all = Buffer.buffer();
      AtomicInteger reads = new AtomicInteger();
      so.handler(b -> {
        synchronized (all) {
          reads.incrementAndGet();
          all.appendBuffer(b);
        }
      });
      so.write("GET /v1/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + (cfg.token() == null ? "" : "Authorization: Bearer " + cfg.token() + "\r\n") + "\r\n");
      byte[] sub = "{\"op\":\"subscribe\",\"topics\":[\"flushes\"]}".getBytes(StandardCharsets.UTF_8);
      Buffer frame = Buffer.buffer().appendByte((byte) 0x81).appendByte((byte) (0x80 | sub.length))
          .appendInt(0).appendBytes(sub);                        // masked with 0000: the payload as is
      Awaitility.await("the upgrade is answered").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
          .until(() -> text(all).contains("\r\n\r\n"));
      assertThat(text(all)).startsWith("HTTP/1.1 101");
      so.write(frame);
      Awaitility.await("the subscription is acknowledged").atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(5)).until(() -> text(all).contains("\"subscribed\""));

      long at = System.currentTimeMillis() + 1500;
      JsonArray timers = new JsonArray();
      for (int i = 0; i < TIMERS; i++) {
        timers.add(new JsonObject().put("id", "fl-" + i).put("topic", "flushes").put("at", at));
      }
      int before;
      synchronized (all) {
        before = reads.get();
      }
      var r = TestVertx.await(s.request(POST, "/v1/timers/batch").sendJsonObject(new JsonObject().put("timers", timers)));
      assertThat(r.statusCode()).isEqualTo(200);
      Awaitility.await("every firing arrives").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
          .until(() -> count(text(all), "\"topic\":\"flushes\"") == TIMERS);
      int firingReads = reads.get() - before;
      // one flush per 256 messages and one at the end of the turn: ~8 writes for 2,000 firings (a read may take
      // less than a write, or two writes together); one flush per firing took 778 reads here
      assertThat(firingReads).as("reads for " + TIMERS + " firings").isLessThan(100);
    } finally {
      TestVertx.await(net.close());
      s.close();
    }
  }

  static String text(Buffer b) {
    synchronized (b) {
      return b.toString(StandardCharsets.ISO_8859_1);
    }
  }

  static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
      n++;
    }
    return n;
  }


}
