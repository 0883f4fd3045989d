package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CallbackTest {

  @Test
  void theDefaultScheduleWaitsFiveSecondsFiveMinutesHalfAnHourTwoFiveTenTenHoursThenTheLastAgain() {
    Callback c = Callback.to("https://x.example/");
    long[] expected = {5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000,
        36_000_000};
    for (int n = 1; n <= expected.length; n++) {
      assertThat(c.backoffMs(n)).as("retry %d", n).isEqualTo(expected[n - 1]);
    }
    assertThat(c.backoffMs(19)).isEqualTo(36_000_000);
    assertThat(c.largestBackoffMs()).isEqualTo(36_000_000);
  }

  @Test
  void backoffBoundsDoubleFromTheMinimumUpToTheMaximum() {
    Callback c = new Callback("https://x.example/", 1000, 20, 1000, 10_000);
    assertThat(c.backoffMs(1)).isEqualTo(1000);
    assertThat(c.backoffMs(2)).isEqualTo(2000);
    assertThat(c.backoffMs(3)).isEqualTo(4000);
    assertThat(c.backoffMs(4)).isEqualTo(8000);
    assertThat(c.backoffMs(5)).isEqualTo(10_000);
    assertThat(c.backoffMs(19)).isEqualTo(10_000);
    assertThat(c.largestBackoffMs()).isEqualTo(10_000);
  }

  @Test
  void theLargestBoundsNeverOverflowAtTheLastRetry() {
    Callback c = new Callback("https://x.example/", 1000, 20, Callback.MAX_BACKOFF_MS, Callback.MAX_BACKOFF_MS);
    assertThat(c.backoffMs(Integer.MAX_VALUE)).isEqualTo(Callback.MAX_BACKOFF_MS);
    Callback small = new Callback("https://x.example/", 1000, 20, Callback.MIN_BACKOFF_MS, Callback.MAX_BACKOFF_MS);
    for (int n = 1; n < 80; n++) {
      assertThat(small.backoffMs(n)).isBetween(Callback.MIN_BACKOFF_MS, Callback.MAX_BACKOFF_MS);
    }
  }

  @Test
  void retryNumbersStartAtOne() {
    assertThatThrownBy(() -> Callback.to("http://x/").backoffMs(0)).hasMessageContaining("starts at 1, was 0");
  }

  @Test
  void theRecordRefusesValuesOutsideTheContractRanges() {
    assertThatThrownBy(() -> new Callback("http://x/", 999, 8, 0, 0)).hasMessageContaining("timeoutMs");
    assertThatThrownBy(() -> new Callback("http://x/", 30_001, 8, 0, 0)).hasMessageContaining("timeoutMs");
    assertThatThrownBy(() -> new Callback("http://x/", 1000, 0, 0, 0)).hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> new Callback("http://x/", 1000, 21, 0, 0)).hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> new Callback("http://x/", 1000, 8, 100, 0)).hasMessageContaining("go together");
    assertThatThrownBy(() -> new Callback("http://x/", 1000, 8, 500, 400)).hasMessageContaining("maxBackoffMs");
    assertThatThrownBy(() -> new Callback("http://x/", 1000, 8, 99, 400)).hasMessageContaining("minBackoffMs");
    assertThatThrownBy(() -> new Callback("", 1000, 8, 0, 0)).hasMessageContaining("url");
  }
}
