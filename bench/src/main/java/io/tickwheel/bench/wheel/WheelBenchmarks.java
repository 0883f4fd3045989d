package io.tickwheel.bench.wheel;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * tickwheel's wheel side by side with its peers, same workload, same keys, same delays (see {@link Fixtures}).
 * Throughput, timers per second (one op = one timer).
 *
 * <p><b>Peers</b> ({@code peer} parameter; how each is driven is documented on its class in
 * {@code io.tickwheel.bench.wheel}):
 * <ul>
 *   <li>{@code ours}: {@code TimerWheel}, driven directly on the benchmark thread (its owner), virtual time.</li>
 *   <li>{@code agrona}: Agrona's {@code DeadlineTimerWheel} on the benchmark thread, keyed with an
 *       {@code Object2LongHashMap<String>} (key &rarr; id) and an array indexed by id (id &rarr; key).</li>
 *   <li>{@code agronaRaw}: the same wheel without keys (ids in a {@code long[]}): a reference, not a peer.</li>
 *   <li>{@code netty}: {@code HashedWheelTimer} with its worker thread running; keyed with a
 *       {@code ConcurrentHashMap<String, Timeout>}.</li>
 *   <li>{@code kafka}: {@code SystemTimer} inside {@code SystemTimerReaper} (its reaper thread running); keyed
 *       with a {@code ConcurrentHashMap}.</li>
 *   <li>{@code stpe}: {@code ScheduledThreadPoolExecutor(1)} with remove-on-cancel; keyed with a
 *       {@code ConcurrentHashMap}.</li>
 * </ul>
 * For the threaded peers what is measured is the caller's cost while their threads run on the other core;
 * the key map is concurrent because their expiries run on their own thread and must remove their key.
 *
 * <p><b>Workloads.</b> {@code schedule}, {@code cancel} and {@code churn} run against a structure pre-filled
 * with {@code pending} timers due in 1 to 2 hours (none fires during a trial; the trial's tear-down checks that
 * the pending count is intact). Ours and Agrona's time does not advance during them (nothing could fire);
 * the work of advancing is measured by {@code expireDrain}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WheelBenchmarks {

  /** Timers per invocation of {@code schedule} and {@code cancel}. */
  public static final int BATCH = 1_000;
  /** Fresh (not pending) keys that {@code schedule} cycles through, in batches. */
  public static final int FRESH = 64 * BATCH;
  /** Timers per drain. */
  public static final int DRAIN = 100_000;

  /** A peer pre-filled with {@code pending} far timers {@code 0..pending-1}. */
  @State(Scope.Thread)
  public static class PendingState {
    @Param({"ours", "agrona", "agronaRaw", "netty", "kafka", "stpe"})
    public String peer;

    @Param({"10000", "1000000"})
    public int pending;

    public Fixtures fixtures;
    public TimerPeer timers;
    /** The next position in {@link Fixtures#order} (churn) or the next batch (schedule, cancel). */
    public int next;
    /** How many timers have been (re-)scheduled: picks the next far delay. */
    public int scheduled;

    @Setup(Level.Trial)
    public void fill() {
      fixtures = new Fixtures(pending, pending + FRESH);
      timers = Peers.forPending(peer, fixtures.keyCount());
      for (int i = 0; i < pending; i++) {
        timers.schedule(i, fixtures.key(i), fixtures.farDelayMs(scheduled++));
      }
      checkPending("after the pre-fill");
    }

    @TearDown(Level.Trial)
    public void close() {
      try {
        checkPending("at the end of the trial");
      } finally {
        timers.close();
      }
    }

    void checkPending(String when) {
      if (timers.size() != pending) {
        throw new IllegalStateException(peer + ": " + timers.size() + " pending " + when + ", expected " + pending);
      }
    }
  }

  /** {@link #schedule}: the batch it scheduled is cancelled again after each invocation (not measured). */
  @State(Scope.Thread)
  public static class ScheduleState extends PendingState {
    @TearDown(Level.Invocation)
    public void cancelBatch() {
      int first = pending + next * BATCH;
      for (int i = first; i < first + BATCH; i++) {
        if (!timers.cancel(i, fixtures.key(i))) {
          throw new IllegalStateException(peer + ": fresh timer " + i + " was not pending");
        }
      }
      next = (next + 1) % (FRESH / BATCH);
    }
  }

  /** {@link #cancel}: the batch it cancelled is re-scheduled after each invocation (not measured). */
  @State(Scope.Thread)
  public static class CancelState extends PendingState {
    @TearDown(Level.Invocation)
    public void rescheduleBatch() {
      int first = next * BATCH;
      for (int n = first; n < first + BATCH; n++) {
        int i = fixtures.order(n);
        timers.schedule(i, fixtures.key(i), fixtures.farDelayMs(scheduled++));
      }
      next = (next + 1) % (pending / BATCH);
    }
  }

  /**
   * Schedule {@value #BATCH} fresh keys (not pending) into a structure holding {@code pending} timers; delays
   * 1 to 2 hours.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int schedule(ScheduleState s) {
    int first = s.pending + s.next * BATCH;
    for (int i = first; i < first + BATCH; i++) {
      s.timers.schedule(i, s.fixtures.key(i), s.fixtures.farDelayMs(s.scheduled++));
    }
    return s.scheduled;
  }

  /** Cancel {@value #BATCH} pending timers, picked in random order, out of {@code pending}. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int cancel(CancelState s) {
    int cancelled = 0;
    int first = s.next * BATCH;
    for (int n = first; n < first + BATCH; n++) {
      int i = s.fixtures.order(n);
      if (s.timers.cancel(i, s.fixtures.key(i))) {
        cancelled++;
      }
    }
    if (cancelled != BATCH) {
      throw new IllegalStateException(s.peer + ": cancelled " + cancelled + " of " + BATCH);
    }
    return cancelled;
  }

  /**
   * The heartbeat: re-arm one pending timer (picked in random order out of {@code pending}) to a new due time
   * 1 to 2 hours away, which cancels its old due time. Ours does it in one keyed {@code schedule} (upsert);
   * keyed peers schedule the new timer, swap it into their key map and cancel the old one.
   */
  @Benchmark
  public void churn(PendingState s) {
    int i = s.fixtures.order(s.next);
    if (++s.next == s.pending) {
      s.next = 0;
    }
    s.timers.schedule(i, s.fixtures.key(i), s.fixtures.farDelayMs(s.scheduled++));
  }

  /** A peer that {@link TimerPeer#prepareDue prepares} {@value #DRAIN} due timers before each invocation. */
  @State(Scope.Thread)
  public static class DrainState {
    @Param({"ours", "agrona", "agronaRaw", "netty", "kafka", "stpe"})
    public String peer;

    /** Timers per drain: {@value #DRAIN} (what {@code @OperationsPerInvocation} says); smaller only in tests. */
    public int due = DRAIN;
    public Fixtures fixtures;
    public TimerPeer timers;

    @Setup(Level.Trial)
    public void open() {
      fixtures = new Fixtures(0, due);
      timers = Peers.forDrain(peer, due);
    }

    @Setup(Level.Invocation)
    public void prepare() throws InterruptedException {
      timers.prepareDue(fixtures, due);
    }

    @TearDown(Level.Trial)
    public void close() {
      timers.close();
    }
  }

  /**
   * Hand out {@value #DRAIN} timers, all already due, whose due times were spread over the last
   * {@value Fixtures#DRAIN_WINDOW_MS} ms. Ours: one {@code advance}; Agrona: {@code poll} until caught up;
   * Kafka: {@code advanceClock(0)} until its executor has run them all; Netty and the JDK executor: their
   * timer thread, held in a gate task until all are due, is let go and the benchmark thread waits for the
   * last one. Each expiry removes its key from the peer's key map and counts.
   */
  @Benchmark
  @OperationsPerInvocation(DRAIN)
  public int expireDrain(DrainState s) throws InterruptedException {
    int fired = s.timers.drainDue();
    if (fired != s.due) {
      throw new IllegalStateException(s.peer + ": drained " + fired + " of " + s.due);
    }
    return fired;
  }
}
