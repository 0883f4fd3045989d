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
 * Random sequences of schedule / cancel / advance (with random limits, time jumps of any size, time going
 * backwards, due times in the past and near the ends of the long range, and a handler that re-schedules and
 * cancels from inside the callback) run against the wheel and against a plain reference model; they must agree
 * exactly on what is handed out, in which order and by which advance, and on every read.
 *
 * <p>The model files each timer under an effective tick: {@code ceil(due / tick)}, or the current tick if it was
 * already due when scheduled, and never before the cursor at the time it was scheduled; an advance hands out
 * timers by (effective tick, schedule sequence), stops at its limit or at a timer not due yet (time went back),
 * and leaves the cursor on the tick it stopped at, or at {@code floor(now / tick)}.
 */
class TimerWheelModelProperties {

  sealed interface Op permits Schedule, Cancel, Advance {}

  record Schedule(int key, long offset) implements Op {}

  record Cancel(int key) implements Op {}

  record Advance(long delta, int limit) implements Op {}

  record Fired(String key, long dueAtMs, long nowMs) {}

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
      default -> { }
    }
  }

  static final class Model implements Wheelish {
    record Pending(long due, long effectiveTick, long seq) {}

    final long tick;
    final long originTick;
    final Map<String, Pending> pending = new HashMap<>();
    long currentTime;
    long currentTick;
    long cursor;
    long seq;

    Model(long tick, long start) {
      this.tick = tick;
      this.currentTime = start;
      this.currentTick = Math.floorDiv(start, tick);
      this.cursor = currentTick;
      this.originTick = currentTick;
    }

    static long ceilDiv(long a, long b) {
      long q = Math.floorDiv(a, b);
      return Math.floorMod(a, b) == 0 ? q : q + 1;
    }

    @Override
    public void schedule(String key, long due) {
      long t = ceilDiv(due, tick);
      if (due <= currentTime && t > currentTick) {
        t = currentTick;
      }
      pending.put(key, new Pending(due, Math.max(t, cursor), seq++));
    }

    @Override
    public void cancel(String key) {
      pending.remove(key);
    }

    List<Fired> advance(long now, int limit) {
      List<Fired> out = new ArrayList<>();
      long target = Math.floorDiv(now, tick);
      if (now > currentTime) {
        currentTime = now;
        currentTick = target;
      }
      if (target < cursor) {
        return out;
      }
      while (true) {
        String first = null;
        Pending p = null;
        for (Map.Entry<String, Pending> e : pending.entrySet()) {
          Pending q = e.getValue();
          if (p == null || q.effectiveTick() < p.effectiveTick()
              || (q.effectiveTick() == p.effectiveTick() && q.seq() < p.seq())) {
            p = q;
            first = e.getKey();
          }
        }
        if (p == null || p.effectiveTick() > target) {
          cursor = target;
          return out;
        }
        cursor = p.effectiveTick();
        if (out.size() >= limit || p.due() > now) {
          return out;
        }
        pending.remove(first);
        out.add(new Fired(first, p.due(), now));
        react(this, first, now, out.size());
      }
    }
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return r;
  }

  @Property(tries = 300)
  void wheelAgreesWithTheReferenceModel(
      @ForAll("ticks") long tick,
      @ForAll("slotBits") int slotBits,
      @ForAll("starts") long start,
      @ForAll @Size(min = 10, max = 80) List<@net.jqwik.api.From("ops") Op> ops) {
    TimerWheel<String> wheel = new TimerWheel<>(tick, start, slotBits, 0);
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
      react(wheelOps, key, now[0], fired.size());
    };

    for (Op op : ops) {
      if (op instanceof Schedule s) {
        String key = "k" + s.key();
        long due = saturatedAdd(model.currentTime, s.offset());
        boolean wasPending = model.pending.containsKey(key);
        assertThat(wheel.schedule(key, due, key + "@" + due)).isEqualTo(!wasPending);
        model.schedule(key, due);
      } else if (op instanceof Cancel c) {
        String key = "k" + c.key();
        assertThat(wheel.cancel(key)).isEqualTo(model.pending.containsKey(key));
        model.cancel(key);
      } else if (op instanceof Advance a) {
        long previousTime = model.currentTime;
        now[0] = saturatedAdd(model.currentTime, a.delta());
        fired.clear();
        int handed = wheel.advance(now[0], handler, a.limit());
        List<Fired> expected = model.advance(now[0], a.limit());
        assertThat(fired).as("handed out by advance(%d, limit %d)", now[0], a.limit()).isEqualTo(expected);
        assertThat(handed).isEqualTo(expected.size()).isLessThanOrEqualTo(a.limit());
        totalFired[0] += handed;
        for (Fired f : fired) {
          assertThat(f.dueAtMs()).as("never early").isLessThanOrEqualTo(f.nowMs());
        }
        if (handed < a.limit() && now[0] >= previousTime) {
          for (Map.Entry<String, Model.Pending> e : model.pending.entrySet()) {
            assertThat(saturatedAdd(e.getValue().due(), tick))
                .as("%s is handed out within one tick", e.getKey()).isGreaterThan(now[0]);
          }
        }
      }
      assertAgrees(wheel, model);
    }
    Statistics.label("levels").collect(wheel.levels() > 3 ? "4+" : String.valueOf(wheel.levels()));
    Statistics.label("cascaded").collect(wheel.cascadedTotal() == 0 ? "0" : wheel.cascadedTotal() < 10 ? "1-9" : "10+");
    Statistics.label("fired").collect(totalFired[0] == 0 ? "0" : totalFired[0] < 10 ? "1-9" : "10+");
  }

  private static void assertAgrees(TimerWheel<String> wheel, Model model) {
    assertThat(wheel.size()).isEqualTo(model.pending.size());
    assertThat(wheel.currentTimeMs()).isEqualTo(model.currentTime);
    long minDue = TimerWheel.NO_DEADLINE;
    long minFireAt = TimerWheel.NO_DEADLINE;
    for (int k = 0; k < 16; k++) {
      String key = "k" + k;
      Model.Pending p = model.pending.get(key);
      assertThat(wheel.dueAt(key)).isEqualTo(p == null ? TimerWheel.NO_DEADLINE : p.due());
      assertThat(wheel.contains(key)).isEqualTo(p != null);
      if (p != null) {
        minDue = Math.min(minDue, p.due());
        long tickStart = p.effectiveTick() > Long.MAX_VALUE / model.tick
            ? Long.MAX_VALUE : p.effectiveTick() * model.tick;
        minFireAt = Math.min(minFireAt, Math.max(tickStart, p.due()));
      }
    }
    if (model.pending.isEmpty()) {
      assertThat(wheel.earliestDueAt()).isEqualTo(TimerWheel.NO_DEADLINE);
      assertThat(wheel.nextExpiryAtMs()).isEqualTo(TimerWheel.NO_DEADLINE);
    } else {
      assertThat(wheel.earliestDueAt()).isLessThanOrEqualTo(Math.min(minDue, Long.MAX_VALUE - 1));
      assertThat(wheel.nextExpiryAtMs()).isLessThanOrEqualTo(Math.min(minFireAt, Long.MAX_VALUE - 1));
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
        Tuple.of(2, key.map(Cancel::new)),
        Tuple.of(4, Combinators.combine(delta, limit).as(Advance::new)));
  }
}
