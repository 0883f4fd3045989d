package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.Size;

/**
 * Random sequences of schedule / postpone / cancel / advance (with random limits, time jumps of any size, time
 * going backwards, due times in the past and near the ends of the long range, many re-arms of pending timers to
 * later due times, and a handler that re-schedules and cancels from inside the callback) run against the wheel
 * and against a plain reference model, in lockstep; they must agree on what is handed out, by which advance,
 * in which tick order, and on every read.
 *
 * <p>Exactness: every timer the wheel hands out must be pending in the model and due ({@code dueAt <= now}), and an
 * advance that returns less than its limit must leave no pending timer due by its {@code now}: a timer is handed out
 * by the first advance whose {@code now} reaches its due time (or, when a limit stopped that one, by the next ones).
 *
 * <p>Order: the model files each timer under an effective tick, {@code floor(due / tick)}, but never before the
 * cursor at the time it was scheduled (a due time in the past joins the cursor's tick). Every timer the wheel hands
 * out must be of the earliest effective tick of all pending timers; within a tick the order is not specified. The
 * cursor ends on the tick an advance stopped at, or at {@code floor(now / tick)}, never going back.
 */
class TimerWheelModelProperties {

  sealed interface Op permits Schedule, Postpone, Cancel, Advance {}

  record Schedule(int key, long offset) implements Op {}

  /** Re-arm {@code key} to its due time plus {@code ticks * tick + jitter} (that far ahead of now if not pending). */
  record Postpone(int key, long ticks, long jitter) implements Op {}

  record Cancel(int key) implements Op {}

  record Advance(long delta, int limit) implements Op {}

  record Fired(String key, long dueAtMs, long nowMs) {}

  /** A timer due {@code offset} after the start; {@code change} 1: then cancelled, 2: then postponed by {@code later}. */
  record Plan(long offset, int change, long later) {}

  /** Deterministic re-entrant behaviour, applied identically to the wheel and to the model. */
  interface Wheelish {
    void schedule(String key, long dueAtMs);

    void cancel(String key);
  }

  private static void react(Wheelish w, String key, long now, int firedSoFar) {
    int k = Integer.parseInt(key.substring(1));
    if (firedSoFar >= 25) {
      return;
    }
    switch (k % 6) {
      case 0 -> w.schedule(key, now - 3);                 // into the past: again in this advance
      case 1 -> w.schedule(key, now + 7);                 // periodic
      case 2 -> w.cancel("k" + ((k + 1) % 16));           // maybe due in the same tick
      case 3 -> w.schedule("k" + ((k + 2) % 16), now);    // someone else, due right now
      case 4 -> w.schedule("k" + ((k + 3) % 16), now + 1_000);   // postpones someone else (if pending)
      default -> { }
    }
  }

  static final class Model implements Wheelish {
    /** A pending timer and its effective tick (see the class documentation). */
    record Pending(long due, long effectiveTick) {}

    final long tick;
    final long originTick;
    final Map<String, Pending> pending = new HashMap<>();
    long currentTime;
    long cursor;
    /** The target tick of the advance in progress. */
    long target;

    Model(long tick, long start) {
      this.tick = tick;
      this.currentTime = start;
      this.cursor = Math.floorDiv(start, tick);
      this.originTick = cursor;
    }

    @Override
    public void schedule(String key, long due) {
      pending.put(key, new Pending(due, Math.max(Math.floorDiv(due, tick), cursor)));
    }

    @Override
    public void cancel(String key) {
      pending.remove(key);
    }

    long earliestTick() {
      long m = Long.MAX_VALUE;
      for (Pending p : pending.values()) {
        m = Math.min(m, p.effectiveTick());
      }
      return m;
    }

    void beginAdvance(long now) {
      target = Math.floorDiv(now, tick);
      if (now > currentTime) {
        currentTime = now;
      }
    }

