package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PushOptionsTest {

  @Test
  void theDefaultsAreValid() {
    assertThat(PushOptions.defaults()).isEqualTo(new PushOptions(16_384, 256, 64 * 1024));
  }

  @Test
  void anEmptyQueuePerSubscriberIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new PushOptions(0, 1, 1024)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxQueuedPerSubscriber").hasMessageContaining("0");
  }

  @Test
  void aReplayBatchLargerThanTheQueueOrBelowOneIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new PushOptions(8, 9, 1024)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replayBatch").hasMessageContaining("9");
    assertThatThrownBy(() -> new PushOptions(8, 0, 1024)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replayBatch").hasMessageContaining("was 0");
    assertThat(new PushOptions(8, 8, 1024).replayBatch()).isEqualTo(8);
  }

  @Test
  void aFrameLimitBelowOneKiBIsRefusedNamingTheFieldAndValue() {
    assertThatThrownBy(() -> new PushOptions(8, 1, 1023)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxWsFrameBytes").hasMessageContaining("1023");
  }
}
