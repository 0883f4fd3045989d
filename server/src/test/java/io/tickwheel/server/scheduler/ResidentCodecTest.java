package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.core.wheel.ValueCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The wheel's resident form of a timer: the payload-less timer comes back field for field, or it is kept whole. */
class ResidentCodecTest {

  private final ResidentCodec codec = new ResidentCodec();

  private Timer roundTrip(Timer t, long dueAt) {
    int n = codec.encodedLength(t, dueAt);
    assertThat(n).isPositive();
    byte[] b = new byte[n + 7];
    codec.encode(t, dueAt, b, 3);
    return codec.decode(t.id(), dueAt, b, 3);
  }

  @Test
  void plainTimersOfEveryKindAndRangeComeBackWithoutTheirPayload() {
    Random r = new Random(5);
    List<Timer> timers = new ArrayList<>();
    long now = 1_795_000_000_000L;
    timers.add(new Timer("hb-1", "heartbeats", Kind.ONCE, 300_000, 0, 0, Misfire.FIRE_ONCE, "{\"a\":1}", now,
        now + 300_000, 0, 1));
    timers.add(new Timer("r", "t", Kind.FIXED_RATE, 1, 1, Long.MAX_VALUE, Misfire.SKIP, null, Long.MIN_VALUE,
        Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
    timers.add(new Timer("d", "t", Kind.FIXED_DELAY, -5, 0, 3, Misfire.FIRE_ALL, null, Long.MAX_VALUE, Long.MIN_VALUE,
        0, 0));
    for (int i = 0; i < 1_000; i++) {
      timers.add(new Timer("id-" + i, "topic-" + r.nextInt(20), Kind.values()[r.nextInt(3)], r.nextLong(),
          r.nextInt(1_000_000), r.nextInt(5), Misfire.values()[r.nextInt(Misfire.values().length)], "p" + i,
          now - r.nextInt(1_000_000), now + r.nextInt(1_000_000), r.nextInt(100), 1 + r.nextInt(1_000)));
    }
    for (Timer t : timers) {
      assertThat(roundTrip(t, t.nextDueAt())).isEqualTo(t.withoutPayload());
      assertThat(roundTrip(t, 12_345)).as("re-filed off its due time").isEqualTo(t.withoutPayload());
    }
    assertThat(codec.topicCount()).isEqualTo(22);
  }

  @Test
  void aHeartbeatTimerTakesAboutADozenBytes() {
    long now = 1_795_000_000_000L;
    Timer t = new Timer("hb-1", "heartbeats", Kind.ONCE, 300_000, 0, 0, Misfire.FIRE_ONCE, "{}", now, now + 300_000,
        0, 7);
    assertThat(codec.encodedLength(t, t.nextDueAt())).isBetween(8, 14);
  }

  @Test
  void timersWithCalendarFieldsOrACallbackAreKeptByReference() {
    long now = 1_795_000_000_000L;
    Timer plain = new Timer("c", "t", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, now, now + 1, 0, 1);
    Timer paused = plain.withPaused(true);
    Timer ending = plain.withExtras(new Timer.Extras(null, now + 10, 0, false, 0));
    Timer cron = new Timer("c", "t", Kind.CRON, 0, 0, 0, Misfire.FIRE_ONCE, null, now, now + 60_000, 0, 1,
        new Timer.Extras(ZonedCron.of("* * * * *", java.time.ZoneOffset.UTC, io.tickwheel.core.calendar.DstGap.AUTO, io.tickwheel.core.calendar.DstOverlap.AUTO), Timer.NO_END, 0, false, 0));
    for (Timer t : List.of(paused, ending, cron)) {
      assertThat(codec.encodedLength(t, t.nextDueAt())).as(t.toString()).isEqualTo(ValueCodec.BY_REFERENCE);
    }
    assertThat(codec.encodedLength(null, 0)).isEqualTo(ValueCodec.BY_REFERENCE);
  }

  @Test
  void topicsBeyondTheTableAreKeptByReference() {
    long now = 1_795_000_000_000L;
    for (int i = 0; i < ResidentCodec.MAX_TOPICS; i++) {
      Timer t = new Timer("x" + i, "t" + i, Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, now, now + 1, 0, 1);
      assertThat(codec.encodedLength(t, now + 1)).isPositive();
    }
    Timer beyond = new Timer("y", "one-more", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, now, now + 1, 0, 1);
    assertThat(codec.encodedLength(beyond, now + 1)).isEqualTo(ValueCodec.BY_REFERENCE);
    Timer known = new Timer("z", "t7", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, now, now + 1, 0, 1);
    assertThat(roundTrip(known, now + 1)).isEqualTo(known);
  }

  @Test
  void aWheelWithTheCodecHandsOutThePayloadLessTimers() {
    long now = 1_795_000_000_000L;
    TimerWheel<Timer> wheel = new TimerWheel<>(10, now, 6, 0, codec);
    List<Timer> in = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Timer t = new Timer("w" + i, "t" + (i % 3), Kind.ONCE, 1_000 + i, 0, 0, Misfire.FIRE_ONCE, "{\"i\":" + i + "}",
          now, now + 1_000 + i, 0, 1 + i);
      in.add(t);
      wheel.schedule(t.id(), t.nextDueAt(), t);
    }
    Timer touched = in.get(5).touched(now + 5_000);
    wheel.schedule(touched.id(), touched.nextDueAt(), touched);
    in.set(5, touched);
    assertThat(wheel.get("w5")).isEqualTo(touched.withoutPayload());
    List<Timer> out = new ArrayList<>();
    wheel.advance(now + 10_000, (id, due, t) -> {
      assertThat(t.id()).isEqualTo(id);
      assertThat(t.nextDueAt()).isEqualTo(due);
      out.add(t);
    }, Integer.MAX_VALUE);
    assertThat(out).containsExactlyInAnyOrderElementsOf(in.stream().map(Timer::withoutPayload).toList());
  }
}
