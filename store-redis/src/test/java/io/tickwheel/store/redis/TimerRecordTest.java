package io.tickwheel.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.store.redis.impl.TimerRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Redis record layout of a timer and the lex order of the due index. */
class TimerRecordTest {

  @Test
  void dueHexByteOrderIsNumericOrderIncludingNegativesAndExtremes() {
    long[] dues = {Long.MIN_VALUE, -1_000, -1, 0, 1, 15, 16, 255, 1_700_000_000_000L, 99_999_999_999_999L,
        Long.MAX_VALUE - 1, Long.MAX_VALUE};
    List<String> hex = new ArrayList<>();
    for (long d : dues) {
      String h = TimerRecord.dueHex(d);
      assertThat(h).hasSize(16).matches("[0-9a-f]{16}");
      assertThat(TimerRecord.parseDueHex(h)).isEqualTo(d);
      hex.add(h);
    }
    String[] sorted = hex.toArray(new String[0]);
    Arrays.sort(sorted); // String order of ASCII = Redis bytewise order
    assertThat(sorted).containsExactlyElementsOf(hex);
  }

  @Test
  void membersSortByDueThenId() {
    assertThat(TimerRecord.member(5, "b").compareTo(TimerRecord.member(5, "c"))).isNegative();
    assertThat(TimerRecord.member(5, "zzz").compareTo(TimerRecord.member(6, "a"))).isNegative();
    assertThat(TimerRecord.idOfMember(TimerRecord.member(42, "a.b:c-1"))).isEqualTo("a.b:c-1");
  }

  @Test
  void encodeDecodeRoundTripsEveryFieldWithAndWithoutPayload() {
    Timer t = new Timer("id:1", "topic.a", Kind.FIXED_DELAY, 7, 250, 9, Misfire.SKIP, "{\"x\":\"héllo ☃\\n\"}",
        -3, 1_700_000_000_123L, 4, 11);
    assertThat(TimerRecord.decode("id:1", TimerRecord.encode(t))).isEqualTo(t);
    Timer noPayload = t.withPayload(null);
    assertThat(TimerRecord.decode("id:1", TimerRecord.encode(noPayload))).isEqualTo(noPayload);
    Timer emptyPayload = t.withPayload("");
    assertThat(TimerRecord.decode("id:1", TimerRecord.encode(emptyPayload))).isEqualTo(emptyPayload);
  }

  @Test
  void headerStartsWithGenerationFiringsDueHexAndTopicForTheScripts() {
    Timer t = new Timer("x", "tp", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, "[]", 2, 300, 5, 6);
    String rec = new String(TimerRecord.encode(t), StandardCharsets.UTF_8);
    assertThat(rec).startsWith("6 5 " + TimerRecord.dueHex(300) + " tp ").endsWith("\nP[]");
  }

  @Test
  void idsAndTopicsWithWhitespaceAreRefusedNamingTheField() {
    Timer t = new Timer("a b", "tp", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 1, 0, 1);
    assertThatThrownBy(() -> TimerRecord.check(t)).hasMessageContaining("id").hasMessageContaining("a b");
    Timer t2 = new Timer("ab", "t\np", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 1, 0, 1);
    assertThatThrownBy(() -> TimerRecord.check(t2)).hasMessageContaining("topic");
  }

  @Test
  void aMalformedRecordFailsNamingTheTimer() {
    assertThatThrownBy(() -> TimerRecord.decode("bad", "1 2 zz".getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"bad\"");
  }
}
