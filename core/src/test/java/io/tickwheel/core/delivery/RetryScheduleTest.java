package io.tickwheel.core.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.delivery.RetrySchedule.Next;
import io.tickwheel.core.delivery.RetrySchedule.Verdict;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

  private static final long NOW = 1_700_000_000_000L;
  private static final long S = 1000;
  private static final long MIN = 60 * S;
  private static final long H = 60 * MIN;

  private static Verdict judge(Callback cb, int status, String retryAfter, int attemptsInRound, double u) {
    return RetrySchedule.judge(status, retryAfter, attemptsInRound, cb.maxAttempts(), cb.backoffMs(attemptsInRound),
        cb.largestBackoffMs(), NOW, u);
  }

  @Test
  void jitterSpansEightyToOneHundredTwentyPercentOfTheNominalWait() {
    assertThat(RetrySchedule.jittered(5000, 0.0)).isEqualTo(4000);
    assertThat(RetrySchedule.jittered(5000, 0.5)).isEqualTo(5000);
    assertThat(RetrySchedule.jittered(5000, 0.75)).isEqualTo(5500);
    assertThat(RetrySchedule.jittered(5000, Math.nextDown(1.0))).as("at most +20 %%").isEqualTo(6000);
    assertThatThrownBy(() -> RetrySchedule.jittered(5000, 1.0)).hasMessageContaining("u must be in [0, 1)");
  }

  @Test
  void theDefaultScheduleWaitsFiveSecondsFiveMinutesThirtyMinutesTwoFiveTenTenHoursThenTheLastAgain() {
    Callback cb = new Callback("https://example.com/hook", 10_000, 20, 0, 0);
    long[] expected = {5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H, 10 * H, 10 * H};
    for (int n = 1; n <= expected.length; n++) {
      Verdict v = judge(cb, 500, null, n, 0.5);
      assertThat(v.next()).isEqualTo(Next.RETRY);
      assertThat(v.nextAttemptAt() - NOW).as("retry %d", n).isEqualTo(expected[n - 1]);
    }
  }

  @Test
  void backoffFieldsDoubleFromTheMinimumUpToTheMaximum() {
    Callback cb = new Callback("https://example.com/hook", 10_000, 20, 1000, 10_000);
    long[] expected = {1000, 2000, 4000, 8000, 10_000, 10_000};
    for (int n = 1; n <= expected.length; n++) {
      assertThat(judge(cb, 503, null, n, 0.5).nextAttemptAt() - NOW).as("retry %d", n).isEqualTo(expected[n - 1]);
    }
  }

  @Test
  void seededJitterStaysWithinTwentyPercentAndUsesTheWholeWindow() {
    Callback cb = Callback.to("https://example.com/hook");
    Random r = new Random(42);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < 10_000; i++) {
      long wait = judge(cb, 500, null, 1, r.nextDouble()).nextAttemptAt() - NOW;
      min = Math.min(min, wait);
      max = Math.max(max, wait);
    }
    assertThat(min).isBetween(4000L, 4010L);
    assertThat(max).isBetween(5990L, 6000L);
  }

  @Test
  void twoHundredsSucceedAndFourTenIsDeadAtOnce() {
    Callback cb = Callback.to("https://example.com/hook");
    assertThat(judge(cb, 200, null, 1, 0.5).next()).isEqualTo(Next.SUCCEEDED);
    assertThat(judge(cb, 204, null, 3, 0.5).next()).isEqualTo(Next.SUCCEEDED);
    assertThat(judge(cb, 410, null, 1, 0.5).next()).isEqualTo(Next.DEAD);
  }

  @Test
  void redirectsNoAnswerAndServerErrorsAreFailuresThatRetry() {
    Callback cb = Callback.to("https://example.com/hook");
    for (int status : new int[] {0, 301, 302, 307, 400, 404, 500, 502}) {
      assertThat(judge(cb, status, null, 1, 0.0)).as("status %d", status).isEqualTo(new Verdict(Next.RETRY, NOW + 4000));
    }
  }

  @Test
  void theLastAttemptOfTheRoundFailingIsDead() {
    Callback cb = new Callback("https://example.com/hook", 10_000, 3, 0, 0);
    assertThat(judge(cb, 500, null, 2, 0.5).next()).isEqualTo(Next.RETRY);
    assertThat(judge(cb, 500, null, 3, 0.5).next()).isEqualTo(Next.DEAD);
    assertThat(judge(cb, 429, "1", 3, 0.5).next()).isEqualTo(Next.DEAD);
  }

  @Test
  void retryAfterSecondsOnFourTwentyNineOrFiveOhThreeIsHonouredExactly() {
    Callback cb = Callback.to("https://example.com/hook");
    assertThat(judge(cb, 429, "120", 1, 0.9).nextAttemptAt()).isEqualTo(NOW + 120_000);
    assertThat(judge(cb, 503, " 7 ", 1, 0.9).nextAttemptAt()).isEqualTo(NOW + 7000);
    // other statuses ignore it
    assertThat(judge(cb, 500, "120", 1, 0.5).nextAttemptAt()).isEqualTo(NOW + 5000);
  }

  @Test
  void retryAfterAsAnHttpDateIsAWaitUntilThen() {
    // NOW is 2023-11-14T22:13:20Z
    assertThat(RetrySchedule.retryAfterMs("Tue, 14 Nov 2023 22:15:00 GMT", NOW, 10 * H)).isEqualTo(100_000);
    assertThat(RetrySchedule.retryAfterMs("Tue, 14 Nov 2023 22:00:00 GMT", NOW, 10 * H)).isZero();
  }

  @Test
  void retryAfterIsClampedToTheLargestBackoffAndAnInvalidOneIsIgnored() {
    Callback fast = new Callback("https://example.com/hook", 10_000, 8, 1000, 60_000);
    assertThat(judge(fast, 429, "3600", 1, 0.5).nextAttemptAt()).isEqualTo(NOW + 60_000);
    assertThat(judge(fast, 429, "99999999999999999999", 1, 0.5).nextAttemptAt()).isEqualTo(NOW + 60_000);
    assertThat(judge(fast, 429, "soon", 1, 0.5).nextAttemptAt()).isEqualTo(NOW + 1000);
    assertThat(judge(fast, 429, "-5", 1, 0.5).nextAttemptAt()).isEqualTo(NOW + 1000);
    assertThat(RetrySchedule.retryAfterMs("", NOW, 1000)).isEqualTo(-1);
  }
}
