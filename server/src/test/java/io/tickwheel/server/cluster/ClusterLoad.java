package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A steady create load for the cluster ITs: one thread creates timers ({@code k-0}, {@code k-1}, …, due in 300 to
 * 2,300 ms) through random live nodes until stopped, remembering each acknowledged one's due time and every refusal.
 * The tests wait on what the load has done ({@link #awaitAcked}), never on how long it ran, and check its refusals
 * ({@link #assertOnlyRetryableRefusals}).
 */
final class ClusterLoad implements Runnable, AutoCloseable {

  /**
   * The client's timeout for one create: longer than a node's forward timeout (5 s), so that a live node always
   * answers (a 503 when the owner it forwards to is gone) before the client gives up.
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(8);

  /** One create that was not acknowledged: an answer other than 201 ({@code error} null) or no answer. */
  record Refusal(String via, int status, String retryAfter, String body, Exception error) {
    @Override
    public String toString() {
      return via + " " + (error != null ? error.toString() : status + " Retry-After " + retryAfter + " " + body);
    }
  }

  final AtomicBoolean stop = new AtomicBoolean();
  /** Id → acknowledged due time (epoch ms). */
  final Map<String, Long> acked = new ConcurrentHashMap<>();
  final List<Refusal> refusals = Collections.synchronizedList(new ArrayList<>());
  private final ClusterProbe probe;
  private final Supplier<List<ServerProcess>> nodes;
  private final Random rnd = new Random(7);
  private final Thread thread = new Thread(this, "cluster-load");
  private int next;

  /** A load over {@code nodes} (read before each create: a snapshot of the live nodes). */
  ClusterLoad(ClusterProbe probe, Supplier<List<ServerProcess>> nodes) {
    this.probe = probe;
    this.nodes = nodes;
  }

  ClusterLoad begin() {
    thread.start();
    return this;
  }

  @Override
  public void run() {
    while (!stop.get()) {
      List<ServerProcess> live = nodes.get();
      ServerProcess via = live.get(rnd.nextInt(live.size()));
      if (!via.isAlive()) {
        continue;
      }
      String id = "k-" + next++;
      long delay = 300 + rnd.nextInt(2000);
      try {
        HttpResponse<String> r = probe.send(via.baseUrl() + "/v1/timers", "POST",
            new JsonObject().put("id", id).put("delayMs", delay).encode(), REQUEST_TIMEOUT);
        if (r.statusCode() == 201) {
          acked.put(id, new JsonObject(r.body()).getLong("nextDueAt"));
        } else {
          refusals.add(new Refusal(via.baseUrl(), r.statusCode(), r.headers().firstValue("retry-after").orElse(null),
              r.body(), null));
        }
      } catch (Exception e) {
        refusals.add(new Refusal(via.baseUrl(), 0, null, null, e));
      }
    }
  }

  /** Waits (up to 60 s) until {@code n} more creates than now are acknowledged: the load went on through a state. */
  void awaitMoreAcked(int n) {
    int target = acked.size() + n;
    await("the load acknowledged " + n + " more creates").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20)).until(() -> acked.size() >= target);
  }

  /** Waits (up to 60 s) until {@code condition} holds over the acknowledged creates (id → due time). */
  void awaitAcked(String what, Predicate<Map<String, Long>> condition) {
    await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> condition.test(acked));
  }

  /** Stops the load, waits for its last create to end and returns the latest acknowledged due time. */
  long finish() throws InterruptedException {
    stop.set(true);
    thread.join(REQUEST_TIMEOUT.toMillis() + 5_000);
    assertThat(thread.isAlive()).as("the load thread ended").isFalse();
    return acked.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  @Override
  public void close() {
    stop.set(true);
  }

  /**
   * Asserts that every refusal was one a client is told to retry: a 503 answered as {@code unavailable} (a partition
   * moving, no live owner yet, the store out of reach) or with {@code Retry-After}; or, only from a node in
   * {@code faulted} (base URLs of the nodes the test stopped, killed, paused or cut off), no answer at all (connection
   * refused or reset, client timeout). Anything else (a 500, a 502, a 4xx, a timeout from a healthy node) fails,
   * listing them all.
   */
  /** The refusals so far, counted: "N (503: a, no answer: b, other: c)". */
  String refusalSummary() {
    List<Refusal> all;
    synchronized (refusals) {
      all = new ArrayList<>(refusals);
    }
    long unavailable = all.stream().filter(r -> r.error() == null && r.status() == 503).count();
    long noAnswer = all.stream().filter(r -> r.error() != null).count();
    return all.size() + " (503: " + unavailable + ", no answer: " + noAnswer + ", other: "
        + (all.size() - unavailable - noAnswer) + ")";
  }

  void assertOnlyRetryableRefusals(Collection<String> faulted) {
    List<Refusal> all;
    synchronized (refusals) {
      all = new ArrayList<>(refusals);
    }
    List<Refusal> wrong = all.stream().filter(r -> !retryable(r, faulted)).toList();
    assertThat(wrong).as("refusals that are neither a retryable 503 nor a lost connection to a faulted node %s,"
        + " out of %d refusals", faulted, all.size()).isEmpty();
  }

  private static boolean retryable(Refusal r, Collection<String> faulted) {
    if (r.error() != null) {
      return r.error() instanceof IOException && faulted.contains(r.via());
    }
    if (r.status() != 503) {
      return false;
    }
    if (r.retryAfter() != null) {
      return true;
    }
    try {
      return "unavailable".equals(new JsonObject(r.body()).getJsonObject("error").getString("code"));
    } catch (RuntimeException notTheErrorShape) {
      return false;
    }
  }
}
