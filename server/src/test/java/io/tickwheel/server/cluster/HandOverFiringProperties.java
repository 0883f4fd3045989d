package io.tickwheel.server.cluster;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.ManualSchedulers;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Random interleavings of hand-over (nodes joining, leaving with SIGTERM, dying, pausing past their lease and waking
 * up firing first), schedule, touch, put, cancel and firing, run by three in-process nodes (each a {@link LeaseKeeper}
 * serving its partitions with manual schedulers) over one {@link MemoryCoordinator}, all on one manual clock: every
 * round, deadline check and fire turn is turned by the sequence, so a run is exact and repeatable.
 *
 * <p>At the end every node is woken and the clock runs on until all is due and settled. Then each timer, against a
 * model of the writes that succeeded: it fired once in the durable firing log, at the due time of its last
 * successful write (create, touch or put), never before it; a timer whose last successful write was a cancel never
 * fired (a put that creates the id anew, after a firing or a cancel, starts another timer that fires once too). The
 * firings the nodes published are exactly the recorded ones.
 *
 * <p>What it guards: with the coordinator's fence check disabled ({@code fenceHolds} always true) it fails within a
 * few dozen tries, a node woken past its lease accepting a create that no live owner ever loads (it never fires).
 * The statistics' coverage checks keep the sequences exercising hand-overs, lost leases and fenced writes.
 */
class HandOverFiringProperties {

  static final long T0 = 1_700_000_000_000L;
  static final long LEASE = 2000;
  static final int P = 4;
  static final int NODES = 3;

  static Vertx vertx;
  /** The schedulers' meters, shared by every run (a registry per node costs more than a whole run). */
  static Metrics schedulerMeters;

  @BeforeContainer
  static void startVertx() {
    vertx = TestVertx.create();
    schedulerMeters = new Metrics();
  }

  @AfterContainer
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  // ------------------------------------------------------------------ actions

  sealed interface Action permits Schedule, Touch, Put, Cancel, Advance, Pause, Wake, Stall, Stop, Kill, Start {}

  /** Creates a new timer, due {@code delayMs} from now, through a node that serves its partition. */
  record Schedule(int via, long delayMs) implements Action {}

  /** Touches timer number {@code timer} (of those scheduled so far), with {@code delayMs} or (-1) its own. */
  record Touch(int timer, int via, long delayMs) implements Action {}

  /** Puts (creates or replaces) timer number {@code timer}, due {@code delayMs} from now. */
  record Put(int timer, int via, long delayMs) implements Action {}

  record Cancel(int timer, int via) implements Action {}

  /** The clock moves on {@code ms}; each running node has a round and a fire turn ({@code fireFirst}: in that order). */
  record Advance(long ms, boolean fireFirst) implements Action {}

  /** The node stops (SIGSTOP, or cut off): no rounds, no fire turns. */
  record Pause(int node) implements Action {}

  /**
   * A paused node wakes, the {@code node}-th (modulo) of those paused ({@code fireFirst}: its fire turn runs before
   * its lease deadlines are checked).
   */
  record Wake(int node, boolean fireFirst) implements Action {}

  /**
   * The node stops (SIGSTOP) while the clock runs on past its lease by {@code extraMs} (the others turning every
   * period), then wakes: it still believes it serves its partitions until its next round (the next advance), so the
   * calls until then may reach it; {@code fireFirst}: its fire turn runs at once.
   */
  record Stall(int node, long extraMs, boolean fireFirst) implements Action {}

  /** SIGTERM: the node hands its partitions over and leaves. */
  record Stop(int node) implements Action {}

  /** kill -9: the node is gone, its leases run out. */
  record Kill(int node) implements Action {}

  /** A new process for the id of the {@code node}-th (modulo) node stopped or killed. */
  record Start(int node) implements Action {}

