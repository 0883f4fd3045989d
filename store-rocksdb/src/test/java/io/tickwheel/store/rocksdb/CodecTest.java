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

  /** What the store reads back of {@code t}: its record decoded beside its key. */
  private static Timer roundTrip(Timer t) {
    return Codec.decodeTimer(Keys.id(t.id()), Codec.encodeTimer(t));
  }

  @Test
  void timerRoundTripsThroughTheBinaryCodec() {
    assertThat(roundTrip(timer)).isEqualTo(timer);
    assertThat(roundTrip(timer.withoutPayload())).isEqualTo(timer.withoutPayload());
    assertThat(Codec.decodeTimer(timer.id(), Codec.encodeTimer(timer))).isEqualTo(timer);
  }

  @Test
  void versionFourLeavesTheIdToTheKeyAndTakesVarintsForSmallNumbers() {
    Timer plain = new Timer("ws3f2a9c1b7d4e-123456", "bench", Kind.ONCE, 3_600_000, 0, 1, Misfire.FIRE_ONCE,
        "{\"n\":123456}", 1_795_000_000_000L, 1_795_003_600_000L, 0, 1);
    byte[] bytes = Codec.encodeTimer(plain);
    assertThat(bytes[0]).isEqualTo((byte) 4);
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).doesNotContain(plain.id());
    // version, kind, misfire, due (8); firings, generation, max (1 each), delay (4), period (1), created (6);
    // topic (1 + 5); payload (1 + 12)
    assertThat(bytes).hasSize(3 + 8 + 1 + 1 + 4 + 1 + 1 + 6 + 6 + 13);
    assertThat(Codec.decodeTimer(Keys.id(plain.id()), bytes)).isEqualTo(plain);
  }

  @Test
  void extremeNumbersRoundTrip() {
    for (long v : new long[] {0, 1, -1, 63, 64, -64, -65, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE}) {
      Timer t = new Timer("x", "t", Kind.FIXED_DELAY, v, v, v, Misfire.FIRE_ALL, null, v, v, v, v,
          new Timer.Extras(null, v, 0, false, v, new Callback("http://h/", Callback.MAX_TIMEOUT_MS,
              Callback.MAX_ATTEMPTS, Callback.MAX_BACKOFF_MS, Callback.MAX_BACKOFF_MS)));
      assertThat(roundTrip(t)).as("%d", v).isEqualTo(t);
      assertThat(roundTrip(t.withExtras(null))).as("%d", v).isEqualTo(t.withExtras(null));
    }
  }

  @Test
  void aRecordCutShortIsRefused() {
    byte[] bytes = Codec.encodeTimer(timer);
    for (int n = 3; n < bytes.length; n++) {
      byte[] cut = java.util.Arrays.copyOf(bytes, n);
      assertThatThrownBy(() -> Codec.decodeTimer("id.1", cut)).as("%d bytes", n)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cut short");
    }
  }

  @Test
  void firingRoundTripsThroughTheBinaryCodec() {
    Firing f = new Firing(42, "id", "t", 3, 100, 105, "[1]");
    assertThat(Codec.decodeFiring(Keys.seq(42), Codec.encodeFiring(f))).isEqualTo(f);
    Firing noPayload = new Firing(1, "id", "t", 1, 100, 105, null);
    assertThat(Codec.decodeFiring(Keys.seq(1), Codec.encodeFiring(noPayload))).isEqualTo(noPayload);
    Firing late = new Firing(Long.MAX_VALUE, "id", "t", Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, "", 0);
    assertThat(Codec.decodeFiring(Keys.seq(Long.MAX_VALUE), Codec.encodeFiring(late))).isEqualTo(late);
    assertThat(Codec.firedAtOf(Codec.encodeFiring(late))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void versionThreeLeavesTheSeqToTheKeyAndTakesVarints() {
    Firing f = new Firing(1_000_000, "ws3f2a9c1b7d4e-123456", "bench", 1, 1_795_003_600_000L, 1_795_003_600_002L,
        "{\"n\":123456}");
    byte[] bytes = Codec.encodeFiring(f);
    assertThat(bytes[0]).isEqualTo((byte) 3);
    // version; firing count 1, due 6, fired - due 1, nominal - due 1; id 1 + 21, topic 1 + 5, payload 1 + 12
    assertThat(bytes).hasSize(1 + 1 + 6 + 1 + 1 + 22 + 6 + 13);
    assertThat(Codec.decodeFiring(Keys.seq(1_000_000), bytes)).isEqualTo(f);
    assertThat(Codec.firedAtOf(bytes)).isEqualTo(f.firedAt());
  }

  @Test
  void anUnknownRecordVersionIsRefused() {
    byte[] bytes = Codec.encodeTimer(timer);
    bytes[0] = 99;
    assertThatThrownBy(() -> Codec.decodeTimer("id.1", bytes)).hasMessageContaining("version 99");
  }

  @Test
  void decodedTimersOfOneTopicShareTheCanonicalTopicString() {
    Timer t = new Timer("t1", new String("orders"), Kind.ONCE, 5, 0, 0, Misfire.FIRE_ONCE, null, 0, 5, 0, 1);
    Timer decoded = roundTrip(t);
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

  /** A callback timer ({@link #callbackTimer}) as the encoder before version 4 wrote it (version 3). */
  private static final String CALLBACK_V3_HEX = "030102000000000000006400000000000000c800000000000000070000000000"
      + "00000b0000000000000016000000000000000300000000000000040000000469642e3100000007746f7069632d61000000097b226b"
      + "223a2276227d3c0000000000001388000000000000002800000000000000150000001b68747470733a2f2f686f6f6b732e65786"
      + "16d706c652e636f6d2f78000003e80000001400000000000000640000000005265c00";

  private static Timer callbackTimer() {
    return PLAIN.withExtras(new Timer.Extras(null, 5_000, 40, false, 21,
        new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000)));
  }

  @Test
  void aCalendarRecordWrittenBeforeCallbacksExistedDecodesWithoutCallback() {
    Timer decoded = Codec.decodeTimer("c", HexFormat.of().parseHex(CRON_BEFORE_CALLBACKS_HEX));
    assertThat(decoded).isEqualTo(cronTimer());
    assertThat(decoded.callback()).isNull();
    assertThat(Codec.encodeTimer(cronTimer())[0]).as("and is now written in version 4").isEqualTo((byte) 4);
    assertThat(roundTrip(cronTimer())).isEqualTo(cronTimer());
  }

  @Test
  void aCallbackRecordOfVersionThreeDecodesWithItsOwnId() {
    Timer decoded = Codec.decodeTimer(Keys.id("another key"), HexFormat.of().parseHex(CALLBACK_V3_HEX));
    assertThat(decoded).isEqualTo(callbackTimer());
    assertThat(Codec.decodeHead("another key", HexFormat.of().parseHex(CALLBACK_V3_HEX)).id()).isEqualTo("id.1");
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
        Timer decoded = roundTrip(t);
        assertThat(decoded).isEqualTo(t);
        assertThat(decoded.callback()).isEqualTo(cb);
      }
    }
  }

  @Test
  void theHeadOfEveryRecordVersionIsWhatTheFullDecodeGives() {
    Timer.Extras cron = cronTimer().extras();
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    Timer withCallback = cronTimer().withExtras(new Timer.Extras(cron.cron(), cron.endAt(), cron.jitterMs(),
        cron.paused(), cron.nominalAt(), cb));
    List<byte[]> records = List.of(Codec.encodeTimer(timer), Codec.encodeTimer(timer.withoutPayload()),
        HexFormat.of().parseHex(PLAIN_V1_HEX), HexFormat.of().parseHex(CRON_BEFORE_CALLBACKS_HEX),
        HexFormat.of().parseHex(CALLBACK_V3_HEX), Codec.encodeTimer(withCallback), Codec.encodeTimer(cronTimer()),
        Codec.encodeTimer(PLAIN.withPaused(true)));
    List<String> ids = List.of(timer.id(), timer.id(), PLAIN.id(), "c", PLAIN.id(), "c", "c", PLAIN.id());
    for (int i = 0; i < records.size(); i++) {
      byte[] bytes = records.get(i);
      Timer full = Codec.decodeTimer(ids.get(i), bytes);
      Codec.Head head = Codec.decodeHead(Keys.id(ids.get(i)), bytes);
      assertThat(head).usingRecursiveComparison().ignoringFields("stored").isEqualTo(Codec.Head.of(full));
      assertThat(head.stored()).isSameAs(bytes);
      assertThat(head.topic()).isSameAs(full.topic());            // canonical, as the full decode's
    }
    assertThatThrownBy(() -> Codec.decodeHead("x", new byte[] {9, 0, 0}))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown timer record version 9");
  }

  @Test
  void aReArmedRecordPatchedFromTheStoredOneIsByteForByteWhatEncodingTheNextStateGives() {
    Timer.Extras cron = cronTimer().extras();
    Callback cb = new Callback("https://hooks.example.com/x", 1000, 20, 100, 86_400_000);
    Timer noJitter = cronTimer().withExtras(new Timer.Extras(cron.cron(), Timer.NO_END, 0, false, 0));
    List<Timer> stored = List.of(PLAIN, timer.withoutPayload(), noJitter,
        cronTimer().withExtras(new Timer.Extras(cron.cron(), cron.endAt(), 0, false, 0, cb)),
        PLAIN.withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb)),
        withFirings(PLAIN, 63), withFirings(PLAIN, 8191));    // the firing count's varint grows a byte
    for (Timer t : stored) {
      byte[] bytes = Codec.encodeTimer(t);
      for (Timer next : List.of(t.fired(t.nominalAt() + 60_000, t.nextDueAt() + 60_017), t.withDue(5_000, 5_001))) {
        assertThat(Codec.rearmed(bytes, next)).as("%s -> %s", t, next).isEqualTo(Codec.encodeTimer(next));
      }
      assertThat(bytes).as("the stored record is copied, not written to").isEqualTo(Codec.encodeTimer(t));
    }
  }

  private static Timer withFirings(Timer t, long firings) {
    return new Timer(t.id(), t.topic(), t.kind(), t.delayMs(), t.periodMs(), t.maxFirings(), t.misfire(), t.payload(),
        t.createdAt(), t.nextDueAt(), firings, t.generation(), t.extras());
  }

  @Test
  void aJitteredTimerOrARecordOfAnEarlierVersionIsEncodedAgainNotPatched() {
    Timer.Extras cron = cronTimer().extras();
    Timer jittered = cronTimer().withExtras(new Timer.Extras(cron.cron(), Timer.NO_END, 250, false, 1_000_300));
    assertThat(Codec.rearmed(Codec.encodeTimer(jittered), jittered.fired(1_060_000, 1_060_017))).isNull();
    assertThat(Codec.rearmed(HexFormat.of().parseHex(PLAIN_V1_HEX), PLAIN.fired(22 + 200, 22 + 200))).isNull();
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
    Timer decoded = Codec.decodeTimer(Keys.id(PLAIN.id()), HexFormat.of().parseHex(PLAIN_V1_HEX));
    assertThat(decoded).isEqualTo(PLAIN);
    assertThat(decoded.extras()).isNull();
    assertThat(roundTrip(PLAIN).extras()).as("version 4 keeps a timer without extras so").isNull();
  }

  @Test
  void aFiringRecordWrittenBeforeNominalTimesExistedDecodesWithItsDueTimeAsNominalTime() {
    Firing f = Codec.decodeFiring(Keys.seq(9), HexFormat.of().parseHex(FIRING_V1_HEX));
    assertThat(f).as("its own seq").isEqualTo(new Firing(42, "id", "t", 3, 100, 105, "[1]"));
    assertThat(f.nominalAt()).isEqualTo(100);
    assertThat(Codec.firedAtOf(HexFormat.of().parseHex(FIRING_V1_HEX))).isEqualTo(105);
  }

  /** {@code new Firing(7, "id", "t", 1, 1_040, 1_041, null, 1_000)} in firing record version 2. */
  private static final String JITTERED_FIRING_V2_HEX = "0200000000000000070000000000000001000000000000041000000000"
      + "000004110000000269640000000174ffffffff00000000000003e8";

  @Test
  void aJitteredFiringKeepsItsNominalTimeInEveryVersion() {
    Firing f = new Firing(7, "id", "t", 1, 1_040, 1_041, null, 1_000);
    assertThat(Codec.decodeFiring(Keys.seq(7), HexFormat.of().parseHex(JITTERED_FIRING_V2_HEX))).isEqualTo(f);
    assertThat(Codec.firedAtOf(HexFormat.of().parseHex(JITTERED_FIRING_V2_HEX))).isEqualTo(1_041);
    assertThat(Codec.decodeFiring(Keys.seq(7), Codec.encodeFiring(f))).isEqualTo(f);
    assertThatThrownBy(() -> Codec.decodeFiring(Keys.seq(7), new byte[] {9, 0}))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown firing record version 9");
  }

  @Test
  void aCronTimerRoundTripsEveryExtrasField() {
    Timer t = cronTimer();
    Timer decoded = roundTrip(t);
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
    assertThat(roundTrip(paused)).isEqualTo(paused);
    assertThat(roundTrip(ended)).isEqualTo(ended);
    assertThat(roundTrip(jittered)).isEqualTo(jittered);
    assertThat(Codec.encodeTimer(paused)).hasSize(plain + 1);               // the flags
    assertThat(Codec.encodeTimer(ended)).hasSize(plain + 1 + 2);            // 999: two varint bytes
    assertThat(Codec.encodeTimer(jittered)).hasSize(plain + 1 + 1 + 1);     // 50 and 20: one each
  }

  @Test
  void aRecordWithAnUnknownDstPolicyIsRefusedNamingIt() {
    byte[] good = Codec.encodeTimer(cronTimer());
    String hex = HexFormat.of().formatHex(good);
    String twice = HexFormat.of().formatHex("twice".getBytes(StandardCharsets.US_ASCII));
    String thrice = HexFormat.of().formatHex("thric".getBytes(StandardCharsets.US_ASCII));
    byte[] bad = HexFormat.of().parseHex(hex.replace(twice, thrice));
    assertThatThrownBy(() -> Codec.decodeTimer("c", bad)).hasMessageContaining("dstOverlap").hasMessageContaining("thric");
  }

  @Test
  void decodingACronTimerDoesNotParseItsExpressionItsFirstLookUpDoes() {
    // an expression no other test decodes: stored calendars are shared per text
    ZonedCron c = ZonedCron.of("0 17 4 * * 5", ZoneId.of("Europe/Amsterdam"), DstGap.AUTO, DstOverlap.AUTO);
    Timer t = new Timer("lazy", "cal", Kind.CRON, 0, 0, 5, Misfire.FIRE_ONCE, null, 1, 1_000_500, 1, 0,
        new Timer.Extras(c, Timer.NO_END, 0, false, 1_000_000));
    Timer decoded = roundTrip(t);
    assertThat(decoded.cron().parsed()).isFalse();
    assertThat(decoded.cron()).isEqualTo(c);
    assertThat(decoded.cron().after(1_000_000)).isEqualTo(c.after(1_000_000));
    assertThat(decoded.cron().parsed()).isTrue();
  }
}
