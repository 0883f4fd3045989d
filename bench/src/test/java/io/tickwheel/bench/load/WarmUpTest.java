package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The throughput scenario's warm-up: one pass by count, or passes for {@code --warmup-ms} with drops between. */
class WarmUpTest {

  private final ScheduledExecutorService exec = Executors.newScheduledThreadPool(2);

  @AfterEach
  void stop() {
    exec.shutdownNow();
  }

  /** Completes every call 1 ms later; counts drops, holds what it was given (as a delayed queue would). */
  private final class FakeTarget implements TimerTarget {
    final Map<String, Long> held = new ConcurrentHashMap<>();
    final AtomicInteger drops = new AtomicInteger();
    final AtomicInteger heldAtMostBeforeDrop = new AtomicInteger();

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public void start(FiringSink sink) {
    }

    private CompletionStage<Void> later() {
      CompletableFuture<Void> f = new CompletableFuture<>();
      exec.schedule(() -> f.complete(null), 1, TimeUnit.MILLISECONDS);
      return f;
    }

    @Override
    public CompletionStage<Void> schedule(String id, long dueAtMs) {
      held.put(id, dueAtMs);
      return later();
    }

    @Override
    public CompletionStage<Void> scheduleBatch(List<String> ids, long[] dueAtMs) {
      for (int i = 0; i < ids.size(); i++) {
        held.put(ids.get(i), dueAtMs[i]);
      }
      return later();
    }

    @Override
    public CompletionStage<Void> reschedule(String id, long newDueAtMs) {
      return later();
    }

    @Override
    public void dropWarmup() {
      heldAtMostBeforeDrop.accumulateAndGet(held.size(), Math::max);
      held.clear();
      drops.incrementAndGet();
    }

    @Override
    public void reset() {
      held.clear();
    }

    @Override
    public void close() {
    }
  }

  private Map<String, String> throughputRows(FakeTarget target, String... args) throws Exception {
    Results results = new Results();
    new Scenarios(target, LoadConfig.parse(args), results).run("throughput");
    return results.rows().stream().collect(Collectors.toMap(Results.Row::metric, Results.Row::value, (a, b) -> b));
  }

  @Test
  void withoutATimeTheWarmUpIsOnePassOfTheCount() throws Exception {
    FakeTarget target = new FakeTarget();
    Map<String, String> rows = throughputRows(target, "--target", "db-scheduler", "--warmup", "40", "--timers", "20",
        "--concurrency", "4", "--batch-size", "10");
    assertThat(rows).containsEntry("single warm-up", "40").containsEntry("warm-up passes", "1");
    assertThat(target.drops).hasValue(0);
  }

  @Test
  void aTimedWarmUpRepeatsPassesUntilItsTimeAndDropsBetweenThem() throws Exception {
    FakeTarget target = new FakeTarget();
    long t0 = System.nanoTime();
    // 4 chains of 1 ms calls: a pass of 40 singles and 160 batched timers takes tens of ms, so 600 ms hold several
    Map<String, String> rows = throughputRows(target, "--target", "db-scheduler", "--warmup", "40", "--warmup-ms",
        "600", "--timers", "20", "--concurrency", "4", "--batch-size", "10", "--batch-concurrency", "2");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    int passes = Integer.parseInt(rows.get("warm-up passes"));
    assertThat(passes).isGreaterThanOrEqualTo(2);
    assertThat(target.drops).hasValue(passes - 1);
    assertThat(Long.parseLong(rows.get("single warm-up"))).isGreaterThanOrEqualTo(40).isLessThanOrEqualTo(40L * passes);
    // a drop comes after each whole pass: never more than one pass's timers held (40 singles + 160 batched)
    assertThat(target.heldAtMostBeforeDrop.get()).isLessThanOrEqualTo(200);
    assertThat(Double.parseDouble(rows.get("warm-up s"))).isGreaterThanOrEqualTo(0.6);
    assertThat(ms).isGreaterThanOrEqualTo(600);
  }
}
