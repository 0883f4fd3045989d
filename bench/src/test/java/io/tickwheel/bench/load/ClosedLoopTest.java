package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClosedLoopTest {

  private final ScheduledExecutorService exec = Executors.newScheduledThreadPool(2);
  private final AtomicInteger completed = new AtomicInteger();

  @AfterEach
  void stop() {
    exec.shutdownNow();
  }

  /** An operation that completes 2 ms later on another thread. */
  private CompletionStage<Void> slowOp(int i) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    exec.schedule(() -> {
      completed.incrementAndGet();
      f.complete(null);
    }, 2, TimeUnit.MILLISECONDS);
    return f;
  }

  @Test
  void withoutATimeCapEveryOperationRuns() throws Exception {
    Scenarios.Run run = Scenarios.closedLoop(200, 8, this::slowOp, 0);
    assertThat(run.ops()).isEqualTo(200);
    assertThat(completed).hasValue(200);
    assertThat(run.latencyMicros().getTotalCount()).isEqualTo(200);
  }

  @Test
  void aTimeCapStopsStartingOperationsAndCountsOnlyThoseStarted() throws Exception {
    long t0 = System.nanoTime();
    Scenarios.Run run = Scenarios.closedLoop(1_000_000, 4, this::slowOp, 300);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    // 4 chains of >= 2 ms operations for ~300 ms: at most 4 * 300 / 2 = 600 started, and surely some
    assertThat(run.ops()).isBetween(20L, 600L);
    assertThat(completed.get()).isEqualTo((int) run.ops()); // every started operation completed before the return
    assertThat(run.latencyMicros().getTotalCount()).isEqualTo(run.ops());
    assertThat(ms).isBetween(300L, 10_000L);
    assertThat(run.perSecond()).isEqualTo(run.ops() * 1e9 / run.elapsedNanos());
  }
}
