package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The close reason of a push socket refused for a message that is not a push: whole characters, within a frame. */
class FiringPushApiTest {

  @Test
  void aShortReasonIsKeptAsItIs() {
    assertThat(FiringPushApi.reason("parts[0] is not [partition, after, upTo, [firing, …]]"))
        .isEqualTo("parts[0] is not [partition, after, upTo, [firing, …]]");
    assertThat(FiringPushApi.reason(null)).isEmpty();
  }

  @Test
  void aLongReasonIsCutAtAWholeCharacterWithinTheCloseFramesRoom() {
    String ascii = "x".repeat(200);
    String cut = FiringPushApi.reason(ascii);
    assertThat(cut).startsWith("xxx").endsWith("...");
    assertThat(cut.getBytes(StandardCharsets.UTF_8)).hasSize(FiringPushApi.MAX_REASON_BYTES);

    String wide = "é€😀".repeat(30);    // 2, 3 and 4 bytes (a surrogate pair) in UTF-8
    String cutWide = FiringPushApi.reason(wide);
    assertThat(cutWide.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(FiringPushApi.MAX_REASON_BYTES);
    assertThat(wide).startsWith(cutWide.substring(0, cutWide.length() - 3));
    assertThat(Character.isHighSurrogate(cutWide.charAt(cutWide.length() - 4))).as("no half of a pair").isFalse();
  }
}
