package io.tickwheel.server.wire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wire shapes clients depend on, byte for byte. */
class WireShapesTest {

  @Test
  void sseDataWithLineBreaksIsSplitIntoDataLines() {
    assertThat(SseFormat.event("7", "fired", "{\"a\":1}").toString())
        .isEqualTo("id: 7\nevent: fired\ndata: {\"a\":1}\n\n");
    assertThat(SseFormat.event(null, "gap", "x\ny\r\nz\rw").toString())
        .isEqualTo("event: gap\ndata: x\ndata: y\ndata: z\ndata: w\n\n");
    assertThat(SseFormat.event("c9", "fired", "{\"a\":\"é\"}".getBytes(UTF_8)).toString())
        .isEqualTo("id: c9\nevent: fired\ndata: {\"a\":\"é\"}\n\n");
    assertThat(SseFormat.event(null, "gap", "x\ny\r\nz\rwé".getBytes(UTF_8)).toString())
        .isEqualTo("event: gap\ndata: x\ndata: y\ndata: z\ndata: wé\n\n");
    assertThat(SseFormat.comment("a\nb").toString()).isEqualTo(": a b\n\n");
    assertThat(SseFormat.retry(1000).toString()).isEqualTo("retry: 1000\n\n");
  }

  @Test
  void theErrorBodyNamesTheFieldOnlyWhenThereIsOne() {
    assertThat(ErrorBody.encode("invalid_argument", "delayMs must be >= 0, was -1", "delayMs"))
        .isEqualTo("{\"error\":{\"code\":\"invalid_argument\",\"message\":\"delayMs must be >= 0, was -1\","
            + "\"field\":\"delayMs\"}}");
    assertThat(ErrorBody.encode("not_found", "no timer with id \"x\"", null))
        .isEqualTo("{\"error\":{\"code\":\"not_found\",\"message\":\"no timer with id \\\"x\\\"\"}}");
    assertThat(ErrorBody.detail("unavailable", "down", null).encode())
        .isEqualTo("{\"code\":\"unavailable\",\"message\":\"down\"}");
  }

  @Test
  void pushNoticesAreTypedErrorsAndAGapNamesTheTrimmedRange() {
    assertThat(PushNotices.error("invalid_argument", "from", "bad")).isEqualTo(
        "{\"type\":\"error\",\"code\":\"invalid_argument\",\"message\":\"bad\",\"field\":\"from\"}");
    assertThat(PushNotices.error("slow_consumer", null, "slow")).isEqualTo(
        "{\"type\":\"error\",\"code\":\"slow_consumer\",\"message\":\"slow\"}");
    assertThat(PushNotices.gap(3, 9)).isEqualTo("{\"type\":\"error\",\"code\":\"gap\",\"message\":\"firings 3..9 were"
        + " trimmed from the firing log before they could be replayed; what is retained follows\",\"from\":3,\"to\":9}");
  }

  @Test
  void theBodyLimitIsOneMebibyteAndMessagesSayItFromTheConstant() {
    assertThat(BodyLimit.MAX_BODY_BYTES).isEqualTo(1024 * 1024);
    assertThat(BodyLimit.text()).isEqualTo("1 MiB");
    assertThat(BodyLimit.size(64 * 1024)).isEqualTo("64 KiB");
    assertThat(BodyLimit.size(3 * 1024 * 1024)).isEqualTo("3 MiB");
    assertThat(BodyLimit.size(1000)).isEqualTo("1000 bytes");
  }
}
