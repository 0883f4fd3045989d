package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.store.Retention;
import org.junit.jupiter.api.Test;

class SchedulerOptionsTest {

  static final SchedulerOptions OK = SchedulerOptions.defaults(10);

  static SchedulerOptions with(long tickMs, long maxPending, long misfire, int turnLimit, Retention retention,
      long trimMs, int recoveryBatch, long lockTimeoutMs) {
    return new SchedulerOptions(tickMs, maxPending, misfire, turnLimit, retention, trimMs, recoveryBatch, lockTimeoutMs);
  }

  @Test
  void defaultsComeFromTheNamedConstantsAndCore() {
    assertThat(OK).isEqualTo(new SchedulerOptions(10, 1_000_000_000, Schedule.DEFAULT_MISFIRE_THRESHOLD_MS, 10_000,
        Retention.defaults(), 10_000, 10_000, 10_000, 600_000));
    assertThat(OK.windowMs()).isEqualTo(SchedulerOptions.DEFAULT_WINDOW_MS);
  }

  @Test
  void aTurnLimitOfZeroIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> OK.withTurnLimit(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("turnLimit must be >= 1, was 0");
  }

  @Test
  void negativeOrZeroCapsAreRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> OK.withMaxPending(-5)).hasMessage("maxPending must be >= 1, was -5");
    assertThatThrownBy(() -> OK.withMaxPending(0)).hasMessage("maxPending must be >= 1, was 0");
    assertThatThrownBy(() -> with(10, 1, 1000, 1, Retention.defaults(), 1, 0, 1))
        .hasMessage("recoveryBatch must be >= 1, was 0");
    assertThatThrownBy(() -> with(10, 1, 1000, 1, Retention.defaults(), 1, 1, -1))
        .hasMessage("lockTimeoutMs must be >= 1, was -1");
  }

  @Test
  void outOfRangeTimesAreRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> SchedulerOptions.defaults(0)).hasMessage("tickMs must be >= 1, was 0");
    assertThatThrownBy(() -> OK.withMisfireThresholdMs(-1)).hasMessage("misfireThresholdMs must be >= 0, was -1");
    assertThatThrownBy(() -> OK.withRetention(Retention.defaults(), 0)).hasMessage("trimIntervalMs must be >= 1, was 0");
    assertThatThrownBy(() -> OK.withRetention(null, 10)).hasMessage("retention must not be null");
  }

  @Test
  void theSmallestValidValuesAreAccepted() {
    SchedulerOptions o = with(1, 1, 0, 1, new Retention(1, 0), 1, 1, 1);
    assertThat(o.turnLimit()).isEqualTo(1);
    assertThat(o.misfireThresholdMs()).isZero();
  }
}