    /** The wheel handed out {@code key}: checks it may, and takes it out. */
    void handedOut(String key, long dueAtMs, long now) {
      Pending p = pending.get(key);
      assertThat(p).as("%s handed out while not pending", key).isNotNull();
      assertThat(dueAtMs).as("%s due time", key).isEqualTo(p.due());
      assertThat(dueAtMs).as("%s never early", key).isLessThanOrEqualTo(now);
      assertThat(p.effectiveTick()).as("%s in tick order", key).isEqualTo(earliestTick())
          .isLessThanOrEqualTo(Math.max(target, cursor));
      cursor = Math.max(cursor, p.effectiveTick());
      pending.remove(key);
    }

    void endAdvance(long now, int limit, int handed) {
      if (handed < limit) {
        for (Map.Entry<String, Pending> e : pending.entrySet()) {
          assertThat(e.getValue().due())
              .as("advance(%d, limit %d) handed out %d and left %s pending, due by then", now, limit, handed,
                  e.getKey())
              .isGreaterThan(now);
        }
      }
      cursor = Math.max(cursor, Math.min(earliestTick(), target));
    }
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return r;
  }

  @Property(tries = 400)
  void wheelAgreesWithTheReferenceModel(
      @ForAll("ticks") long tick,
      @ForAll("slotBits") int slotBits,
      @ForAll("starts") long start,
      @ForAll boolean encoded,
      @ForAll @Size(min = 10, max = 100) List<@net.jqwik.api.From("ops") Op> ops) {
    TimerWheel<String> wheel = new TimerWheel<>(tick, start, slotBits, 0, encoded ? new CheckingCodec() : null);
    Model model = new Model(tick, start);
    List<Fired> fired = new ArrayList<>();
    long[] now = {start};
    long[] totalFired = {0};
    Wheelish wheelOps = new Wheelish() {
      @Override
      public void schedule(String key, long dueAtMs) {
        wheel.schedule(key, dueAtMs, key + "@" + dueAtMs);
      }

      @Override
      public void cancel(String key) {
        wheel.cancel(key);
      }
    };
    ExpiryHandler<String> handler = (key, dueAtMs, value) -> {
      assertThat(value).isEqualTo(key + "@" + dueAtMs);
      fired.add(new Fired(key, dueAtMs, now[0]));
      model.handedOut(key, dueAtMs, now[0]);
      react(wheelOps, key, now[0], fired.size());
      react(model, key, now[0], fired.size());
    };

    for (Op op : ops) {
      if (op instanceof Schedule s) {
        schedule(wheel, model, "k" + s.key(), saturatedAdd(model.currentTime, s.offset()));
      } else if (op instanceof Postpone p) {
        String key = "k" + p.key();
        Model.Pending old = model.pending.get(key);
        long from = old == null ? model.currentTime : old.due();
        schedule(wheel, model, key, saturatedAdd(from, saturatedAdd(p.ticks() * tick, p.jitter())));
      } else if (op instanceof Cancel c) {
        String key = "k" + c.key();
        assertThat(wheel.cancel(key)).isEqualTo(model.pending.containsKey(key));
        model.cancel(key);
      } else if (op instanceof Advance a) {
        now[0] = saturatedAdd(model.currentTime, a.delta());
        fired.clear();
        model.beginAdvance(now[0]);
        int handed = wheel.advance(now[0], handler, a.limit());
        assertThat(handed).isEqualTo(fired.size()).isLessThanOrEqualTo(a.limit());
        model.endAdvance(now[0], a.limit(), handed);
        totalFired[0] += handed;
      }
      assertAgrees(wheel, model);
    }
    Statistics.label("levels").collect(wheel.levels() > 3 ? "4+" : String.valueOf(wheel.levels()));
    Statistics.label("cascaded").collect(bucket(wheel.cascadedTotal()));
    Statistics.label("postponed").collect(bucket(wheel.postponedTotal()));
    Statistics.label("refiled").collect(bucket(wheel.refiledTotal()));
    Statistics.label("fired").collect(bucket(totalFired[0]));
  }

