package io.tickwheel.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.tickwheel.testkit.TestCertificates;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar on a Redis reached over TLS only ({@code --redis rediss://…}, a redis-server with {@code --tls-port} and a
 * certificate of the test's CA): with {@code --tls-ca} it verifies Redis and keeps timers there (a timer fires, one
 * survives a kill -9 of the server); without it, the JVM's trust store does not know the CA and the server does not
 * start.
 */
class RedisTlsIT {

  @TempDir
  static Path tmp;
  static TestCertificates certs;
  static RedisServerProcess redis;
  static int tlsPort;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    certs = TestCertificates.create(tmp.resolve("certs"));
    TestCertificates.Pair pair = certs.issue("redis");
    tlsPort = RedisServerProcess.freePort(false);
    redis = RedisServerProcess.startWith(RedisServerProcess.freePort(false), null, List.of("--save", "",
        "--appendonly", "no", "--tls-port", String.valueOf(tlsPort), "--tls-cert-file", pair.cert().toString(),
        "--tls-key-file", pair.key().toString(), "--tls-ca-cert-file", certs.ca().toString(),
        "--tls-auth-clients", "no"));
  }

  @AfterAll
  static void stop() {
    if (redis != null) {
      redis.close();
    }
  }

  ServerProcess.Launcher jar(String name, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("--port", "0", "--store", "redis",
        "--redis", "rediss://127.0.0.1:" + tlsPort));
    args.addAll(List.of(extra));
    return ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args(args).logs(tmp, name);
  }

  int send(String base, String method, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void timersAreKeptInARedisReachedOverVerifiedTls() throws Exception {
    try (ServerProcess s = jar("rediss", "--tls-ca", certs.ca().toString()).startAndAwaitListening(Duration.ofSeconds(60))) {
      assertThat(send(s.baseUrl(), "PUT", "/v1/timers/over-rediss", "{\"delayMs\":300}")).isEqualTo(201);
      assertThat(send(s.baseUrl(), "PUT", "/v1/timers/kept-rediss", "{\"delayMs\":3600000}")).isEqualTo(201);
      // the once timer fires and is gone
      Awaitility.await().atMost(Duration.ofSeconds(15))
          .until(() -> send(s.baseUrl(), "GET", "/v1/timers/over-rediss", null) == 404);
      s.kill9();
    }
    assertThat(redis.command("DBSIZE")).doesNotContain(":0");
    try (ServerProcess again = jar("rediss-again", "--tls-ca", certs.ca().toString())
        .startAndAwaitListening(Duration.ofSeconds(60))) {
      assertThat(send(again.baseUrl(), "GET", "/v1/timers/kept-rediss", null)).isEqualTo(200);
    }
  }

  @Test
  void withoutTheCaRedisIsNotTrustedAndTheServerDoesNotStart() {
    try (ServerProcess s = jar("rediss-untrusted").start()) {
      assertThat(s.waitForExit(Duration.ofSeconds(60))).as(s.describe()).isTrue();
      assertThat(s.exitValue()).as(s.describe()).isEqualTo(1);
      assertThat(s.stderr()).contains("cannot start");
    }
  }
}
