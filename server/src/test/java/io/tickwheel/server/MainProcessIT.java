package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Main} as a child process: the listening line, exit codes for bad flags and a non-loopback host without
 * token, SIGTERM ({@link Process#destroy()}) exiting 0 within 5 s with the store flushed.
 */
class MainProcessTest {

  static final Pattern LISTENING = Pattern.compile("^tickwheel listening on http://127\\.0\\.0\\.1:(\\d+)$");
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path tmp;

  static ProcessBuilder main(String... args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("TICKWHEEL_"));
    return pb;
  }

  /** Starts Main and waits (at most 60 s) for its listening line; returns the port. */
  static int awaitListening(Process p) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
      try {
        String line;
        while ((line = out.readLine()) != null) {
          Matcher m = LISTENING.matcher(line);
          if (m.matches()) {
            return Integer.parseInt(m.group(1));
          }
        }
        throw new IllegalStateException("stdout ended without the listening line");
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    });
    return port.get(60, TimeUnit.SECONDS);
  }

  HttpResponse<String> send(String method, int port, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void printsTheListeningLineOnceReadyAndExitsZeroWithinFiveSecondsOnSigterm() throws Exception {
    Process p = main("--port", "0", "--store", "rocksdb", "--data-dir", tmp.resolve("data").toString())
        .redirectError(tmp.resolve("err.txt").toFile()).start();
    try {
      int port = awaitListening(p);
      assertThat(send("GET", port, "/health", null).statusCode()).isEqualTo(200);   // listening means recovered
      assertThat(send("PUT", port, "/v1/timers/durable", "{\"delayMs\":3600000,\"payload\":{\"k\":1}}").statusCode())
          .isEqualTo(201);
      long t0 = System.nanoTime();
      p.destroy();                                                                  // SIGTERM
      assertThat(p.waitFor(5, TimeUnit.SECONDS)).as("exited within 5 s").isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5000);
    } finally {
      p.destroyForcibly();
    }
    // the store was flushed and closed: a restart on the same directory finds the timer
    Process again = main("--port", "0", "--store", "rocksdb", "--data-dir", tmp.resolve("data").toString())
        .redirectError(tmp.resolve("err2.txt").toFile()).start();
    try {
      int port = awaitListening(again);
      HttpResponse<String> r = send("GET", port, "/v1/timers/durable", null);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("\"payload\":{\"k\":1}");
      again.destroy();
      assertThat(again.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(again.exitValue()).isZero();
    } finally {
      again.destroyForcibly();
    }
  }

  @Test
  void aBadFlagPrintsOneLineOnStderrAndExitsTwo() throws Exception {
    File err = tmp.resolve("bad.txt").toFile();
    Process p = main("--port", "eighty").redirectError(err).redirectOutput(tmp.resolve("o.txt").toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    List<String> lines = java.nio.file.Files.readAllLines(err.toPath());
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).startsWith("tickwheel: ").contains("--port").contains("eighty");
  }

  @Test
  void aNonLoopbackHostWithoutATokenRefusesToStart() throws Exception {
    File err = tmp.resolve("host.txt").toFile();
    Process p = main("--host", "0.0.0.0", "--port", "0", "--store", "memory").redirectError(err)
        .redirectOutput(tmp.resolve("o.txt").toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(java.nio.file.Files.readString(err.toPath())).contains("non-loopback").contains("--token");
    assertThat(java.nio.file.Files.readString(tmp.resolve("o.txt"))).doesNotContain("listening");
  }
}
