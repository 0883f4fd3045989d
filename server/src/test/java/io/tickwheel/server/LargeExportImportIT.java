package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large import and export streamed through the real jar on RocksDB with a heap smaller than the data: 120,000
 * timers of 1 KiB payload each (about 135 MiB of NDJSON) go in as one streamed request and come out as one streamed
 * answer through a server limited to {@value #HEAP}. Were either side buffered, the server would run out of heap;
 * both complete, every timer exactly once.
 */
class LargeExportImportIT {

  static final int N = 120_000;
  static final String HEAP = "-Xmx96m";

  @TempDir
  Path tmp;
  ServerProcess server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** The NDJSON of timer {@code i}: a once timer an hour or more ahead, 1 KiB of payload. */
  static byte[] line(int i, long base, String pad) {
    return ("{\"id\":\"bulk-" + i + "\",\"topic\":\"bulk\",\"delayMs\":3600000,\"payload\":{\"i\":" + i
        + ",\"pad\":\"" + pad + "\"},\"nextDueAt\":" + (base + i) + ",\"firings\":0,\"createdAt\":" + base
        + ",\"paused\":false}\n").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aHundredAndTwentyThousandTimersGoInAndComeOutStreamedThroughA96MiBHeap() throws Exception {
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs(HEAP, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError")
        .args("--store", "rocksdb", "--data-dir", tmp.resolve("data").toString(), "--port", "0", "--host",
            "127.0.0.1")
        .logs(tmp, "large").startAndAwaitListening(Duration.ofSeconds(40));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long base = System.currentTimeMillis() + 3_600_000;
    String pad = "x".repeat(1000);
    // generated as it is sent: the test holds no more of it than the server should
    Iterator<Integer> next = Stream.iterate(0, i -> i + 1).limit(N).iterator();
    Enumeration<InputStream> lines = new Enumeration<>() {
      @Override
      public boolean hasMoreElements() {
        return next.hasNext();
      }

      @Override
      public InputStream nextElement() {
        return new ByteArrayInputStream(line(next.next(), base, pad));
      }
    };
    HttpResponse<String> imported = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/import"))
        .timeout(Duration.ofMinutes(5)).header("content-type", "application/x-ndjson")
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(lines))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    assertThat(new JsonObject(imported.body()).getLong("imported")).as(imported.body()).isEqualTo(N);

    HttpResponse<Stream<String>> exported = http.send(HttpRequest.newBuilder(
        URI.create(server.baseUrl() + "/v1/export")).timeout(Duration.ofMinutes(5)).GET().build(),
        HttpResponse.BodyHandlers.ofLines());
    assertThat(exported.statusCode()).isEqualTo(200);
    Set<String> ids = new HashSet<>(N * 2);
    long[] bytes = {0};
    try (Stream<String> s = exported.body()) {
      s.forEach(l -> {
        bytes[0] += l.length() + 1;
        JsonObject t = new JsonObject(l);
        int i = Integer.parseInt(t.getString("id").substring(5));
        assertThat(t.getLong("nextDueAt")).isEqualTo(base + i);
        assertThat(t.getJsonObject("payload").getInteger("i")).isEqualTo(i);
        assertThat(ids.add(t.getString("id"))).isTrue();
      });
    }
    System.out.println("LargeExportImportIT: " + N + " timers, " + (bytes[0] >> 20) + " MiB of NDJSON each way through "
        + HEAP);
    assertThat(ids).hasSize(N);
    assertThat(server.isAlive()).isTrue();
  }
}
