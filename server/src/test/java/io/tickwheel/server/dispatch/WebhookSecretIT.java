package io.tickwheel.server.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook secret and the callback flags on the shaded jar: a generated secret survives kill -9 in RocksDB and in
 * Redis, a configured one is shown as given and never logged, a bad one stops the start naming the flag, and the
 * server refuses literal private callback hosts unless told otherwise.
 */
class WebhookSecretIT {

  static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  static final String TOKEN = "it-token-0123";
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path tmp;

  ServerProcess.Launcher main(String name, String... args) {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1").args(args).logs(tmp, name);
  }

  HttpResponse<String> send(String method, String base, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TOKEN)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  String secretOf(ServerProcess p) throws Exception {
    HttpResponse<String> r = send("GET", p.baseUrl(), "/v1/webhook-secret", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getString("secret");
  }

  void generatedSecretSurvivesKill9(List<String> storeFlags) throws Exception {
    String first;
    try (ServerProcess p = main("first", "--port", "0", "--token", TOKEN).args(storeFlags)
        .startAndAwaitListening(START_TIMEOUT)) {
      first = secretOf(p);
      assertThat(WebhookSecret.parse(first).key()).hasSize(WebhookSecret.GENERATED_BYTES);
      p.kill9();
      assertThat(p.waitForExit(Duration.ofSeconds(10))).isTrue();
      assertThat(p.stdout() + p.stderr()).doesNotContain(first.substring(6));
    }
    try (ServerProcess again = main("again", "--port", "0", "--token", TOKEN).args(storeFlags)
        .startAndAwaitListening(START_TIMEOUT)) {
      assertThat(secretOf(again)).as("the stored secret, not a new one").isEqualTo(first);
    }
  }

  @Test
  void aGeneratedSecretIsKeptInRocksDbAcrossKill9() throws Exception {
    generatedSecretSurvivesKill9(List.of("--store", "rocksdb", "--data-dir", tmp.resolve("data").toString()));
  }

  @Test
  void aGeneratedSecretIsKeptInRedisAcrossKill9() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.startWithAof("always")) {
      generatedSecretSurvivesKill9(List.of("--store", "redis", "--redis", redis.uri()));
    }
  }

  @Test
  void aConfiguredSecretFromTheEnvironmentIsShownAndNeverLogged() throws Exception {
    String configured = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    try (ServerProcess p = main("env", "--port", "0", "--token", TOKEN, "--store", "memory")
        .env("TICKWHEEL_WEBHOOK_SECRET", configured).startAndAwaitListening(START_TIMEOUT)) {
      assertThat(secretOf(p)).isEqualTo(configured);
      assertThat(p.stdout() + p.stderr()).doesNotContain("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    }
  }

  @Test
  void aBadSecretStopsTheStartNamingTheFlagWithoutEchoingIt() {
    try (ServerProcess p = main("bad", "--port", "0", "--store", "memory", "--webhook-secret",
        "whsec_dG9vLXNob3J0").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      assertThat(p.stderr()).contains("--webhook-secret").contains("decodes to 9 bytes")
          .doesNotContain("dG9vLXNob3J0");
    }
  }

  @Test
  void literalPrivateCallbackHostsAreRefusedUnlessAllowed() throws Exception {
    String body = "{\"delayMs\":60000,\"callback\":{\"url\":\"http://0x7f000001:9/hook\"}}";
    try (ServerProcess strict = main("strict", "--port", "0", "--token", TOKEN, "--store", "memory")
        .startAndAwaitListening(START_TIMEOUT)) {
      HttpResponse<String> r = send("POST", strict.baseUrl(), "/v1/timers", body);
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(new JsonObject(r.body()).getJsonObject("error").getString("field")).isEqualTo("callback.url");
    }
    try (ServerProcess open = main("open", "--port", "0", "--token", TOKEN, "--store", "memory",
        "--webhook-allow-cidr", "127.0.0.0/8").startAndAwaitListening(START_TIMEOUT)) {
      HttpResponse<String> r = send("POST", open.baseUrl(), "/v1/timers", body);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      assertThat(new JsonObject(r.body()).getJsonObject("callback").getString("url"))
          .isEqualTo("http://0x7f000001:9/hook");
    }
  }
}
