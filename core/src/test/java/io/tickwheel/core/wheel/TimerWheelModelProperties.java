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
 * and against a plain reference model, in lockstep; they must agree on what is handed out, in which order and
 * by which advance, and on every read.
 *
 * <p>The model files each timer under an effective tick: {@code ceil(due / tick)}, or the current tick if it was
 * already due when scheduled, and never before the cursor at the time it was scheduled. Every timer the wheel
 * hands out must be pending in the model, due, and of the earliest effective tick of all pending timers; across
 * ticks this fixes the order completely. Within a tick the wheel's contract is FIFO by schedule call among timers
 * that were not postponed: the model marks a re-arm of a pending timer to a due time after the current time and
 * an effective tick at or after the one it was last filed under (eagerly) as possibly postponed (the wheel may
 * keep it in its slot and file it later), and checks that every timer not so marked comes out before any other
 * unmarked timer of its tick scheduled after it. An advance must hand out timers until its limit, until nothing is
 * due by its {@code now}, or until a timer of the earliest tick that may be first in its slot is not due yet (time
 * went back); the cursor ends on the tick it stopped at, or at {@code floor(now / tick)}.
 */
class TimerWheelModelProperties {

  sealed interface Op permits Schedule, Postpone, Cancel, Advance {}

  record Schedule(int key, long offset) implements Op {}

  /** Re-arm {@code key} to its due time plus {@code ticks * tick + jitter} (that far ahead of now if not pending). */
  record Postpone(int key, long ticks, long jitter) implements Op {}

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
      case 4 -> w.schedule("k" + ((k + 3) % 16), now + 1_000);   // postpones someone else (if pending)
      default -> { }
    }
  }

  static final class Model implements Wheelish {
    /**
     * A pending timer: {@code filedTick} is the effective tick of its last eager filing, {@code mayBePostponed}
     * whether a later re-arm may have left it in the wheel's slot of that filing.
     */
    record Pending(long due, long effectiveTick, long seq, long filedTick, boolean mayBePostponed) {}

    final long tick;
    final long originTick;
    final Map<String, Pending> pending = new HashMap<>();
    long currentTime;
    long currentTick;
    long cursor;
    long seq;
    /** The target tick of the advance in progress, and whether it may hand anything out. */
    long target;
    boolean active;

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
      long effective = Math.max(t, cursor);
      Pending old = pending.get(key);
      if (old != null && due > currentTime && effective >= old.filedTick()) {
        pending.put(key, new Pending(due, effective, seq++, old.filedTick(), true));
      } else {
        pending.put(key, new Pending(due, effective, seq++, effective, false));
      }
    }

    @Override
    public void cancel(String key) {
      pending.remove(key);
    }

    long earliestTick() {
      long m = Long.MAX_VALUE;
      boolean any = false;
      for (Pending p : pending.values()) {
        if (!any || p.effectiveTick() < m) {
          m = p.effectiveTick();
          any = true;
        }
      }
      return m;
    }

    /** Whether {@code p}, of the earliest tick, may be first in its slot: postponed, or first by schedule. */
    boolean mayBeFirst(Pending p) {
      if (p.mayBePostponed()) {
        return true;
      }
      for (Pending q : pending.values()) {
        if (q.effectiveTick() == p.effectiveTick() && !q.mayBePostponed() && q.seq() < p.seq()) {
          return false;
        }
      }
      return true;
    }

    void beginAdvance(long now) {
      target = Math.floorDiv(now, tick);
      if (now > currentTime) {
        currentTime = now;
        currentTick = target;
      }
      active = target >= cursor;
    }

    /** The wheel handed out {@code key}: checks it may, and takes it out. */
    void handedOut(String key, long dueAtMs, long now) {
      assertThat(active).as("%s handed out by an advance before the cursor", key).isTrue();
      Pending p = pending.get(key);
      assertThat(p).as("%s handed out while not pending", key).isNotNull();
      assertThat(dueAtMs).as("%s due time", key).isEqualTo(p.due());
      assertThat(dueAtMs).as("%s never early", key).isLessThanOrEqualTo(now);
      assertThat(p.effectiveTick()).as("%s in due-tick order", key).isEqualTo(earliestTick())
          .isLessThanOrEqualTo(target);
      assertThat(mayBeFirst(p)).as("%s FIFO among timers not postponed in its tick", key).isTrue();
      cursor = p.effectiveTick();
      pending.remove(key);
    }

    void endAdvance(long now, int limit, int handed) {
      if (!active) {
        assertThat(handed).as("nothing handed out by an advance before the cursor").isZero();
        return;
      }
      long m = earliestTick();
      if (pending.isEmpty() || m > target) {
        cursor = target;
        return;
      }
      cursor = m;
      if (handed >= limit) {
        return;
      }
      boolean notYetDueAtTheHead = false;
      for (Pending p : pending.values()) {
        if (p.effectiveTick() == m && p.due() > now && mayBeFirst(p)) {
          notYetDueAtTheHead = true;
        }
      }
      assertThat(notYetDueAtTheHead)
          .as("advance(%d, limit %d) stopped after %d with timers due by tick %d pending", now, limit, handed, m)
          .isTrue();
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
      @ForAll @Size(min = 10, max = 100) List<@net.jqwik.api.From("ops") Op> ops) {
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
        long previousTime = model.currentTime;
        now[0] = saturatedAdd(model.currentTime, a.delta());
        fired.clear();
        model.beginAdvance(now[0]);
        int handed = wheel.advance(now[0], handler, a.limit());
        assertThat(handed).isEqualTo(fired.size()).isLessThanOrEqualTo(a.limit());
        model.endAdvance(now[0], a.limit(), handed);
        totalFired[0] += handed;
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
    Statistics.label("cascaded").collect(bucket(wheel.cascadedTotal()));
    Statistics.label("postponed").collect(bucket(wheel.postponedTotal()));
    Statistics.label("refiled").collect(bucket(wheel.refiledTotal()));
    Statistics.label("fired").collect(bucket(totalFired[0]));
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
    long minFireAt = TimerWheel.NO_DEADLINE;
    for (int k = 0; k < 16; k++) {
      String key = "k" + k;
      Model.Pending p = model.pending.get(key);
      assertThat(wheel.dueAt(key)).isEqualTo(p == null ? TimerWheel.NO_DEADLINE : p.due());
      assertThat(wheel.contains(key)).isEqualTo(p != null);
      assertThat(wheel.get(key)).isEqualTo(p == null ? null : key + "@" + p.due());
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
