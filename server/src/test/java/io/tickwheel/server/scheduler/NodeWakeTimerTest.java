package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one wake-up timer of an owner context, on a real event loop and the system clock. */
class NodeWakeTimerTest {

  private Vertx vertx;
  private Context owner;
  private final LongSupplier clock = System::currentTimeMillis;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    owner = vertx.getOrCreateContext();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void alarmsDueAtOneMomentRunInOneTaskInTimeOrderAndACancelledOneNever() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    on(() -> {
      NodeWakeTimer t = NodeWakeTimer.of(owner, clock);
      assertThat(NodeWakeTimer.of(owner, clock)).isSameAs(t);
      long at = (clock.getAsLong() + 100) * 1_000;
      t.schedule(at, WakeUp.MIN_DELAY_US, () -> {
        ran.add("a");
        owner.runOnContext(v -> ran.add("next task"));
      });
      NodeWakeTimer.Alarm cancelled = t.schedule(at, WakeUp.MIN_DELAY_US, () -> ran.add("cancelled"));
      t.schedule(at, WakeUp.MIN_DELAY_US, () -> ran.add("b"));
      t.schedule(at - 1_000, WakeUp.MIN_DELAY_US, () -> ran.add("first"));
      cancelled.cancel();
      return null;
    });
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.contains("next task"));
    assertThat(ran).containsExactly("first", "a", "b", "next task");
    assertThat(on(() -> NodeWakeTimer.of(owner, clock).waiting())).isZero();
  }

  @Test
  void anEarlierAlarmSetsTheTimerEarlierAndTheLaterOneStillRuns() throws Exception {
    List<Long> lateMs = new CopyOnWriteArrayList<>();
    List<String> ran = new CopyOnWriteArrayList<>();
    on(() -> {
      NodeWakeTimer t = NodeWakeTimer.of(owner, clock);
      long now = clock.getAsLong();
      t.schedule((now + 2_000) * 1_000, WakeUp.MIN_DELAY_US, () -> ran.add("later"));
      long early = now + 50;
      t.schedule(early * 1_000, WakeUp.MIN_DELAY_US, () -> {
        ran.add("earlier");
        lateMs.add(clock.getAsLong() - early);
      });
      return null;
    });
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.contains("later"));
    assertThat(ran).containsExactly("earlier", "later");
    assertThat(lateMs.get(0)).as("not before its time, and well before the later one's").isBetween(0L, 1_500L);
  }

  @Test
  void aTimerPerClockSoSchedulersOnManualClocksDoNotShareOne() throws Exception {
    LongSupplier other = () -> 42L;
    assertThat(on(() -> NodeWakeTimer.of(owner, clock) != NodeWakeTimer.of(owner, other))).isTrue();
  }

  private <T> T on(java.util.concurrent.Callable<T> task) throws Exception {
    CompletableFuture<T> f = new CompletableFuture<>();
    owner.runOnContext(v -> {
      try {
        f.complete(task.call());
      } catch (Throwable e) {
        f.completeExceptionally(e);
      }
    });
    return f.get(10, TimeUnit.SECONDS);
  }
}
