package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.Topics;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecTest {

  private final Timer timer = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"välue ☃\"}", 11, 22, 3, 4);

  @Test
  void timerRoundTripsThroughTheBinaryCodec() {
    assertThat(Codec.decodeTimer(Codec.encodeTimer(timer))).isEqualTo(timer);
    assertThat(Codec.decodeTimer(Codec.encodeTimer(timer.withoutPayload()))).isEqualTo(timer.withoutPayload());
  }

  @Test
  void firingRoundTripsThroughTheBinaryCodec() {
    Firing f = new Firing(42, "id", "t", 3, 100, 105, "[1]");
    assertThat(Codec.decodeFiring(Codec.encodeFiring(f))).isEqualTo(f);
    Firing noPayload = new Firing(1, "id", "t", 1, 100, 105, null);
    assertThat(Codec.decodeFiring(Codec.encodeFiring(noPayload))).isEqualTo(noPayload);
  }

  @Test
  void anUnknownRecordVersionIsRefused() {
    byte[] bytes = Codec.encodeTimer(timer);
    bytes[0] = 99;
    assertThatThrownBy(() -> Codec.decodeTimer(bytes)).hasMessageContaining("version 99");
  }

  @Test
  void decodedTimersOfOneTopicShareTheCanonicalTopicString() {
    Timer t = new Timer("t1", new String("orders"), Kind.ONCE, 5, 0, 0, Misfire.FIRE_ONCE, null, 0, 5, 0, 1);
    Timer decoded = Codec.decodeTimer(Codec.encodeTimer(t));
    assertThat(decoded).isEqualTo(t);
    assertThat(decoded.topic()).isSameAs(Topics.canonical(new String("orders")));
  }

  // ---- calendars and the record versions ----

  /** {@code encodeTimer} of {@link #PLAIN} by the encoder before calendars existed (release of issue 14). */
  private static final String PLAIN_V1_HEX = "010102000000000000006400000000000000c8000000000000000700000000000000"
      + "0b0000000000000016000000000000000300000000000000040000000469642e3100000007746f7069632d61000000097b226b22"
      + "3a2276227d";
  private static final Timer PLAIN = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"v\"}", 11, 22, 3, 4);
  /** {@code encodeFiring} of {@code new Firing(42, "id", "t", 3, 100, 105, "[1]")} by that same encoder. */
  private static final String FIRING_V1_HEX =
      "01000000000000002a0000000000000003000000000000006400000000000000690000000269640000000174000000035b315d";

  private static Timer cronTimer() {
    ZonedCron c = ZonedCron.of("0 */15 1-3 * * *", ZoneId.of("Australia/Lord_Howe"), DstGap.AUTO, DstOverlap.TWICE);
    return new Timer("c", "cal", Kind.CRON, 0, 0, 5, Misfire.FIRE_ALL, "[2]", 1, 1_000_500, 1, 2,
        new Timer.Extras(c, 2_000_000, 1000, true, 1_000_000));
  }

  /** {@code encodeTimer(cronTimer())} by the encoder before callbacks existed (version 2 without callback flags). */
  private static final String CRON_BEFORE_CALLBACKS_HEX = "0203010000000000000000000000000000000000000000000000050000"
      + "00000000000100000000000f44340000000000000001000000000000000200000001630000000363616c000000035b325d0f000000"
      + "1030202a2f313520312d33202a202a202a000000134175737472616c69612f4c6f72645f486f7765000000046175746f000000057477"
      + "69636500000000001e848000000000000003e800000000000f4240";

  @Test
  void aCalendarRecordWrittenBeforeCallbacksExistedDecodesWithoutCallbackAndIsStillWrittenSo() {
    Timer decoded = Codec.decodeTimer(HexFormat.of().parseHex(CRON_BEFORE_CALLBACKS_HEX));
    assertThat(decoded).isEqualTo(cronTimer());
    assertThat(decoded.callback()).isNull();
    assertThat(HexFormat.of().formatHex(Codec.encodeTimer(cronTimer()))).isEqualTo(CRON_BEFORE_CALLBACKS_HEX);
  }

  @Test
  void callbacksRoundTripWithAndWithoutBackoffAloneAndBesideACalendar() {
    Timer.Extras cron = cronTimer().extras();
    List<Callback> callbacks = List.of(Callback.to("http://[2001:db8::1]:8080/h?q=é"),
        new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000));
    for (Callback cb : callbacks) {
      Timer alone = PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
      Timer beside = cronTimer().withExtras(new Timer.Extras(cron.cron(), cron.endAt(), cron.jitterMs(), cron.paused(),
          cron.nominalAt(), cb));
      for (Timer t : List.of(alone, beside)) {
        byte[] bytes = Codec.encodeTimer(t);
        assertThat(bytes[0]).as("version 3: a release that knows only 2 refuses it rather than drop the callback")
            .isEqualTo((byte) 3);
        Timer decoded = Codec.decodeTimer(bytes);
        assertThat(decoded).isEqualTo(t);
        assertThat(decoded.callback()).isEqualTo(cb);
      }
    }
  }

  @Test
  void theHeadOfEveryRecordVersionIsWhatTheFullDecodeGives() {
    Timer.Extras cron = cronTimer().extras();
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    List<byte[]> records = List.of(Codec.encodeTimer(timer), Codec.encodeTimer(timer.withoutPayload()),
        HexFormat.of().parseHex(PLAIN_V1_HEX), HexFormat.of().parseHex(CRON_BEFORE_CALLBACKS_HEX),
        Codec.encodeTimer(cronTimer().withExtras(new Timer.Extras(cron.cron(), cron.endAt(), cron.jitterMs(),
            cron.paused(), cron.nominalAt(), cb))));
    for (byte[] bytes : records) {
      Timer full = Codec.decodeTimer(bytes);
      Codec.Head head = Codec.decodeHead(bytes);
      assertThat(head).usingRecursiveComparison().ignoringFields("stored").isEqualTo(Codec.Head.of(full));
      assertThat(head.stored()).isSameAs(bytes);
      assertThat(head.topic()).isSameAs(full.topic());            // canonical, as the full decode's
    }
    assertThatThrownBy(() -> Codec.decodeHead(new byte[] {9, 0, 0}))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown timer record version 9");
  }

  @Test
  void aReArmedRecordPatchedFromTheStoredOneIsByteForByteWhatEncodingTheNextStateGives() {
    Timer.Extras cron = cronTimer().extras();
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    Timer noJitter = cronTimer().withExtras(new Timer.Extras(cron.cron(), Timer.NO_END, 0, false, 0));
    List<Timer> stored = List.of(PLAIN, timer.withoutPayload(), noJitter,
        cronTimer().withExtras(new Timer.Extras(cron.cron(), cron.endAt(), cron.jitterMs(), false, cron.nominalAt(),
            cb)),
        cronTimer().withExtras(new Timer.Extras(cron.cron(), Timer.NO_END, 250, false, 1_000_300)),
        PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 40, false, 21, cb)));
    for (Timer t : stored) {
      byte[] bytes = Codec.encodeTimer(t);
      for (Timer next : List.of(t.fired(t.nominalAt() + 60_000, t.nextDueAt() + 60_017), t.withDue(5_000, 5_001))) {
        assertThat(Codec.rearmed(bytes, next)).as("%s -> %s", t, next).isEqualTo(Codec.encodeTimer(next));
      }
      assertThat(bytes).as("the stored record is copied, not written to").isEqualTo(Codec.encodeTimer(t));
    }
  }

  @Test
  void aNextStateThatIsNotTheStoredTimerOneFiringLaterIsEncodedInstead() {
    Timer t = cronTimer().withPaused(false);
    byte[] bytes = Codec.encodeTimer(t);
    assertThat(Codec.rearmed(bytes, t.fired(2_000_000).withGeneration(3))).as("generation").isNull();
    assertThat(Codec.rearmed(bytes, t.fired(2_000_000).withPaused(true))).as("paused").isNull();
    Timer.Extras x = t.extras();
    assertThat(Codec.rearmed(bytes, t.withExtras(new Timer.Extras(x.cron(), x.endAt(), 5, false, x.nominalAt()))))
        .as("another jitter").isNull();
    assertThat(Codec.rearmed(bytes, t.withExtras(new Timer.Extras(x.cron(), x.endAt(), 0, false, 0))))
        .as("no jitter").isNull();
    assertThat(Codec.rearmed(Codec.encodeTimer(PLAIN), PLAIN.withExtras(x))).as("extras added").isNull();
    assertThat(Codec.rearmed(Codec.encodeTimer(PLAIN), new Timer(PLAIN.id(), PLAIN.topic(), Kind.FIXED_DELAY, 100,
        200, 7, Misfire.SKIP, PLAIN.payload(), 11, 22, 3, 4))).as("kind").isNull();
  }

  @Test
  void aTimerRecordWrittenBeforeCalendarsExistedStillDecodesAsAPlainTimer() {
    Timer decoded = Codec.decodeTimer(HexFormat.of().parseHex(PLAIN_V1_HEX));
    assertThat(decoded).isEqualTo(PLAIN);
    assertThat(decoded.extras()).isNull();
  }

  @Test
  void aPlainTimerIsEncodedByteForByteAsBeforeCalendarsExisted() {
    assertThat(HexFormat.of().formatHex(Codec.encodeTimer(PLAIN))).isEqualTo(PLAIN_V1_HEX);
  }

  @Test
  void aFiringRecordWrittenBeforeNominalTimesExistedDecodesWithItsDueTimeAsNominalTime() {
    Firing f = Codec.decodeFiring(HexFormat.of().parseHex(FIRING_V1_HEX));
    assertThat(f).isEqualTo(new Firing(42, "id", "t", 3, 100, 105, "[1]"));
    assertThat(f.nominalAt()).isEqualTo(100);
    assertThat(HexFormat.of().formatHex(Codec.encodeFiring(f))).as("and is written as before").isEqualTo(FIRING_V1_HEX);
  }

  @Test
  void aJitteredFiringKeepsItsNominalTimeInVersionTwo() {
    Firing f = new Firing(7, "id", "t", 1, 1_040, 1_041, null, 1_000);
    byte[] bytes = Codec.encodeFiring(f);
    assertThat(bytes[0]).isEqualTo((byte) 2);
    assertThat(Codec.decodeFiring(bytes)).isEqualTo(f);
    assertThat(bytes.length).isEqualTo(Codec.encodeFiring(f.withSeq(7)).length)
        .isEqualTo(Codec.encodeFiring(new Firing(7, "id", "t", 1, 1_040, 1_041, null)).length + 8);
  }

  @Test
  void aCronTimerRoundTripsEveryExtrasFieldInVersionTwo() {
    Timer t = cronTimer();
    byte[] bytes = Codec.encodeTimer(t);
    assertThat(bytes[0]).isEqualTo((byte) 2);
    Timer decoded = Codec.decodeTimer(bytes);
    assertThat(decoded).isEqualTo(t);
    assertThat(decoded.cron().expression()).isEqualTo("0 */15 1-3 * * *");
    assertThat(decoded.cron().zone().getId()).isEqualTo("Australia/Lord_Howe");
    assertThat(decoded.cron().gap()).as("auto as configured, not resolved").isEqualTo(DstGap.AUTO);
    assertThat(decoded.cron().overlap()).isEqualTo(DstOverlap.TWICE);
    assertThat(decoded.endAt()).isEqualTo(2_000_000);
    assertThat(decoded.jitterMs()).isEqualTo(1000);
    assertThat(decoded.nominalAt()).isEqualTo(1_000_000);
    assertThat(decoded.paused()).isTrue();
  }

  @Test
  void eachExtrasFieldAloneRoundTripsAndCostsOnlyItsOwnBytes() {
    int plain = Codec.encodeTimer(PLAIN).length;
    Timer paused = PLAIN.withPaused(true);
    Timer ended = PLAIN.withExtras(new Timer.Extras(null, 999, 0, false, 0));
    Timer jittered = PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 50, false, 20));
    assertThat(Codec.decodeTimer(Codec.encodeTimer(paused))).isEqualTo(paused);
    assertThat(Codec.decodeTimer(Codec.encodeTimer(ended))).isEqualTo(ended);
    assertThat(Codec.decodeTimer(Codec.encodeTimer(jittered))).isEqualTo(jittered);
    assertThat(Codec.encodeTimer(paused)).hasSize(plain + 1);
    assertThat(Codec.encodeTimer(ended)).hasSize(plain + 1 + 8);
    assertThat(Codec.encodeTimer(jittered)).hasSize(plain + 1 + 16);
  }

  @Test
  void aRecordWithAnUnknownDstPolicyIsRefusedNamingIt() {
    byte[] good = Codec.encodeTimer(cronTimer());
    String hex = HexFormat.of().formatHex(good);
    String twice = HexFormat.of().formatHex("twice".getBytes(StandardCharsets.US_ASCII));
    String thrice = HexFormat.of().formatHex("thric".getBytes(StandardCharsets.US_ASCII));
    byte[] bad = HexFormat.of().parseHex(hex.replace(twice, thrice));
    assertThatThrownBy(() -> Codec.decodeTimer(bad)).hasMessageContaining("dstOverlap").hasMessageContaining("thric");
  }

  @Test
  void decodingACronTimerDoesNotParseItsExpressionItsFirstLookUpDoes() {
    // an expression no other test decodes: stored calendars are shared per text
    ZonedCron c = ZonedCron.of("0 17 4 * * 5", ZoneId.of("Europe/Amsterdam"), DstGap.AUTO, DstOverlap.AUTO);
    Timer t = new Timer("lazy", "cal", Kind.CRON, 0, 0, 5, Misfire.FIRE_ONCE, null, 1, 1_000_500, 1, 0,
        new Timer.Extras(c, Timer.NO_END, 0, false, 1_000_000));
    Timer decoded = Codec.decodeTimer(Codec.encodeTimer(t));
    assertThat(decoded.cron().parsed()).isFalse();
    assertThat(decoded.cron()).isEqualTo(c);
    assertThat(decoded.cron().after(1_000_000)).isEqualTo(c.after(1_000_000));
    assertThat(decoded.cron().parsed()).isTrue();
  }
}
