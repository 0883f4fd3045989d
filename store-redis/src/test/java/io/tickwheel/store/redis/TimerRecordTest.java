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
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import java.time.ZoneId;
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

  @Test
  void encodeWritesExactlyTheHeaderAndPayloadSegmentForExtremeAndRandomValues() {
    long[] edge = {0, 1, -1, 9, 10, 99, 100, -10, Long.MAX_VALUE, Long.MIN_VALUE, 1_700_000_000_123L};
    java.util.Random rnd = new java.util.Random(42);
    List<Timer> ts = new ArrayList<>();
    for (long a : edge) {
      for (long b : edge) {
        ts.add(new Timer("i", "tp", Kind.ONCE, a, b, a, Misfire.SKIP, null, b, a, b, a));
      }
    }
    for (int i = 0; i < 1000; i++) {
      long x = rnd.nextLong() >> rnd.nextInt(64);
      ts.add(new Timer("i" + i, i % 2 == 0 ? "top.ic" : "other_topic-2", Kind.values()[i % 3], x, -x, i, Misfire.values()[i % 3],
          i % 3 == 0 ? null : "{\"v\":\"é" + i + "\"}", x / 3, x ^ i, i, x));
    }
    for (Timer t : ts) {
      String segment = t.payload() == null ? "N" : "P" + t.payload();
      assertThat(TimerRecord.encode(t)).as("%s", t)
          .isEqualTo((TimerRecord.header(t) + "\n" + segment).getBytes(StandardCharsets.UTF_8));
      assertThat(TimerRecord.decode(t.id(), TimerRecord.encode(t))).isEqualTo(t);
    }
  }

  @Test
  void memberBytesAreTheMemberStringsUtf8Bytes() {
    for (long due : new long[] {Long.MIN_VALUE, -1, 0, 42, Long.MAX_VALUE}) {
      assertThat(TimerRecord.member(due, "a.b:c-1".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(TimerRecord.member(due, "a.b:c-1").getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void anIndexEntryBelongsToItsTimerOnlyAtItsCurrentDueTime() {
    Timer t = new Timer("x1", "tp", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 500, 0, 1);
    assertThat(TimerRecord.isMemberOf(TimerRecord.member(500, "x1"), t)).isTrue();
    assertThat(TimerRecord.isMemberOf(TimerRecord.member(400, "x1"), t)).isFalse();
    assertThat(TimerRecord.isMemberOf(TimerRecord.member(500, "x"), t)).isFalse();
    assertThat(TimerRecord.isMemberOf(TimerRecord.member(500, "yx1"), t)).isFalse();
  }

  // ---- calendars ----

  /** What {@code encode} wrote for {@link #PLAIN} before calendars existed (release of issue 14). */
  private static final String PLAIN_BEFORE = "4 3 8000000000000016 topic-a 1 2 100 200 7 11\nP{\"k\":\"v\"}";
  private static final Timer PLAIN = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"v\"}", 11, 22, 3, 4);

  private static Timer cronTimer(String payload) {
    ZonedCron c = ZonedCron.of("0 30 1 L * ?", ZoneId.of("America/Santiago"), DstGap.SHIFT, DstOverlap.AUTO);
    return new Timer("c:1", "cal", Kind.CRON, 0, 0, 5, Misfire.FIRE_ALL, payload, 1, 1_000_500, 1, 2,
        new Timer.Extras(c, 2_000_000, 1000, true, 1_000_000));
  }

  @Test
  void callbacksRoundTripWithAndWithoutBackoffAloneAndBesideACalendarAndComeBeforeTheCronExpression() {
    Timer.Extras cron = cronTimer("[1]").extras();
    List<Callback> callbacks = List.of(Callback.to("http://[2001:db8::1]:8080/h?q=é&r=%20"),
        new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000));
    for (Callback cb : callbacks) {
      Timer alone = PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
      Timer beside = cronTimer(null).withExtras(new Timer.Extras(cron.cron(), cron.endAt(), cron.jitterMs(),
          cron.paused(), cron.nominalAt(), cb));
      for (Timer t : List.of(alone, beside)) {
        Timer decoded = TimerRecord.decode(t.id(), TimerRecord.encode(t));
        assertThat(decoded).isEqualTo(t);
        assertThat(decoded.callback()).isEqualTo(cb);
      }
      String header = TimerRecord.header(beside);
      assertThat(header.indexOf(" u=" + cb.url() + " ")).isPositive().isLessThan(header.indexOf(" c="));
    }
  }

  @Test
  void aRecordWrittenBeforeCalendarsExistedStillDecodesAsAPlainTimer() {
    Timer decoded = TimerRecord.decode("id.1", PLAIN_BEFORE.getBytes(StandardCharsets.UTF_8));
    assertThat(decoded).isEqualTo(PLAIN);
    assertThat(decoded.extras()).isNull();
  }

  @Test
  void aPlainTimerIsEncodedByteForByteAsBeforeCalendarsExisted() {
    assertThat(new String(TimerRecord.encode(PLAIN), StandardCharsets.UTF_8)).isEqualTo(PLAIN_BEFORE);
  }

  @Test
  void aCronTimerRoundTripsEveryExtrasFieldWithAndWithoutPayload() {
    for (String payload : new String[] {null, "", "{\"x\":\"a b\\n c\"}"}) {
      Timer t = cronTimer(payload);
      Timer decoded = TimerRecord.decode("c:1", TimerRecord.encode(t));
      assertThat(decoded).isEqualTo(t);
      assertThat(decoded.cron().expression()).isEqualTo("0 30 1 L * ?");
      assertThat(decoded.cron().gap()).isEqualTo(DstGap.SHIFT);
      assertThat(decoded.cron().overlap()).as("auto as configured").isEqualTo(DstOverlap.AUTO);
      assertThat(decoded.endAt()).isEqualTo(2_000_000);
      assertThat(decoded.jitterMs()).isEqualTo(1000);
      assertThat(decoded.nominalAt()).isEqualTo(1_000_000);
      assertThat(decoded.paused()).isTrue();
    }
  }

  @Test
  void extrasFollowTheHeaderFieldsTheScriptsReadAndTheCronExpressionComesLast() {
    Timer t = cronTimer("[]");
    String rec = new String(TimerRecord.encode(t), StandardCharsets.UTF_8);
    assertThat(rec).isEqualTo(TimerRecord.header(t) + "\nP[]");
    assertThat(rec).startsWith("2 1 " + TimerRecord.dueHex(1_000_500) + " cal 3 1 0 0 5 1 z=America/Santiago g=shift "
        + "o=auto e=2000000 j=1000 n=1000000 p=1 c=0 30 1 L * ?\n");
  }

  @Test
  void eachExtrasFieldAloneRoundTrips() {
    for (Timer t : List.of(PLAIN.withPaused(true), PLAIN.withExtras(new Timer.Extras(null, 999, 0, false, 0)),
        PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 50, false, 20)))) {
      assertThat(TimerRecord.decode("id.1", TimerRecord.encode(t))).isEqualTo(t);
    }
  }

  @Test
  void anUnknownExtrasFieldOrDstPolicyFailsNamingTheTimer() {
    String unknown = "4 3 8000000000000016 topic-a 1 2 100 200 7 11 q=1\nN";
    assertThatThrownBy(() -> TimerRecord.decode("u", unknown.getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("\"u\"").hasMessageContaining("q=1");
    String badPolicy = "4 3 8000000000000016 topic-a 3 2 0 0 7 11 z=UTC g=sometimes o=once c=0 * * * *\nN";
    assertThatThrownBy(() -> TimerRecord.decode("b", badPolicy.getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("\"b\"").hasMessageContaining("sometimes");
  }

  @Test
  void decodingACronTimerDoesNotParseItsExpressionItsFirstLookUpDoes() {
    // an expression no other test decodes: stored calendars are shared per text
    ZonedCron c = ZonedCron.of("0 19 4 * * 5", ZoneId.of("Europe/Amsterdam"), DstGap.AUTO, DstOverlap.AUTO);
    Timer t = new Timer("lazy", "cal", Kind.CRON, 0, 0, 5, Misfire.FIRE_ONCE, null, 1, 1_000_500, 1, 0,
        new Timer.Extras(c, Timer.NO_END, 0, false, 1_000_000));
    Timer decoded = TimerRecord.decode("lazy", TimerRecord.encode(t));
    assertThat(decoded.cron().parsed()).isFalse();
    assertThat(decoded.cron()).isEqualTo(c);
    assertThat(decoded.cron().after(1_000_000)).isEqualTo(c.after(1_000_000));
    assertThat(decoded.cron().parsed()).isTrue();
  }
}