  @Provide
  Arbitrary<Action> actions() {
    Arbitrary<Integer> node = Arbitraries.integers().between(0, NODES - 1);
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 1000);
    Arbitrary<Long> delay = Arbitraries.longs().between(0, 4000);
    return Arbitraries.frequencyOf(
        Tuple.of(8, Combinators.combine(pick, delay).as(Schedule::new)),
        Tuple.of(5, Combinators.combine(pick, pick, Arbitraries.longs().between(-1, 4000)).as(Touch::new)),
        Tuple.of(3, Combinators.combine(pick, pick, delay).as(Put::new)),
        Tuple.of(2, Combinators.combine(pick, pick).as(Cancel::new)),
        Tuple.of(10, Combinators.combine(Arbitraries.longs().between(1, 1500), Arbitraries.of(true, false))
            .as(Advance::new)),
        Tuple.of(1, node.map(Pause::new)),
        Tuple.of(2, Combinators.combine(node, Arbitraries.of(true, false)).as(Wake::new)),
        Tuple.of(3, Combinators.combine(node, Arbitraries.longs().between(0, 2000), Arbitraries.of(true, false))
            .as(Stall::new)),
        Tuple.of(1, node.map(Stop::new)),
        Tuple.of(1, node.map(Kill::new)),
        Tuple.of(2, node.map(Start::new)));
  }

  // ------------------------------------------------------------------ the harness

  enum State { RUNNING, PAUSED, GONE }

  /**
   * One process: its lease keeper and schedulers, on the run's one context (so a turn of every node is one hop from the
   * test thread).
   */
  final class Process {
    final String id;
    final Context ctx;
    final LeaseKeeper keeper;
    final ClusterMetrics metrics = new ClusterMetrics(new SimpleMeterRegistry());
    State state = State.RUNNING;

    Process(String id, Run run) {
      this.id = id;
      this.ctx = run.ctx;
      PartitionFactory factory = (p, store) -> {
        Scheduler s = ManualSchedulers.manual(vertx, ctx, store, run.clock::get, SchedulerOptions.defaults(10),
            schedulerMeters);
        s.onFiring(run.published::add);
        return s;
      };
      keeper = new LeaseKeeper(vertx, run.coord, id, "http://" + id, P, LEASE, run.clock::get, factory, metrics);
      run.processes.add(this);
      on(ctx, () -> run.coord.join(id, "http://" + id, P).map(n -> {
        keeper.startManual();
        return n;
      }));
    }

    void round() {
      on(ctx, keeper::round);
    }

    void fire() {
      on(ctx, this::drain);
    }

    /** A round and a fire turn, in that order or ({@code fireFirst}) the other; on the context. */
    Future<Void> turnHere(boolean fireFirst) {
      return fireFirst ? drain().compose(v -> keeper.round()) : keeper.round().compose(v -> drain());
    }

    private Future<Void> drain() {
      List<Future<Integer>> all = new ArrayList<>();
      keeper.schedulers().forEach(s -> all.add(s.drain()));
      return Future.join(all).mapEmpty();
    }

    /** A round and a fire turn, in that order or ({@code fireFirst}) the other. */
    void turn(boolean fireFirst) {
      on(ctx, () -> turnHere(fireFirst));
    }
  }

  /**
   * A successful write of the model: the due time it set, or -1 for a cancel; {@code fresh} when it created the timer
   * (a create, or a put of an id that had none: the one before it fired or was cancelled).
   */
  record Write(String what, long at, long due, boolean fresh) {}

  /**
   * The due times {@code writes} must have fired, in order: each timer's last due time before the next fresh write,
   * and the last one's unless it was cancelled.
   */
  static List<Long> expectedFirings(List<Write> writes) {
    List<Long> out = new ArrayList<>();
    long current = -1;
    for (Write w : writes) {
      if (w.fresh() && current >= 0) {
        out.add(current);
      }
      current = w.due();
    }
    if (current >= 0) {
      out.add(current);
    }
    return out;
  }

  /** One run: the clock, the coordinator, the processes, and the model. */
  final class Run {
    final Context ctx = vertx.getOrCreateContext();
    final AtomicLong clock = new AtomicLong(T0);
    final MemoryCoordinator coord = new MemoryCoordinator(clock::get, P);
    final Process[] slots = new Process[NODES];
    /** Every process started, for the statistics. */
    final List<Process> processes = new ArrayList<>();
    final List<Firing> published = Collections.synchronizedList(new ArrayList<>());
    final TimerParser parser = new TimerParser(Limits.defaults(10), true);
    /** Per timer (in creation order), its successful writes. */
    final LinkedHashMap<String, List<Write>> model = new LinkedHashMap<>();
    final List<String> ids = new ArrayList<>();
    final StringBuilder log = new StringBuilder();
    int created;

    Run() {
      for (int i = 0; i < NODES; i++) {
        slots[i] = new Process(name(i), this);
      }
    }

    String name(int i) {
      return String.valueOf((char) ('a' + i));
    }

    /** A write and the process that made it: null when no running node serves the partition. */
    record Served(Process by, WriteOutcome outcome) {}

    /**
     * Runs {@code op} on the scheduler of a running process that serves the partition of {@code id} as it believes,
     * the {@code via}-th (modulo) of them; null if none does.
     */
    Served write(String id, int via, java.util.function.Function<Scheduler, Future<WriteOutcome>> op) {
      int p = Partitions.of(id, P);
      return on(ctx, () -> {
        List<Process> in = new ArrayList<>();
        for (Process n : slots) {
          if (n.state == State.RUNNING && n.keeper.local(p) != null) {
            in.add(n);
          }
        }
        if (in.isEmpty()) {
          return Future.succeededFuture(null);
        }
        Process n = in.get(via % in.size());
        return op.apply(n.keeper.local(p)).map(o -> new Served(n, o));
      });
    }

    /** A turn of every running node, in slot order, in one hop. */
    void turnAll(boolean fireFirst) {
      on(ctx, () -> {
        Future<Void> f = Future.succeededFuture();
        for (Process n : slots) {
          if (n.state == State.RUNNING) {
            f = f.compose(v -> n.turnHere(fireFirst));
          }
        }
        return f;
      });
    }

    void apply(Action a) {
      long now = clock.get();
      if (a instanceof Schedule s) {
        String id = "t" + created++;
        TimerSpec spec = parser.parse(new JsonObject().put("id", id).put("delayMs", s.delayMs()), now);
        Served w = write(id, s.via(), sch -> sch.create(spec));
        if (w == null) {
          log.append(" (no owner)");
          return;
        }
        WriteOutcome o = w.outcome();
        log.append(" -> ").append(w.by().id).append(": ").append(o);
        if (o instanceof WriteOutcome.Created c) {
          ids.add(id);
          model.computeIfAbsent(id, k -> new ArrayList<>()).add(new Write("create", now, c.timer().nextDueAt(), true));
          assertThat(c.timer().nextDueAt()).isEqualTo(now + s.delayMs());
        }
      } else if (a instanceof Touch t) {
        if (ids.isEmpty()) {
          return;
        }
        String id = ids.get(t.timer() % ids.size());
        Long override = t.delayMs() < 0 ? null : t.delayMs();
        Served w = write(id, t.via(), sch -> sch.touch(id, override));
        if (w == null) {
          log.append(" (no owner)");
          return;
        }
        WriteOutcome o = w.outcome();
        log.append(" ").append(id).append(" -> ").append(w.by().id).append(": ").append(o);
        if (o instanceof WriteOutcome.Touched x) {
          model.get(id).add(new Write("touch", now, x.timer().nextDueAt(), false));
        }
      } else if (a instanceof Put u) {
        if (ids.isEmpty()) {
          return;
        }
        String id = ids.get(u.timer() % ids.size());
        TimerSpec spec = parser.parse(new JsonObject().put("id", id).put("delayMs", u.delayMs()), now);
        Served w = write(id, u.via(), sch -> sch.upsert(spec));
        if (w == null) {
          log.append(" (no owner)");
          return;
        }
        WriteOutcome o = w.outcome();
        log.append(" ").append(id).append(" -> ").append(w.by().id).append(": ").append(o);
        if (o instanceof WriteOutcome.Created c) {
          model.get(id).add(new Write("put", now, c.timer().nextDueAt(), true));
        } else if (o instanceof WriteOutcome.Replaced r) {
          model.get(id).add(new Write("put", now, r.timer().nextDueAt(), false));
        }
      } else if (a instanceof Cancel c) {
        if (ids.isEmpty()) {
          return;
        }
        String id = ids.get(c.timer() % ids.size());
        Served w = write(id, c.via(), sch -> sch.cancel(id));
        if (w == null) {
          log.append(" (no owner)");
          return;
        }
        WriteOutcome o = w.outcome();
        log.append(" ").append(id).append(" -> ").append(w.by().id).append(": ").append(o);
        if (o instanceof WriteOutcome.Cancelled) {
          model.get(id).add(new Write("cancel", now, -1, false));
        }
      } else if (a instanceof Advance v) {
        clock.addAndGet(v.ms());
        turnAll(v.fireFirst());
      } else if (a instanceof Pause p) {
        if (slots[p.node()].state == State.RUNNING) {
          slots[p.node()].state = State.PAUSED;
        }
      } else if (a instanceof Wake w) {
        Process n = nth(State.PAUSED, w.node());
        if (n != null) {
          n.state = State.RUNNING;
          n.turn(w.fireFirst());
          log.append(" ").append(n.id);
        }
      } else if (a instanceof Stall st) {
        Process n = slots[st.node()];
        if (n.state == State.RUNNING) {
          n.state = State.PAUSED;
          long until = clock.get() + LEASE + st.extraMs();
          while (clock.get() < until) {
            clock.set(Math.min(until, clock.get() + LEASE / 4));
            turnAll(false);
          }
          n.state = State.RUNNING;   // awake, its lease deadlines not yet checked: the next calls may reach it
          if (st.fireFirst()) {
            n.fire();
          }
        }
      } else if (a instanceof Stop s) {
        Process n = slots[s.node()];
        if (n.state == State.RUNNING) {
          on(n.ctx, n.keeper::shutdown);
          n.state = State.GONE;
        }
      } else if (a instanceof Kill k) {
        slots[k.node()].state = State.GONE;
      } else if (a instanceof Start s) {
        Process gone = nth(State.GONE, s.node());
        if (gone != null) {
          int i = java.util.Arrays.asList(slots).indexOf(gone);
          slots[i] = new Process(name(i), this);
          slots[i].round();
          log.append(" ").append(slots[i].id);
        }
      }
    }

    /** The {@code k}-th (modulo) process in {@code state}, or null. */
    Process nth(State state, int k) {
      List<Process> in = new ArrayList<>();
      for (Process n : slots) {
        if (n.state == state) {
          in.add(n);
        }
      }
      return in.isEmpty() ? null : in.get(k % in.size());
    }

    /** Runs rounds (and fire turns) a period apart until every node counts the others and the partitions spread. */
    void settle() {
      for (int i = 0; i < 4; i++) {
        clock.addAndGet(LEASE / 4);
        turnAll(false);
      }
      log.append("\nsettled at ").append(clock.get() - T0);
    }

    /** Wakes every paused node, starts one if none runs, and runs the clock on until everything was due long ago. */
    void finish() {
      for (Process n : slots) {
        if (n.state == State.PAUSED) {
          n.state = State.RUNNING;
          n.turn(false);
        }
      }
      if (java.util.Arrays.stream(slots).noneMatch(n -> n.state == State.RUNNING)) {
        slots[0] = new Process(name(0), this);
      }
      long lastDue = model.values().stream().flatMap(List::stream).mapToLong(Write::due).max().orElse(0);
      long until = Math.max(clock.get(), lastDue) + 3 * LEASE;
      long period = LEASE / 4;
      while (clock.get() < until) {
        clock.addAndGet(period);
        turnAll(false);
      }
    }

    void check() {
      Map<String, List<Firing>> recorded = new HashMap<>();
      for (int p = 0; p < P; p++) {
        for (Firing f : TestVertx.await(coord.partitionReader(p).readFirings(0, 1_000_000))) {
          recorded.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
        }
      }
      Map<String, List<Firing>> handedOut = new HashMap<>();
      synchronized (published) {
        for (Firing f : published) {
          handedOut.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
        }
      }
      assertThat(recorded.keySet()).as("timers fired that were never created").isSubsetOf(model.keySet());
      for (Map.Entry<String, List<Write>> e : model.entrySet()) {
        String id = e.getKey();
        List<Write> writes = e.getValue();
        List<Firing> fired = recorded.getOrDefault(id, List.of());
        String what = id + " (partition " + Partitions.of(id, P) + ", writes " + writes + ", fired " + fired + ")";
        assertThat(fired).as("fired once at each last due time, never when cancelled: " + what)
            .extracting(Firing::dueAt).containsExactlyElementsOf(expectedFirings(writes));
        for (Firing f : fired) {
          assertThat(f.firedAt()).as("never early: " + what).isGreaterThanOrEqualTo(f.dueAt());
        }
        assertThat(handedOut.getOrDefault(id, List.of())).as("published as recorded: " + what)
            .extracting(Firing::dueAt).containsExactlyElementsOf(fired.stream().map(Firing::dueAt).toList());
      }
    }
  }

  /** {@code n} as a coarse bucket for the statistics: 0, 1-4, 5-19, 20+. */
  static String bucket(long n) {
    return n == 0 ? "0" : n < 5 ? "1-4" : n < 20 ? "5-19" : "20+";
  }

  @Property(tries = 200, edgeCases = net.jqwik.api.EdgeCasesMode.NONE, shrinking = net.jqwik.api.ShrinkingMode.FULL)
  void everyTimerFiresOnceAtItsLastDueTimeWhateverHandsThePartitionsOver(
      @ForAll @Size(min = 20, max = 100) List<@net.jqwik.api.From("actions") Action> actions) {
    Run run = new Run();
    run.settle();
    for (Action a : actions) {
      run.log.append('\n').append(run.clock.get() - T0).append(": ").append(a);
      run.apply(a);
    }
    run.finish();
    Statistics.label("timers").collect(bucket(run.model.size()));
    Statistics.label("firings").collect(bucket(run.published.size()));
    Statistics.label("hand-overs").collect(bucket(run.processes.stream().mapToLong(n -> n.metrics.handOvers()).sum()));
    Statistics.label("partitions lost").collect(bucket(run.processes.stream().mapToLong(n -> n.metrics.lostCount())
        .sum()));
    Statistics.label("writes fenced").collect(bucket(run.processes.stream().mapToLong(n -> n.metrics.fencedWrites())
        .sum()));
    Statistics.label("writes fenced").coverage(c -> c.check("0").percentage(p -> p < 97));
    Statistics.label("partitions lost").coverage(c -> c.check("0").percentage(p -> p < 80));
    Statistics.label("hand-overs").coverage(c -> c.check("0").percentage(p -> p < 20));
    Statistics.label("firings").coverage(c -> c.check("0").percentage(p -> p < 20));
    try {
      run.check();
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\nrun:" + run.log, e);
    }
  }
}
