package io.tickwheel.bench.load.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.bench.load.FiringSink;
import io.tickwheel.bench.load.TimerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The smoke scenario every durable peer runs against its real service: 20 timers due within 2 s (10 one by one, 10
 * in one batch), one of them postponed, all fire exactly once, never before their due time, reporting the due time
 * they were given; a reschedule of a fired timer fails; {@code reset} removes pending timers so they never fire.
 * Real time: asserts windows, not instants.
 */
final class PeerSmokeScenario {

  /** Generous bound on lateness for a smoke test on a shared 2-core machine: it checks firing, not speed. */
  static final long MAX_LATENESS_MS = 5_000;

  private PeerSmokeScenario() {}

  /** One firing as the target reported it. */
  record Fired(long dueAtMs, long receivedAtMs) {}

  /** Records every firing, per id. */
  static final class RecordingSink implements FiringSink {
    final Map<String, List<Fired>> byId = new ConcurrentHashMap<>();

    @Override
    public void fired(String id, long dueAtMs, long receivedAtMs) {
      byId.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(new Fired(dueAtMs, receivedAtMs));
    }
  }

  static void run(TimerTarget target) throws Exception {
    RecordingSink sink = new RecordingSink();
    target.start(sink);
    try {
      target.reset();
      firesEveryTimerOnceNotBeforeItsDueTimeAndHonoursAReschedule(target, sink);
      resetRemovesPendingTimersSoTheyNeverFire(target, sink);
    } finally {
      target.close();
    }
  }

  private static void firesEveryTimerOnceNotBeforeItsDueTimeAndHonoursAReschedule(TimerTarget target,
      RecordingSink sink) throws Exception {
    long now = System.currentTimeMillis();
    Map<String, Long> due = new ConcurrentHashMap<>();
    List<CompletableFuture<Void>> accepted = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String id = "smoke-single-" + i;
      due.put(id, now + 500 + 100L * i);
      accepted.add(target.schedule(id, due.get(id)).toCompletableFuture());
    }
    List<String> batchIds = new ArrayList<>();
    long[] batchDue = new long[10];
    for (int i = 0; i < 10; i++) {
      batchIds.add("smoke-batch-" + i);
      batchDue[i] = now + 550 + 100L * i;
      due.put(batchIds.get(i), batchDue[i]);
    }
    accepted.add(target.scheduleBatch(batchIds, batchDue).toCompletableFuture());
    join(accepted);

    // Postpone the last single timer (due at +1.4 s) to +2 s, well before it comes due.
    long postponed = now + 2_000;
    target.reschedule("smoke-single-9", postponed).toCompletableFuture().get(10, TimeUnit.SECONDS);
    due.put("smoke-single-9", postponed);

    long deadline = postponed + MAX_LATENESS_MS;
    try {
      Awaitility.await("every timer fired")
          .atMost(Duration.ofMillis(Math.max(1, deadline - System.currentTimeMillis()))).pollInterval(Duration.ofMillis(20)).until(() -> sink.byId.keySet().size() >= due.size());
      // a negative check, so time is what it checks: 300 ms of room for a duplicate firing to show up
      Awaitility.await("no duplicate firing").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
          .until(() -> sink.byId.values().stream().allMatch(l -> l.size() == 1));
    } catch (ConditionTimeoutException e) {
      // the checks below say which timer is missing or fired twice
    }
    assertThat(sink.byId.keySet()).containsExactlyInAnyOrderElementsOf(due.keySet());
    for (Map.Entry<String, Long> e : due.entrySet()) {
      List<Fired> firings = sink.byId.get(e.getKey());
      assertThat(firings).as("firings of %s", e.getKey()).hasSize(1);
      Fired f = firings.get(0);
      assertThat(f.dueAtMs()).as("reported due time of %s", e.getKey()).isEqualTo(e.getValue());
      assertThat(f.receivedAtMs() - e.getValue()).as("lateness of %s in ms", e.getKey())
          .isBetween(0L, MAX_LATENESS_MS);
    }

    CompletableFuture<Void> late = target.reschedule("smoke-single-0", now + 60_000).toCompletableFuture();
    assertThatThrownBy(() -> late.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(NoSuchElementException.class);
  }

  private static void resetRemovesPendingTimersSoTheyNeverFire(TimerTarget target, RecordingSink sink)
      throws Exception {
    long now = System.currentTimeMillis();
    List<CompletableFuture<Void>> accepted = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      accepted.add(target.schedule("smoke-reset-" + i, now + 800).toCompletableFuture());
    }
    join(accepted);
    target.reset();
    // a negative check, so time is what it checks: none fires by 1.5 s past its due time
    Awaitility.await("no reset timer fires").during(Duration.ofMillis(800 + 1_500)).atMost(Duration.ofSeconds(4))
        .until(() -> sink.byId.keySet().stream().noneMatch(id -> id.startsWith("smoke-reset-")));
    assertThat(sink.byId.keySet()).noneMatch(id -> id.startsWith("smoke-reset-"));
  }

  private static void join(List<CompletableFuture<Void>> stages) throws Exception {
    CompletableFuture.allOf(stages.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
  }
}
