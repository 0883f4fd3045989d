package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void startsAt50MsAndDoublesUpTo5Seconds() {
    assertThat(IntStream.range(0, 9).mapToLong(Backoff::delayMs).toArray())
        .containsExactly(50, 100, 200, 400, 800, 1600, 3200, 5000, 5000);
  }

  @Test
  void staysAt5SecondsForEveryLaterAttemptWithoutOverflowing() {
    assertThat(Backoff.delayMs(63)).isEqualTo(5000);
    assertThat(Backoff.delayMs(Integer.MAX_VALUE)).isEqualTo(5000);
  }

  @Test
  void aNegativeAttemptIsABug() {
    assertThatThrownBy(() -> Backoff.delayMs(-1)).hasMessage("attempt must be >= 0, was -1");
  }
}