  /**
   * The server's driver: sleep until {@link TimerWheel#nextExpiryAtMs()}, advance to it, repeat. Every timer comes
   * out at exactly its due millisecond (never early, never late), with a few empty wake-ups at most per timer,
   * cancel and postponement (a lower bound met by a cancelled or postponed timer, or a higher level's slot start).
   */
  @Property(tries = 300)
  void drivingByNextExpiryHandsOutEveryTimerAtItsDueMillisecond(
      @ForAll("ticks") long tick,
      @ForAll("slotBits") int slotBits,
      @ForAll("starts") long start,
      @ForAll boolean encoded,
      @ForAll @Size(min = 1, max = 60) List<@net.jqwik.api.From("plans") Plan> plans) {
    TimerWheel<String> wheel = new TimerWheel<>(tick, start, slotBits, 0, encoded ? new CheckingCodec() : null);
    Map<String, Long> expected = new HashMap<>();
    int changes = 0;
    for (int i = 0; i < plans.size(); i++) {
      Plan p = plans.get(i);
      String key = "t" + i;
      long due = start + p.offset();
      wheel.schedule(key, due, key);
      expected.put(key, due);
      if (p.change() == 1) {
        wheel.cancel(key);
        expected.remove(key);
        changes++;
      } else if (p.change() == 2) {
        wheel.schedule(key, due + p.later(), key);    // a postponement (lazy when it can be)
        expected.put(key, due + p.later());
        changes++;
      }
    }
    Map<String, Long> firedAt = new HashMap<>();
    long[] now = {start};
    ExpiryHandler<String> handler = (key, dueAtMs, value) -> {
      assertThat(firedAt.put(key, now[0])).as("%s handed out twice", key).isNull();
      assertThat(dueAtMs).isEqualTo(expected.get(key));
    };
    int wakeUps = 0;
    int emptyWakeUps = 0;
    while (wheel.size() > 0) {
      long next = wheel.nextExpiryAtMs();
      now[0] = Math.max(next, wheel.currentTimeMs());
      wakeUps++;
      if (wheel.advance(now[0], handler, Integer.MAX_VALUE) == 0) {
        emptyWakeUps++;
      }
      assertThat(wakeUps).as("wake-ups").isLessThan(100_000);
    }
    assertThat(firedAt.keySet()).isEqualTo(expected.keySet());
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      assertThat(firedAt.get(e.getKey())).as("%s due at %d", e.getKey(), e.getValue())
          .isEqualTo(Math.max(e.getValue(), start));
    }
    assertThat(emptyWakeUps).isLessThanOrEqualTo((expected.size() + changes) * (wheel.levels() + 1));
    Statistics.label("levels").collect(wheel.levels() > 3 ? "4+" : String.valueOf(wheel.levels()));
    Statistics.label("empty wake-ups").collect(bucket(emptyWakeUps));
  }

  @Provide
  Arbitrary<Plan> plans() {
    Arbitrary<Long> offset = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.longs().between(-20, 200)),
        Tuple.of(3, Arbitraries.longs().between(0, 100_000)),
        Tuple.of(1, Arbitraries.longs().between(0, 1L << 36)));
    Arbitrary<Integer> change = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(0)), Tuple.of(1, Arbitraries.just(1)), Tuple.of(3, Arbitraries.just(2)));
    Arbitrary<Long> later = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.longs().between(0, 30)),
        Tuple.of(1, Arbitraries.longs().between(0, 1L << 30)));
    return Combinators.combine(offset, change, later).as(Plan::new);
  }

  private static String bucket(long n) {
    return n == 0 ? "0" : n < 10 ? "1-9" : "10+";
  }

  private static void schedule(TimerWheel<String> wheel, Model model, String key, long due) {
    boolean wasPending = model.pending.containsKey(key);
    assertThat(wheel.schedule(key, due, key + "@" + due)).isEqualTo(!wasPending);
    model.schedule(key, due);
  }

  private static void assertAgrees(TimerWheel<String> wheel, Model model) {
    assertThat(wheel.size()).isEqualTo(model.pending.size());
    assertThat(wheel.currentTimeMs()).isEqualTo(model.currentTime);
    long minDue = TimerWheel.NO_DEADLINE;
    for (int k = 0; k < 16; k++) {
      String key = "k" + k;
      Model.Pending p = model.pending.get(key);
      assertThat(wheel.dueAt(key)).isEqualTo(p == null ? TimerWheel.NO_DEADLINE : p.due());
      assertThat(wheel.contains(key)).isEqualTo(p != null);
      assertThat(wheel.get(key)).isEqualTo(p == null ? null : key + "@" + p.due());
      if (p != null) {
        minDue = Math.min(minDue, p.due());
      }
    }
    if (model.pending.isEmpty()) {
      assertThat(wheel.earliestDueAt()).isEqualTo(TimerWheel.NO_DEADLINE);
      assertThat(wheel.nextExpiryAtMs()).isEqualTo(TimerWheel.NO_DEADLINE);
    } else {
      // Lower bounds: a driver that sleeps until then never wakes late.
      assertThat(wheel.earliestDueAt()).isLessThanOrEqualTo(Math.min(minDue, Long.MAX_VALUE - 1));
      assertThat(wheel.nextExpiryAtMs()).isLessThanOrEqualTo(Math.min(minDue, Long.MAX_VALUE - 1));
    }
    int total = 0;
    int[] counts = new int[64];
    for (int level = 0; level < wheel.levels(); level++) {
      total += wheel.occupancy(level, counts);
    }
    assertThat(total).isEqualTo(model.pending.size());
    long relativeCursor = model.cursor - model.originTick;
    for (int level = 0; level < wheel.levels(); level++) {
      int shift = level * wheel.slotBitsPerLevel();
      assertThat(wheel.cursor(level))
          .isEqualTo((int) (relativeCursor >>> shift) & (wheel.slots(level) - 1));
    }
    assertThat(wheel.refiledTotal()).isLessThanOrEqualTo(wheel.postponedTotal());
  }

  @Provide
  Arbitrary<Long> ticks() {
    return Arbitraries.of(1L, 2L, 7L, 10L, 1_000L);
  }

  @Provide
  Arbitrary<Integer> slotBits() {
    return Arbitraries.of(1, 2, 3, 6);
  }

  @Provide
  Arbitrary<Long> starts() {
    return Arbitraries.oneOf(
        Arbitraries.of(0L, 1_704_067_200_003L, -12_345L),
        Arbitraries.longs().between(-(1L << 42), 1L << 42));
  }

  @Provide
  Arbitrary<Op> ops() {
    Arbitrary<Integer> key = Arbitraries.integers().between(0, 15);
    Arbitrary<Long> offset = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.longs().between(-100, 3_000)),
        Tuple.of(2, Arbitraries.longs().between(0, 5_000_000)),
        Tuple.of(1, Arbitraries.longs().between(0, 1L << 42)),
        Tuple.of(1, Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE, -(1L << 40), (1L << 62))));
    // Postponements: to the same, the next, the one after, a few later ticks, across level boundaries, far.
    Arbitrary<Long> ticks = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.longs().between(0, 3)),
        Tuple.of(3, Arbitraries.longs().between(0, 100)),
        Tuple.of(2, Arbitraries.longs().between(0, 5_000)),
        Tuple.of(1, Arbitraries.longs().between(0, 1L << 24)));
    Arbitrary<Long> jitter = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(0L)),
        Tuple.of(3, Arbitraries.longs().between(-3, 3)),
        Tuple.of(2, Arbitraries.longs().between(-1_000, 1_000)));
    Arbitrary<Long> delta = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.longs().between(0, 300)),
        Tuple.of(2, Arbitraries.longs().between(0, 100_000)),
        Tuple.of(1, Arbitraries.longs().between(0, 1L << 41)),
        Tuple.of(1, Arbitraries.longs().between(-200, 0)));
    Arbitrary<Integer> limit = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(Integer.MAX_VALUE)),
        Tuple.of(2, Arbitraries.integers().between(0, 4)));
    return Arbitraries.frequencyOf(
        Tuple.of(5, Combinators.combine(key, offset).as(Schedule::new)),
        Tuple.of(5, Combinators.combine(key, ticks, jitter).as(Postpone::new)),
        Tuple.of(2, key.map(Cancel::new)),
        Tuple.of(4, Combinators.combine(delta, limit).as(Advance::new)));
  }
}
