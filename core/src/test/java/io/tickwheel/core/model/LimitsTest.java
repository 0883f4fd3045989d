package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LimitsTest {

  @Test
  void theDefaultsAreTheContractsTenYearsAnd64KiB() {
    Limits l = Limits.defaults(10);
    assertThat(l.tickMs()).isEqualTo(10);
    assertThat(l.maxHorizonMs()).isEqualTo(3653L * 24 * 3600 * 1000);
    assertThat(l.maxPayloadBytes()).isEqualTo(65_536);
    assertThat(Limits.DEFAULT_MAX_PENDING).isEqualTo(1_000_000_000);
    assertThat(Limits.DEFAULT_MAX_PENDING_IN_MEMORY).isEqualTo(10_000_000);
  }

  @Test
  void aTickBelowOneMillisecondIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new Limits(0, Limits.TEN_YEARS_MS, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tickMs").hasMessageContaining("0");
  }

  @Test
  void aHorizonShorterThanOneTickIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new Limits(10, 9, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxHorizonMs").hasMessageContaining("9");
  }

  @Test
  void aNegativePayloadLimitIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new Limits(10, Limits.TEN_YEARS_MS, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPayloadBytes").hasMessageContaining("-1");
  }
}
