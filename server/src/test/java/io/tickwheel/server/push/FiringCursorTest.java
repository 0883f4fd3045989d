package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.ValidationException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FiringCursorTest {

  @Test
  void clusterCursorRoundTripsAnyPositions() {
    Random r = new Random(7);
    for (int n : new int[] {1, 2, 16, 256, 1024}) {
      long[] pos = new long[n];
      for (int i = 0; i < n; i++) {
        pos[i] = switch (i % 4) {
          case 0 -> 0;
          case 1 -> Long.MAX_VALUE - r.nextInt(10);
          default -> r.nextInt(1_000_000);
        };
      }
      String c = FiringCursor.encode(pos);
      assertThat(c).matches("c[A-Za-z0-9_-]+").hasSizeLessThanOrEqualTo(FiringCursor.maxLength(n));
      assertThat(FiringCursor.parse("from", c, n, false)).containsExactly(pos);
    }
  }

  @Test
  void aCursorOf256EvenlyFilledPartitionsIsAbout350Characters() {
    long[] pos = new long[256];
    Random r = new Random(1);
    for (int i = 0; i < pos.length; i++) {
      pos[i] = 1_000_000 + r.nextInt(60);
    }
    // 2 bytes for the count, 3 for the first seq, 1 per neighbour difference under 64
    assertThat(FiringCursor.encode(pos)).hasSize(1 + (int) Math.ceil((2 + 3 + 255) * 4 / 3.0));
    assertThat(FiringCursor.encode(new long[256])).hasSize(345);
  }

  @Test
  void theIncrementalEncoderFollowsPublishesAndVarintLengthChangesEitherWay() {
    long[] pos = new long[256];
    CursorEncoder encoder = new CursorEncoder();
    assertThat(encoder.encode(pos)).isEqualTo(FiringCursor.encode(pos)).hasSize(345);
    Random r = new Random(3);
    for (int i = 0; i < 5_000; i++) {
      pos[r.nextInt(pos.length)] += 1 + r.nextInt(3);
      assertThat(encoder.encode(pos)).isEqualTo(FiringCursor.encode(pos));
    }
    // partition 10 jumps ahead: its difference takes more bytes, partition 11's (now negative) as many; then back
    pos[10] += 1L << 40;
    assertThat(encoder.encode(pos)).isEqualTo(FiringCursor.encode(pos));
    pos[11] = pos[10];
    assertThat(encoder.encode(pos)).isEqualTo(FiringCursor.encode(pos));
    pos[10] = pos[9];
    assertThat(encoder.encode(pos)).isEqualTo(FiringCursor.encode(pos));
    assertThat(FiringCursor.parse("from", encoder.encode(pos), 256, false)).containsExactly(pos);
    assertThat(encoder.encode(pos)).isSameAs(encoder.encode(pos.clone()));
  }

  @Test
  void singleNodeCursorIsTheSeqAndAnIntegerIsAcceptedOnlyThere() {
    assertThat(FiringCursor.single(42)).isEqualTo("42");
    assertThat(FiringCursor.parse("from", "42", 1, true)).containsExactly(42);
    assertThat(FiringCursor.parse("from", FiringCursor.encode(new long[] {42}), 1, true)).containsExactly(42);
    assertThatThrownBy(() -> FiringCursor.parse("from", "42", 4, false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("an integer seq names no position in a cluster's partitions");
  }

  @Test
  void malformedCursorsAreRefusedNamingTheFieldAndTheValue() {
    assertBad("", "empty");
    assertBad("-3", "does not start with a digit or 'c'");
    assertBad("99999999999999999999", "not an integer");
    assertBad("c*", "not base64url");
    assertBad("c", "cut short");
    assertBad(FiringCursor.encode(new long[] {1, 2}), "names 2 partitions, this server has 3");
    assertBad(FiringCursor.encode(new long[] {1, 2, 3}).substring(0, 3), "cut short");
    assertBad(FiringCursor.encode(new long[] {1, 2, 3}) + "AA", "too many");
    assertBad("c" + "A".repeat(FiringCursor.maxLength(3)), "characters long");
  }

  private static void assertBad(String value, String why) {
    assertThatThrownBy(() -> FiringCursor.parse("Last-Event-ID", value, 3, true))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Last-Event-ID must be the cursor of a firing or the integer seq")
        .hasMessageContaining(why)
        .satisfies(e -> assertThat(((ValidationException) e).field()).isEqualTo("Last-Event-ID"));
  }
}
