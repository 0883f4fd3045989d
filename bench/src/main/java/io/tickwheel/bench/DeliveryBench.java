package io.tickwheel.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Callback delivery throughput and latency against the shaded server jar in a child process: N timers due within
 * one second, each POSTed to a fast receiver on loopback (in this JVM); optionally M more due in the same second to a
 * receiver that never answers (another host), beside them. Reports deliveries/s, due→receipt p50/p99/max, and the
 * server's CPU (user+system from /proc) per timer, against the same timers without a callback in the same run.
 *
 * <p>Usage: {@code DeliveryBench --jar server/target/tickwheel.jar [--count 10000] [--hanging 1000]
 * [--store memory] [--rounds 3]}
 */
public final class DeliveryBench {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicInteger received = new AtomicInteger();
  private final List<long[]> receipts = new ArrayList<>(); // {dueAt, receivedAt}
  private String base;

  public static void main(String[] args) throws Exception {
    String jar = "server/target/tickwheel.jar";
    int count = 10_000;
    int hanging = 1000;
    String store = "memory";
    int rounds = 3;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--jar" -> jar = args[i + 1];
        case "--count" -> count = Integer.parseInt(args[i + 1]);
        case "--hanging" -> hanging = Integer.parseInt(args[i + 1]);
        case "--store" -> store = args[i + 1];
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    new DeliveryBench().run(Path.of(jar), count, hanging, store, rounds);
  }

  private void run(Path jar, int count, int hanging, String store, int rounds) throws Exception {
    Vertx vertx = Vertx.vertx();
    HttpServer fast = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      long now = System.currentTimeMillis();
      String s = b.toString();
      int i = s.indexOf("\"dueAt\":") + 8;
      long due = Long.parseLong(s.substring(i, s.indexOf(',', i)));
      synchronized (receipts) {
        receipts.add(new long[] {due, now});
      }
      received.incrementAndGet();
      req.response().setStatusCode(204).end();
    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    HttpServer hang = vertx.createHttpServer().requestHandler(req -> { })
        .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    String fastUrl = "http://127.0.0.1:" + fast.actualPort() + "/hook";
    String hangUrl = "http://localhost:" + hang.actualPort() + "/hook";

    int port;
    try (ServerSocket ss = new ServerSocket(0)) {
      port = ss.getLocalPort();
    }
    Path dir = Files.createTempDirectory("delivery-bench");
    Process server = new ProcessBuilder("java", "-Xmx1g", "-jar", jar.toString(), "--store", store, "--data-dir",
        dir.resolve("data").toString(), "--port", Integer.toString(port), "--host", "127.0.0.1",
        "--webhook-allow-private", "--max-pending", "1000000")
        .redirectOutput(dir.resolve("server.out").toFile()).redirectError(dir.resolve("server.err").toFile()).start();
    base = "http://127.0.0.1:" + port;
    try {
      awaitHealth();
      System.out.printf("store %s, %d timers due within 1 s per phase, %d hanging beside in phase 'hanging'%n",
          store, count, hanging);
      System.out.println("round phase        deliveries/s  p50_ms  p99_ms  max_ms  cpu_ms  cpu_us_per_timer");
      for (int r = 1; r <= rounds; r++) {
        phase(r, "no-callback", server.pid(), count, null, 0, null);
        phase(r, "callback", server.pid(), count, fastUrl, 0, null);
        phase(r, "hanging", server.pid(), count, fastUrl, hanging, hangUrl);
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
      vertx.close();
    }
  }

  private void phase(int round, String name, long pid, int count, String url, int hanging, String hangUrl)
      throws Exception {
    synchronized (receipts) {
      receipts.clear();
    }
    received.set(0);
    long firedBefore = firedTotal();
    long firstDue = System.currentTimeMillis() + 4000;
    List<JsonObject> timers = new ArrayList<>(count + hanging);
    for (int i = 0; i < count; i++) {
      timers.add(timer(firstDue + (long) i * 1000 / count, url, 10_000));
    }
    for (int i = 0; i < hanging; i++) {
      timers.add(timer(firstDue + (long) i * 1000 / Math.max(1, hanging), hangUrl, 10_000));
    }
    for (int from = 0; from < timers.size(); from += 1000) {
      JsonArray batch = new JsonArray(new ArrayList<>(timers.subList(from, Math.min(timers.size(), from + 1000))));
      HttpResponse<String> resp = post("/v1/timers/batch", new JsonObject().put("timers", batch).encode());
      if (resp.statusCode() != 200) {
        throw new IllegalStateException("batch create: " + resp.statusCode() + " " + resp.body());
      }
    }
    if (System.currentTimeMillis() > firstDue - 500) {
      throw new IllegalStateException("creating the timers took too long to measure from before the first due time");
    }
    Thread.sleep(firstDue - 300 - System.currentTimeMillis());
    long cpu0 = cpuMs(pid);
    long deadline = firstDue + 60_000;
    if (url == null) {
      while (firedTotal() - firedBefore < count + hanging && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
    } else {
      while (received.get() < count && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
    }
    long cpu1 = cpuMs(pid);
    long cpuMs = cpu1 - cpu0;
    if (url == null) {
      System.out.printf("%5d %-12s %13s %7s %7s %7s %7d %17.1f%n", round, name, "-", "-", "-", "-", cpuMs,
          cpuMs * 1000.0 / count);
    } else {
      long[] lat;
      long lastReceipt;
      synchronized (receipts) {
        lat = receipts.stream().mapToLong(x -> x[1] - x[0]).sorted().toArray();
        lastReceipt = receipts.stream().mapToLong(x -> x[1]).max().orElse(0);
      }
      double perSec = lat.length * 1000.0 / Math.max(1, lastReceipt - firstDue);
      System.out.printf("%5d %-12s %13.0f %7d %7d %7d %7d %17.1f%s%n", round, name, perSec, pct(lat, 50), pct(lat, 99),
          lat.length == 0 ? 0 : lat[lat.length - 1], cpuMs, cpuMs * 1000.0 / count,
          lat.length < count ? "  (only " + lat.length + " received)" : "");
    }
    // let the hanging attempts time out and the server settle before the next phase
    Thread.sleep(hanging > 0 ? 11_000 : 1000);
  }

  private static long pct(long[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  private static JsonObject timer(long at, String url, int timeoutMs) {
    JsonObject t = new JsonObject().put("at", at).put("payload", new JsonObject().put("k", "v"));
    if (url != null) {
      t.put("callback", new JsonObject().put("url", url).put("timeoutMs", timeoutMs).put("maxAttempts", 1));
    }
    return t;
  }

  /** User + system CPU of {@code pid}, ms, from /proc (clock ticks of 10 ms). */
  private static long cpuMs(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
  }

  private long firedTotal() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
        HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body()).getLong("firedTotal");
  }

  private void awaitHealth() throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) {
      try {
        if (http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the server did not become healthy");
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
