package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The wheel's key and value records: any key, encoded and referenced values, records that change size. */
class TimerWheelRecordTest {

  private final CheckingCodec codec = new CheckingCodec();
  private final TimerWheel<String> wheel = new TimerWheel<>(10, 0, 6, 0, codec);

  private Map<String, String> drain(long now) {
    Map<String, String> out = new HashMap<>();
    wheel.advance(now, (k, d, v) -> out.put(k, v), Integer.MAX_VALUE);
    return out;
  }

  @Test
  void keysBeyondLatin1AndAtTheLengthLimitComeBackExactly() {
    String wide = "t\u20ac-\uD83D\uDE00";          // euro sign and a surrogate pair
    String latin = "caf\u00e9";
    String longest = "x".repeat(TimerWheel.MAX_KEY_LENGTH);
    wheel.schedule(wide, 5, "w1");
    wheel.schedule(latin, 5, "l1");
    wheel.schedule(longest, 5, "long");
    assertThat(wheel.get(wide)).isEqualTo("w1");
    assertThat(wheel.contains("t\u20ac-\uD83D")).isFalse();
    assertThat(wheel.contains("caf\u00e8")).isFalse();
    assertThat(wheel.get(longest)).isEqualTo("long");
    assertThat(drain(10)).containsExactlyInAnyOrderEntriesOf(Map.of(wide, "w1", latin, "l1", longest, "long"));
  }

  @Test
  void aKeyOverTheLimitIsRefusedNamingItsLength() {
    String tooLong = "x".repeat(TimerWheel.MAX_KEY_LENGTH + 1);
    assertThatThrownBy(() -> wheel.schedule(tooLong, 5, "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(TimerWheel.MAX_KEY_LENGTH + 1));
    assertThat(wheel.size()).isZero();
  }

  @Test
  void reArmsThatChangeTheValueSizeOrItsKindKeepKeyAndValue() {
    wheel.schedule("k", 100, "ab");                     // encoded
    wheel.schedule("k", 200, "abc");                    // by reference (length a multiple of 3)
    assertThat(wheel.get("k")).isEqualTo("abc");
    wheel.schedule("k", 300, "a".repeat(500));          // encoded, a bigger record
    assertThat(wheel.get("k")).isEqualTo("a".repeat(500));
    wheel.schedule("k", 250, "z");                      // earlier: moves in the wheel, a smaller record
    wheel.schedule("k", 260, null);                     // a null value
    assertThat(wheel.contains("k")).isTrue();
    assertThat(wheel.get("k")).isNull();
    wheel.schedule("k", 270, "end");
    assertThat(drain(1_000)).containsExactlyEntriesOf(Map.of("k", "end"));
    assertThat(codec.decoded).isGreaterThan(0);
  }

  @Test
  void churnOfManyKeysAgreesWithAMapAndReusesItsRecords() {
    Random random = new Random(11);
    Map<String, String> reference = new HashMap<>();
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < 5_000; i++) {
        String key = "key-" + random.nextInt(2_000) + (random.nextBoolean() ? "" : "\u0100");
        if (random.nextInt(4) == 0) {
          assertThat(wheel.cancel(key)).isEqualTo(reference.remove(key) != null);
        } else {
          String value = "v".repeat(random.nextInt(40));
          wheel.schedule(key, 1_000_000 + random.nextInt(1_000), value);
          reference.put(key, value);
        }
      }
      assertThat(wheel.size()).isEqualTo(reference.size());
    }
    List<String> keys = new ArrayList<>(reference.keySet());
    for (String k : keys) {
      assertThat(wheel.get(k)).as(k).isEqualTo(reference.get(k));
    }
    assertThat(drain(2_000_000)).isEqualTo(reference);
    // 4,000 distinct keys at most: the records of released keys were reused, not piled up
    assertThat(wheel.recordBytes()).isLessThan(4_000L * 128);
  }
}
