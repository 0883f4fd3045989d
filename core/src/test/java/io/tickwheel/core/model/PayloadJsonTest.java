package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.EncodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PayloadJsonTest {

  @Test
  void encodesEveryShapeOfDecodedJsonExactlyAsVertxDoes() {
    List<Object> values = new ArrayList<>(List.of(
        "plain", "quote \" backslash \\ tab \t newline \n nul \u0000 bell \u0007", "é ü 中文 😀", "",
        0, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1.5, -0.0, 1e300, new BigDecimal("1234567890.0987654321e-30"),
        new BigInteger("123456789012345678901234567890"), true, false,
        new JsonObject(), new JsonArray(),
        new JsonObject().put("a", 1).put("b", new JsonArray().add("x").addNull().add(new JsonObject().put("c", false))),
        new JsonArray().add(1).add(2.25).add("three").add(new JsonArray().add(new JsonArray()))));
    Random random = new Random(42);
    for (int i = 0; i < 500; i++) {
      values.add(randomValue(random, 0));
    }
    for (Object v : values) {
      assertThat(PayloadJson.encode(v)).as("%s", v).isEqualTo(Json.encode(v));
    }
  }

  @Test
  void consecutiveValuesOnOneThreadDoNotRunIntoEachOther() {
    assertThat(PayloadJson.encode(new JsonObject().put("n", 1))).isEqualTo("{\"n\":1}");
    assertThat(PayloadJson.encode(7)).isEqualTo("7");
    assertThat(PayloadJson.encode("s")).isEqualTo("\"s\"");
    assertThat(PayloadJson.encode(new JsonArray().add(1))).isEqualTo("[1]");
  }

  @Test
  void aValueJsonCannotEncodeFailsAndTheNextCallStillWorks() {
    assertThatThrownBy(() -> PayloadJson.encode(new JsonObject().put("ok", 1).put("bad", new Object())))
        .isInstanceOf(EncodeException.class);
    assertThat(PayloadJson.encode(new JsonObject().put("n", 2))).isEqualTo("{\"n\":2}");
  }

  @Test
  void aPayloadLargerThanTheKeptBufferIsEncodedWholeAndSmallOnesAfterIt() {
    String big = "x".repeat(PayloadJson.KEEP_CHARS * 2);
    assertThat(PayloadJson.encode(big)).isEqualTo("\"" + big + "\"");
    assertThat(PayloadJson.encode(true)).isEqualTo("true");
  }

  @Test
  void utf8LengthIsWhatGetBytesAnswersForEveryKindOfCharacter() {
    Random random = new Random(7);
    List<String> samples = new ArrayList<>(List.of("", "ascii", "é", "中", "😀", "a\uD800b", "\uDC00", "\uD800",
        "x\uD83D", "\uD83D\uDE00\uD83D"));
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(20);
      for (int j = 0; j < n; j++) {
        sb.append((char) (random.nextBoolean() ? random.nextInt(0x100) : random.nextInt(0x10000)));
      }
      samples.add(sb.toString());
    }
    for (String s : samples) {
      assertThat(PayloadJson.utf8Length(s)).as("%s", s).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  private static Object randomValue(Random r, int depth) {
    int k = r.nextInt(depth > 3 ? 5 : 7);
    switch (k) {
      case 0: return r.nextLong();
      case 1: return r.nextDouble() * 1e6;
      case 2: return r.nextBoolean();
      case 3: {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
          sb.append((char) (r.nextInt(4) == 0 ? r.nextInt(0xD7FF) : 0x20 + r.nextInt(95)));
        }
        return sb.toString();
      }
      case 4: return r.nextInt(1000);
      case 5: {
        JsonObject o = new JsonObject();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
          o.put("k" + i + (char) ('a' + r.nextInt(26)), randomValue(r, depth + 1));
        }
        return o;
      }
      default: {
        JsonArray a = new JsonArray();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
          a.add(r.nextInt(6) == 0 ? null : randomValue(r, depth + 1));
        }
        return a;
      }
    }
  }
}
