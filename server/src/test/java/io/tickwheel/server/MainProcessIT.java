package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.ServerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar ({@code server/target/tickwheel.jar}, {@code java -jar}) as a child process: the listening line,
 * exit codes for bad flags and a non-loopback host without token, SIGTERM exiting 0 within 5 s with the store
 * flushed.
 */
class MainProcessIT {

  static final Pattern LOOPBACK_URL = Pattern.compile("http://127\\.0\\.0\\.1:\\d+");
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path tmp;

  /** The jar with the test JVM flags, output to {@code tmp/name.out} and {@code tmp/name.err}. */
  ServerProcess.Launcher main(String name, String... args) {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1").args(args).logs(tmp, name);
  }

  HttpResponse<String> send(String method, String base, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(10))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void printsTheListeningLineOnceReadyAndExitsZeroWithinFiveSecondsOnSigterm() throws Exception {
    String data = tmp.resolve("data").toString();
    try (ServerProcess p = main("first", "--port", "0", "--store", "rocksdb", "--data-dir", data)
        .startAndAwaitListening(START_TIMEOUT)) {
      String base = p.baseUrl();
      assertThat(base).matches(LOOPBACK_URL);
      assertThat(send("GET", base, "/health", null).statusCode()).isEqualTo(200);   // listening means recovered
      assertThat(send("PUT", base, "/v1/timers/durable", "{\"delayMs\":3600000,\"payload\":{\"k\":1}}").statusCode())
          .isEqualTo(201);
      long t0 = System.nanoTime();
      p.sigterm();
      assertThat(p.waitForExit(Duration.ofSeconds(5))).as("exited within 5 s; %s", p.describe()).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isZero();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5000);
      assertThat(p.stdout().lines().filter(l -> l.contains("listening"))).as("one listening line").hasSize(1);
      assertThat(p.stderr()).as("a clean shutdown logs no exception; %s", p.describe()).doesNotContain("Exception");
    }
    // the store was flushed and closed: a restart on the same directory finds the timer
    try (ServerProcess again = main("again", "--port", "0", "--store", "rocksdb", "--data-dir", data)
        .startAndAwaitListening(START_TIMEOUT)) {
      HttpResponse<String> r = send("GET", again.baseUrl(), "/v1/timers/durable", null);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("\"payload\":{\"k\":1}");
      again.sigterm();
      assertThat(again.waitForExit(Duration.ofSeconds(5))).as(again.describe()).isTrue();
      assertThat(again.exitValue()).as(again.describe()).isZero();
    }
  }

  @Test
  void aBadFlagPrintsOneLineOnStderrAndExitsTwo() {
    try (ServerProcess p = main("bad", "--port", "eighty").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      List<String> lines = p.stderr().lines().toList();
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0)).startsWith("tickwheel: ").contains("--port").contains("eighty");
    }
  }

  @Test
  void aNonLoopbackHostWithoutATokenRefusesToStart() {
    try (ServerProcess p = main("host", "--host", "0.0.0.0", "--port", "0", "--store", "memory").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      assertThat(p.stderr()).contains("non-loopback").contains("--token");
      assertThat(p.stdout()).doesNotContain("listening");
    }
  }
}
