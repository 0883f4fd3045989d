package io.tickwheel.server.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.crash.FiringLog.Received;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two tiers across kill -9, end to end: the shaded jar on RocksDB with a window of one second
 * ({@code --window-ms 1000}), so timers due a few seconds ahead are far when created and are loaded as the
 * window moves. The node is killed while that loading goes on, restarted on the same data (recovery reads the window,
 * counts the rest), and killed again right after it started (recovery's own window read in flight, or not begun),
 * then started once more: every timer fires exactly once and never early, and the pending count still holds the far
 * ones.
 */
class WindowKillNineIT {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final int NEAR = 20_000;
  private static final int FAR = 1_000;

  @TempDir
  Path tmp;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<ServerProcess> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    started.forEach(ServerProcess::close);
  }

  @Test
  void timersLoadedFromTheFarTierFireExactlyOnceNeverEarlyAcrossKillNineDuringLoading() throws Exception {
    Path data = tmp.resolve("data");
    FiringLog firings = new FiringLog();
    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--store", "rocksdb", "--data-dir", data.toString(), "--port", "0", "--host", "127.0.0.1",
            "--window-ms", "1000");
    ServerProcess server = jar.logs(tmp, "server-0").startAndAwaitListening(START_TIMEOUT);
    started.add(server);
    FiringSocket socket = FiringSocket.connect(http, server.baseUrl(), firings);

    long from = System.currentTimeMillis() + 5_000;
    Map<String, Long> due = new HashMap<>();
    for (int b = 0; b < NEAR / 5_000; b++) {
      JsonArray ts = new JsonArray();
      for (int i = b * 5_000; i < (b + 1) * 5_000; i++) {
        long at = from + (long) i * 5_000 / NEAR;           // due over 5 s, from 5 s ahead: far when created
        due.put("n" + i, at);
        ts.add(new JsonObject().put("id", "n" + i).put("topic", "w").put("at", at));
      }
      post(server.baseUrl(), ts);
    }
    JsonArray far = new JsonArray();
    for (int i = 0; i < FAR; i++) {
      far.add(new JsonObject().put("id", "far" + i).put("topic", "w").put("at", from + 3_600_000 + i));
    }
    post(server.baseUrl(), far);
    long pendingNow = pending(server.baseUrl());
    if (System.currentTimeMillis() < from) {
      // read before the first due time (a loaded machine may take longer to post them): nothing has fired yet
      assertThat(pendingNow).isEqualTo(NEAR + FAR);
    }
    assertThat(pendingNow).isBetween((long) FAR, (long) NEAR + FAR);
    assertThat(far(server.baseUrl())).as("timers in the far tier").isGreaterThanOrEqualTo(FAR);

    // kill -9 in the middle of the stretch the window is loading and firing
    long killAt = from + 2_000;
    Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5))
        .until(() -> System.currentTimeMillis() >= killAt);
    socket.expectDrop();
    server.kill9();
    socket.abort();
    int firedBeforeKill = firings.firings().size();
    assertThat(firedBeforeKill).as("firings before the kill: the window was loading and firing").isBetween(1, NEAR - 1);
    // restart, and kill again at once: recovery's window read may be in flight
    ServerProcess second = jar.logs(tmp, "server-1").start();
    started.add(second);
    second.kill9();
    server = jar.logs(tmp, "server-2").startAndAwaitListening(START_TIMEOUT);
    started.add(server);
    long readyAt = System.currentTimeMillis();
    socket = FiringSocket.connect(http, server.baseUrl(), firings);

    Awaitility.await("every near timer fired").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> firings.firings().stream().map(Received::id).distinct().count() >= NEAR);
    Map<String, Integer> counts = new HashMap<>();
    for (Received r : firings.firings()) {
      counts.merge(r.id(), 1, Integer::sum);
      assertThat(r.id()).as("a far timer fired").startsWith("n");
      assertThat(r.firedAt()).as("%s fired early", r.id()).isGreaterThanOrEqualTo(due.get(r.id()));
      assertThat(r.dueAt()).as("%s's due time", r.id()).isEqualTo(due.get(r.id()));
    }
    assertThat(counts).hasSize(NEAR);
    assertThat(counts.values()).allMatch(c -> c == 1, "each fired once");
    assertThat(firings.violations()).isEmpty();
    assertThat(readyAt).isGreaterThan(killAt);
    assertThat(pending(server.baseUrl())).isEqualTo(FAR);
    assertThat(far(server.baseUrl())).isEqualTo(FAR);
    socket.expectDrop();
    socket.abort();
    server.stop(Duration.ofSeconds(10));
  }

  private void post(String baseUrl, JsonArray timers) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/timers/batch"))
        .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("timers", timers).encode())).build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    for (Object o : new JsonObject(r.body()).getJsonArray("results")) {
      assertThat(((JsonObject) o).getInteger("status")).as(String.valueOf(o)).isEqualTo(201);
    }
  }

  private long pending(String baseUrl) throws Exception {
    return wheel(baseUrl).getLong("pending");
  }

  private long far(String baseUrl) throws Exception {
    return wheel(baseUrl).getJsonObject("far").getLong("count");
  }

  private JsonObject wheel(String baseUrl) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/wheel")).timeout(Duration.ofSeconds(10))
        .GET().build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }
}
