package io.tickwheel.server.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.crash.FiringLog.Received;
import io.tickwheel.testkit.ServerProcess;
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
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash durability end to end: the shaded jar ({@code --store rocksdb}) in a child process is killed with
 * SIGKILL at a random moment while timers are being created at a steady rate and a WebSocket subscriber
 * receives firings; it is restarted on the same data directory and the subscriber resumes from the last seq
 * it saw. Several rounds, then checks: every timer that got a 2xx is still there or has fired; one-shot timers
 * fire exactly once; firing seqs arrive 1, 2, 3, … with no gap and no repeat across restarts; nothing fires
 * before its due time; timers that came due while the server was down fire right after it recovered.
 */
class KillNineRecoveryIT {

  private static final int KILL_ROUNDS = 4;
  /** Lateness allowed after the due time, or after recovery for a timer due while the server was down. */
  private static final long WINDOW_MS = 5_000;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  @TempDir
  Path tmp;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  /** Every server process this test started: none outlives it, whatever failed. */
  private final List<ServerProcess> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    started.forEach(ServerProcess::close);
  }

  /** A timer the server accepted (2xx): what it answered. */
  record Accepted(String id, String kind, long firstDueAt, long maxFirings, long acceptedAtMs) {
    boolean once() {
      return kind.equals("once");
    }
  }

  /** One server process: launched, recovered (listening line), killed (or {@code Long.MAX_VALUE}), epoch ms. */
  record Run(long startedAtMs, long readyAtMs, long killedAtMs) {}

  @Test
  void acceptedTimersSurviveKillNineAndFireExactlyOnceInSeqOrderNeverEarly() throws Exception {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String why = "seed " + seed + ", logs in " + tmp;
    Path data = tmp.resolve("data");
    FiringLog firings = new FiringLog();
    Map<String, Accepted> accepted = new ConcurrentHashMap<>();
    List<Run> runs = new ArrayList<>();
    AtomicInteger attempted = new AtomicInteger();
    AtomicInteger failedRequests = new AtomicInteger();

    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--store", "rocksdb", "--data-dir", data.toString(), "--port", "0", "--host", "127.0.0.1");
    ServerProcess server = jar.logs(tmp, "server-0").startAndAwaitListening(START_TIMEOUT);
    started.add(server);
    FiringSocket socket = FiringSocket.connect(http, server.baseUrl(), firings);
    for (int round = 1; round <= KILL_ROUNDS; round++) {
      // create timers at a steady rate, then kill -9 at a random moment (after a random number of acknowledged
      // creates) while requests are in flight
      int killAfter = accepted.size() + 100 + rnd.nextInt(250);
      Load load = new Load(server.baseUrl(), round, rnd.nextLong(), accepted, attempted, failedRequests);
      Thread loader = new Thread(load, "crash-test-load-" + round);
      loader.start();
      Awaitility.await("creates acknowledged before the kill").atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(5)).until(() -> accepted.size() >= killAfter);
      socket.expectDrop();
      server.kill9();
      runs.add(new Run(server.startedAtMs(), server.readyAtMs(), System.currentTimeMillis()));
      load.stop.set(true);
      loader.join(15_000);
      socket.abort();
      server = jar.logs(tmp, "server-" + round).startAndAwaitListening(START_TIMEOUT);
      started.add(server);
      socket = FiringSocket.connect(http, server.baseUrl(), firings);
    }

    runs.add(new Run(server.startedAtMs(), server.readyAtMs(), Long.MAX_VALUE));
    // let everything finite come due (and the periodic timers finish: at most ~1.2 s of periods), then check
    long lastDue = accepted.values().stream().filter(a -> !a.id().startsWith("far-"))
        .mapToLong(Accepted::firstDueAt).max().orElse(0);
    long settleUntil = Math.max(lastDue + 1_200, server.readyAtMs()) + WINDOW_MS;
    try {
      Awaitility.await("every finite timer fired all it will")
          .atMost(Duration.ofMillis(Math.max(1, settleUntil - System.currentTimeMillis())))
          .pollInterval(Duration.ofMillis(100)).until(() -> allFinite(accepted, firings));
    } catch (ConditionTimeoutException e) {
      // verify says what is missing
    }
    long checkedAt = System.currentTimeMillis();
    try {
      verify(accepted, firings, runs, server.baseUrl(), checkedAt, why);
    } finally {
      socket.expectDrop();
      socket.abort();
      server.stop(Duration.ofSeconds(10));
    }
    assertThat(accepted.size()).as("timers accepted over %d rounds (%s)", KILL_ROUNDS, why).isGreaterThan(100);
    assertThat(failedRequests.get()).as("requests cut by a kill").isLessThan(attempted.get());
  }

  /** Whether every finite timer (every one but the far-future ones) has fired all it will. */
  private static boolean allFinite(Map<String, Accepted> accepted, FiringLog firings) {
    Map<String, Integer> counts = new HashMap<>();
    for (Received r : firings.firings()) {
      counts.merge(r.id(), 1, Integer::sum);
    }
    for (Accepted a : accepted.values()) {
      if (a.id().startsWith("far-")) {
        continue;
      }
      long expected = a.once() ? 1 : a.maxFirings();
      if (counts.getOrDefault(a.id(), 0) < expected) {
        return false;
      }
    }
    return true;
  }

  private void verify(Map<String, Accepted> accepted, FiringLog log, List<Run> runs, String baseUrl,
      long checkedAt, String why) throws Exception {
    List<Received> all = log.firings();
    assertThat(log.violations()).as("seq gaps, repeats or errors on the WebSocket (%s)", why).isEmpty();
    assertThat(all).as("firings received (%s)", why).isNotEmpty();
    for (int i = 0; i < all.size(); i++) {
      assertThat(all.get(i).seq()).as("the %d-th firing received", i + 1).isEqualTo(i + 1);
    }

    Map<String, List<Received>> byId = new HashMap<>();
    long maxLateness = 0;
    for (Received r : all) {
      byId.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(r);
      assertThat(r.firedAt()).as("firedAt >= dueAt for %s (%s)", r, why).isGreaterThanOrEqualTo(r.dueAt());
      assertThat(r.receivedAtMs()).as("received no earlier than due: %s (%s)", r, why)
          .isGreaterThanOrEqualTo(r.dueAt());
      // the run that fired it; a timer already due when that run started (due while the server was down, or
      // due just before the kill and not yet settled) must fire right after that run recovered
      Run firedBy = runs.get(0);
      for (Run run : runs) {
        if (run.startedAtMs() <= r.firedAt()) {
          firedBy = run;
        }
      }
      long from = Math.max(r.dueAt(), firedBy.readyAtMs());
      maxLateness = Math.max(maxLateness, r.firedAt() - from);
      assertThat(r.firedAt() - from).as("lateness of %s after its due time or the recovery (%s, runs %s)", r,
          why, runs).isLessThanOrEqualTo(WINDOW_MS);
    }

    int present = 0;
    for (Accepted a : accepted.values()) {
      List<Received> fired = byId.getOrDefault(a.id(), List.of());
      long distinct = fired.stream().mapToLong(Received::firing).distinct().count();
      assertThat(distinct).as("no firing number twice for %s: %s (%s)", a, fired, why).isEqualTo(fired.size());
      if (a.once()) {
        assertThat(fired.size()).as("a once timer fires at most once: %s %s (%s)", a, fired, why).isLessThanOrEqualTo(1);
        if (!fired.isEmpty()) {
          assertThat(fired.get(0).dueAt()).as("fired for its accepted due time: %s (%s)", a, why)
              .isEqualTo(a.firstDueAt());
        }
      } else {
        assertThat((long) fired.size()).as("at most maxFirings: %s (%s)", a, why).isLessThanOrEqualTo(a.maxFirings());
      }
      boolean finished = a.once() ? fired.size() == 1 : fired.size() == a.maxFirings();
      int status = getStatus(baseUrl, a.id());
      if (finished) {
        assertThat(status).as("%s has fired all it will, so it is gone (%s)", a, why).isEqualTo(404);
      } else {
        assertThat(status).as("accepted %s, not finished (fired %s): still present (%s)", a, fired, why)
            .isEqualTo(200);
        present++;
        if (a.firstDueAt() < checkedAt - WINDOW_MS && a.once()) {
          throw new AssertionError("accepted " + a + " was due at " + a.firstDueAt() + " but has not fired by "
              + checkedAt + " (" + why + ", runs " + runs + ")");
        }
      }
    }
    System.out.printf("crash test: %d timers accepted, %d firings, %d still pending, max lateness %d ms, "
        + "runs %s%n", accepted.size(), all.size(), present, maxLateness, runs);
  }

  private int getStatus(String baseUrl, String id) throws Exception {
    HttpRequest get = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/timers/" + id))
        .timeout(Duration.ofSeconds(10)).GET().build();
    return http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /**
   * Creates timers every 10 ms (at most 32 requests in flight) until stopped: short one-shots (fire while
   * up), medium ones (often due while the server is down), far-future ones (must persist), and fixed-rate and
   * fixed-delay timers with a few firings. Records every 2xx answer.
   */
  private final class Load implements Runnable {
    final AtomicBoolean stop = new AtomicBoolean();
    private final String baseUrl;
    private final int round;
    private final Random rnd;
    private final Map<String, Accepted> accepted;
    private final AtomicInteger attempted;
    private final AtomicInteger failed;
    private final Semaphore inFlight = new Semaphore(32);

    Load(String baseUrl, int round, long seed, Map<String, Accepted> accepted, AtomicInteger attempted,
        AtomicInteger failed) {
      this.baseUrl = baseUrl;
      this.round = round;
      this.rnd = new Random(seed);
      this.accepted = accepted;
      this.attempted = attempted;
      this.failed = failed;
    }

    @Override
    public void run() {
      for (int n = 0; !stop.get(); n++) {
        if (!acquire()) {
          continue;
        }
        JsonObject body = next(n);
        attempted.incrementAndGet();
        long sentAt = System.currentTimeMillis();
        HttpRequest post = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/timers"))
            .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
        http.sendAsync(post, HttpResponse.BodyHandlers.ofString()).whenComplete((resp, err) -> {
          inFlight.release();
          if (err != null || resp.statusCode() / 100 != 2) {
            failed.incrementAndGet(); // cut by the kill: unknown outcome, asserted nothing about
            return;
          }
          JsonObject t = new JsonObject(resp.body());
          accepted.put(t.getString("id"), new Accepted(t.getString("id"), t.getString("kind"),
              t.getLong("nextDueAt"), t.getLong("maxFirings", 0L), sentAt));
        });
        sleep(10);                            // the load's pace (one create per 10 ms), not a wait
      }
    }

    /** A permit of the creates in flight, waited for at most 10 ms (so that a stop is seen). */
    private boolean acquire() {
      try {
        return inFlight.tryAcquire(10, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.set(true);
        return false;
      }
    }

    private JsonObject next(int n) {
      int dice = rnd.nextInt(100);
      String suffix = "r" + round + "-" + n;
      if (dice < 40) {
        return new JsonObject().put("id", "soon-" + suffix).put("topic", "crash").put("delayMs", rnd.nextInt(800))
            .put("payload", new JsonObject().put("n", n));
      } else if (dice < 60) {
        return new JsonObject().put("id", "mid-" + suffix).put("topic", "crash")
            .put("delayMs", 1_500 + rnd.nextInt(3_500));
      } else if (dice < 75) {
        return new JsonObject().put("id", "far-" + suffix).put("topic", "crash").put("delayMs", 3_600_000);
      } else if (dice < 90) {
        return new JsonObject().put("id", "rate-" + suffix).put("topic", "crash").put("kind", "fixed-rate")
            .put("periodMs", 250).put("maxFirings", 4);
      } else {
        return new JsonObject().put("id", "delay-" + suffix).put("topic", "crash").put("kind", "fixed-delay")
            .put("periodMs", 300).put("maxFirings", 3);
      }
    }

    private void sleep(long ms) {
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.set(true);
      }
    }
  }
}
