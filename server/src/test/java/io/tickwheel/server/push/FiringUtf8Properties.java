package io.tickwheel.server.push;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A pushed firing's bytes ({@link FiringUtf8}) are the contract's firing JSON ({@link TimerJson#firingJson}) with
 * {@code partition} and {@code cursor} added, in UTF-8, whatever the ids, topics, payloads and numbers hold (for every
 * cursor {@link FiringCursor} makes); and they parse as JSON
 * with the firing's values.
 */
class FiringUtf8Properties {

  @Property(tries = 1000)
  void theBytesAreTheContractsJsonWithPartitionAndCursor(@ForAll("texts") String id, @ForAll("texts") String topic,
      @ForAll("payloads") String payload, @ForAll("numbers") long seq, @ForAll("numbers") long firing,
      @ForAll("numbers") long dueAt, @ForAll("numbers") long firedAt, @ForAll("numbers") long nominalAt,
      @ForAll("partitions") int partition, @ForAll boolean clustered, @ForAll("cursors") String cursor) {
    Firing f = new Firing(seq, id, topic, firing, dueAt, firedAt, payload, nominalAt);
    String json = TimerJson.firingJson(f);
    String expected = json.substring(0, json.length() - 1) + (clustered ? ",\"partition\":" + partition : "")
        + ",\"cursor\":\"" + cursor + "\"}";
    byte[] bytes = FiringUtf8.encode(f, partition, clustered, cursor);
    assertThat(new String(bytes, UTF_8)).isEqualTo(new String(expected.getBytes(UTF_8), UTF_8));
    assertThat(bytes).isEqualTo(expected.getBytes(UTF_8));
  }

  @Property(tries = 1000)
  void digitsCountsTheDecimalDigits(@ForAll("numbers") long v) {
    if (v >= 0) {
      assertThat(FiringUtf8.digits(v)).isEqualTo(Long.toString(v).length());
    }
  }

  @Example
  void aFiringParsesBackWithItsValues() {
    Firing f = new Firing(1_234_567, "order-42", "orders.eu", 3, 1_700_000_000_123L, 1_700_000_000_125L,
        "{\"n\":\"é\",\"k\":[1,2]}", 1_700_000_000_100L);
    JsonObject o = new JsonObject(new String(FiringUtf8.encode(f, 77, true, "cAbC-_"), UTF_8));
    assertThat(o.getString("type")).isEqualTo("fired");
    assertThat(o.getLong("seq")).isEqualTo(1_234_567L);
    assertThat(o.getString("id")).isEqualTo("order-42");
    assertThat(o.getString("topic")).isEqualTo("orders.eu");
    assertThat(o.getLong("firing")).isEqualTo(3L);
    assertThat(o.getLong("dueAt")).isEqualTo(1_700_000_000_123L);
    assertThat(o.getLong("nominalAt")).isEqualTo(1_700_000_000_100L);
    assertThat(o.getLong("firedAt")).isEqualTo(1_700_000_000_125L);
    assertThat(o.getJsonObject("payload")).isEqualTo(new JsonObject().put("n", "é").put("k",
        new io.vertx.core.json.JsonArray().add(1).add(2)));
    assertThat(o.getInteger("partition")).isEqualTo(77);
    assertThat(o.getString("cursor")).isEqualTo("cAbC-_");
    assertThat(new JsonObject(new String(FiringUtf8.encode(f.withSeq(9), 0, false, "9"), UTF_8)).fieldNames())
        .containsExactly("type", "seq", "id", "topic", "firing", "dueAt", "nominalAt", "firedAt", "payload", "cursor");
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("abcXYZ019._:-").ofMinLength(1).ofMaxLength(40),
        Arbitraries.strings().ofMaxLength(20));
  }

  @Provide
  Arbitrary<String> cursors() {
    return Arbitraries.oneOf(Arbitraries.longs().greaterOrEqual(0).map(FiringCursor::single),
        Arbitraries.longs().between(0, 1L << 40).array(long[].class).ofMinSize(1).ofMaxSize(300)
            .map(FiringCursor::encode));
  }

  @Provide
  Arbitrary<String> payloads() {
    return Arbitraries.oneOf(
        Arbitraries.just(null),
        Arbitraries.strings().ascii().ofMaxLength(200),
        Arbitraries.strings().ofMaxLength(50),
        Arbitraries.of("{\"a\":1}", "\"é\"", "[\"\\u00e9\",\"😀\"]", "null", "{\"x\":\"a\\nb\"}"));
  }

  @Provide
  Arbitrary<Long> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 2_000_000_000_000L),
        Arbitraries.longs(),
        Arbitraries.of(0L, 9L, 10L, 99L, 100L, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE,
            -1L, Long.MIN_VALUE));
  }

  @Provide
  Arbitrary<Integer> partitions() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 4095), Arbitraries.integers());
  }
}
