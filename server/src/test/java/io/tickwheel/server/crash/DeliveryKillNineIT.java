package io.tickwheel.server.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import com.standardwebhooks.Webhook;
import com.sun.net.httpserver.HttpServer;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callback deliveries survive kill -9, end to end: the shaded jar ({@code --store rocksdb}, private addresses
 * allowed) fires timers whose callbacks go to a receiver in this JVM that fails (500) or never answers; once every
 * delivery was attempted at least once, the server is killed with SIGKILL, the receiver starts answering 200, and
 * the server is restarted on the same data: every delivery is then delivered, with the same {@code webhook-id} and a
 * signature the official verifier accepts under the secret the store kept.
 */
class DeliveryKillNineIT {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  /** Few enough that their failures before the kill stay under the host breaker's 10. */
  private static final int FAILING = 4;
  private static final int HANGING = 5;

  @TempDir
  Path tmp;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<ServerProcess> started = new ArrayList<>();
  private HttpServer receiver;

  /** Per webhook-id, each request received: its status answered (0: not answered) and whether it verified. */
  private final Map<String, List<Integer>> got = new HashMap<>();
  private final List<String[]> signed = new ArrayList<>();
  private final AtomicBoolean healthy = new AtomicBoolean();

  @AfterEach
  void cleanUp() {
    started.forEach(ServerProcess::close);
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  @Test
  void pendingDeliveriesContinueAfterKillNineWithTheirWebhookIds() throws Exception {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.setExecutor(Executors.newCachedThreadPool());
    receiver.createContext("/", ex -> {
      byte[] body = ex.getRequestBody().readAllBytes();
      String id = ex.getRequestHeaders().getFirst("webhook-id");
      boolean ok = healthy.get();
      boolean hang = !ok && ex.getRequestURI().getPath().equals("/hang");
      synchronized (got) {
        got.computeIfAbsent(id, k -> new ArrayList<>()).add(ok ? 200 : hang ? 0 : 500);
        signed.add(new String[] {id, ex.getRequestHeaders().getFirst("webhook-timestamp"),
            ex.getRequestHeaders().getFirst("webhook-signature"), new String(body, StandardCharsets.UTF_8)});
      }
      if (hang) {
        return; // never answered: the server's attempt times out (or the server dies first)
      }
      ex.sendResponseHeaders(ok ? 200 : 500, -1);
      ex.close();
    });
    receiver.start();
    // the hanging ones by name: another host for the per-host cap and breaker
    String base = "http://127.0.0.1:" + receiver.getAddress().getPort();
    String hangBase = "http://localhost:" + receiver.getAddress().getPort();

    Path data = tmp.resolve("data");
    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--store", "rocksdb", "--data-dir", data.toString(), "--port", "0", "--host", "127.0.0.1",
            "--webhook-allow-private");
    ServerProcess server = jar.logs(tmp, "server-0").startAndAwaitListening(START_TIMEOUT);
    started.add(server);
    String secretBefore = secret(server.baseUrl());

    for (int i = 0; i < FAILING + HANGING; i++) {
      String url = i < FAILING ? base + "/fail" : hangBase + "/hang";
      String body = "{\"id\":\"cb-" + i + "\",\"delayMs\":0,\"payload\":{\"i\":" + i + "},\"callback\":{\"url\":\""
          + url + "\",\"timeoutMs\":20000,\"maxAttempts\":20,\"minBackoffMs\":300,\"maxBackoffMs\":600}}";
      HttpResponse<String> r = post(server.baseUrl() + "/v1/timers", body);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }
    // every delivery attempted at least once (the failing ones retried: their records were written)
    Awaitility.await("every delivery attempted, the failing ones twice").atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(50)).untilAsserted(() -> assertThat(
            distinctIds() >= FAILING + HANGING && minAttemptsOfFailing() >= 2).as("first attempts, got %s", got)
            .isTrue());
    JsonArray pendingBefore = list(server.baseUrl(), "pending");
    assertThat(pendingBefore).as("all pending before the kill").hasSize(FAILING + HANGING);
    Set<String> ids = new HashSet<>();
    pendingBefore.forEach(o -> ids.add(((JsonObject) o).getString("id")));

    server.kill9();
    healthy.set(true);
    server = jar.logs(tmp, "server-1").startAndAwaitListening(START_TIMEOUT);
    started.add(server);
    assertThat(secret(server.baseUrl())).as("the generated secret is kept in the store").isEqualTo(secretBefore);

    ServerProcess restarted = server;
    Awaitility.await("every delivery succeeded after the restart").atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(list(restarted.baseUrl(), "succeeded"))
            .as("deliveries after the restart: %s", got).hasSizeGreaterThanOrEqualTo(FAILING + HANGING));
    JsonArray done = list(server.baseUrl(), "succeeded");
    Set<String> doneIds = new HashSet<>();
    for (Object o : done) {
      JsonObject d = (JsonObject) o;
      doneIds.add(d.getString("id"));
      JsonArray attempts = d.getJsonArray("attempts");
      assertThat(attempts.getJsonObject(attempts.size() - 1).getInteger("status")).isEqualTo(200);
      if (d.getString("url").endsWith("/fail")) {
        assertThat(attempts.size()).as("the attempts made before the kill are kept: %s", d).isGreaterThanOrEqualTo(2);
      }
    }
    assertThat(doneIds).isEqualTo(ids);
    assertThat(list(server.baseUrl(), "pending")).isEmpty();
    synchronized (got) {
      assertThat(got.keySet()).isEqualTo(ids);
      for (String id : ids) {
        assertThat(got.get(id)).as("%s ends with a 200", id).endsWith(200);
      }
      Webhook verifier = new Webhook(secretBefore);
      for (String[] s : signed) {
        Map<String, List<String>> h = Map.of("webhook-id", List.of(s[0]), "webhook-timestamp", List.of(s[1]),
            "webhook-signature", List.of(s[2]));
        assertThatNoException().as("signature of %s", s[0]).isThrownBy(() -> verifier.verify(s[3], h));
      }
    }
    server.stop(Duration.ofSeconds(10));
  }

  private int distinctIds() {
    synchronized (got) {
      return got.size();
    }
  }

  private int minAttemptsOfFailing() {
    synchronized (got) {
      return got.values().stream().filter(l -> !l.contains(0)).mapToInt(List::size).min().orElse(0);
    }
  }

  private String secret(String base) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/webhook-secret"))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body()).getString("secret");
  }

  private JsonArray list(String base, String state) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/deliveries?limit=1000&state="
        + state)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getJsonArray("deliveries");
  }

  private HttpResponse<String> post(String url, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
