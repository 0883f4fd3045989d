package io.tickwheel.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RetentionTest {

  @Test
  void theDefaultsKeepOneMillionFiringsForOneDay() {
    assertThat(Retention.defaults()).isEqualTo(new Retention(1_000_000, 86_400_000));
    assertThat(Retention.defaults()).isEqualTo(new Retention(Retention.DEFAULT_MAX_COUNT, Retention.DEFAULT_MAX_AGE_MS));
  }

  @Test
  void keepingFewerThanOneFiringIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new Retention(0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxCount").hasMessageContaining("0");
  }

  @Test
  void aNegativeAgeIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new Retention(1, -5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAgeMs").hasMessageContaining("-5");
  }

  @Test
  void zeroAgeIsAllowedTheNewestFiringIsKeptAnyway() {
    assertThat(new Retention(1, 0).maxAgeMs()).isZero();
  }

  @Test
  void theCutoffIsNowMinusTheAgeAndNothingIsTooOldWhenThatOverflows() {
    assertThat(new Retention(1, 1_000).cutoff(5_000)).isEqualTo(4_000);
    assertThat(new Retention(1, 0).cutoff(5_000)).isEqualTo(5_000);
    assertThat(new Retention(1, Long.MAX_VALUE).cutoff(-2)).isEqualTo(Long.MIN_VALUE);
    assertThat(new Retention(1, 10).cutoff(Long.MIN_VALUE + 5)).isEqualTo(Long.MIN_VALUE);
  }
}
