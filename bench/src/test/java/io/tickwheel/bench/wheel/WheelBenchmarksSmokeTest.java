package io.tickwheel.bench.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Drives each benchmark method once per peer on a small structure, outside JMH: every peer schedules,
 * cancels, re-arms and drains what the benchmarks say it does. Not a performance test.
 */
class WheelBenchmarksSmokeTest {

  private static final int PENDING = 2_000;

  static Iterable<String> peers() {
    return Peers.NAMES;
  }

  @ParameterizedTest
  @MethodSource("peers")
  void scheduleAddsABatchThatTheTearDownCancels(String peer) {
    WheelBenchmarks.ScheduleState s = new WheelBenchmarks.ScheduleState();
    s.peer = peer;
    s.pending = PENDING;
    s.fill();
    try {
      new WheelBenchmarks().schedule(s);
      assertThat(s.timers.size()).isEqualTo(PENDING + WheelBenchmarks.BATCH);
      s.cancelBatch();
      assertThat(s.timers.size()).isEqualTo(PENDING);
    } finally {
      s.close();
    }
  }

  @ParameterizedTest
  @MethodSource("peers")
  void cancelRemovesABatchThatTheTearDownReschedules(String peer) {
    WheelBenchmarks.CancelState s = new WheelBenchmarks.CancelState();
    s.peer = peer;
    s.pending = PENDING;
    s.fill();
    try {
      assertThat(new WheelBenchmarks().cancel(s)).isEqualTo(WheelBenchmarks.BATCH);
      assertThat(s.timers.size()).isEqualTo(PENDING - WheelBenchmarks.BATCH);
      s.rescheduleBatch();
      assertThat(s.timers.size()).isEqualTo(PENDING);
    } finally {
      s.close();
    }
  }

  @ParameterizedTest
  @MethodSource("peers")
  void churnRearmsPendingTimersWithoutChangingTheirNumber(String peer) {
    WheelBenchmarks.PendingState s = new WheelBenchmarks.PendingState();
    s.peer = peer;
    s.pending = PENDING;
    s.fill();
    try {
      WheelBenchmarks b = new WheelBenchmarks();
      for (int n = 0; n < 3 * PENDING; n++) {
        b.churn(s);
      }
      assertThat(s.timers.size()).isEqualTo(PENDING);
    } finally {
      s.close();
    }
  }

  @ParameterizedTest
  @MethodSource("peers")
  void expireDrainHandsOutEveryDueTimerTwiceInARow(String peer) throws InterruptedException {
    WheelBenchmarks.DrainState s = new WheelBenchmarks.DrainState();
    s.peer = peer;
    s.due = PENDING;
    s.open();
    try {
      WheelBenchmarks b = new WheelBenchmarks();
      for (int round = 0; round < 2; round++) {
        s.prepare();
        assertThat(b.expireDrain(s)).isEqualTo(PENDING);
        if (!peer.equals("agronaRaw")) {
          assertThat(s.timers.size()).as("keys left in %s's key map", peer).isZero();
        }
      }
    } finally {
      s.close();
    }
  }
}
