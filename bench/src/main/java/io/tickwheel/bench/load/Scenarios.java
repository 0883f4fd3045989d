package io.tickwheel.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The load scenarios against one {@link TimerTarget}. Each writes its figures into {@link Results} under the
 * target's name. Runs on the caller's thread; operations complete on the target's threads. Ids are unique per run
 * ({@code runId}), so firings of an earlier scenario never count in a later one.
 */
public final class Scenarios {
  /** Firings of the current phase go here (the target's sink forwards to it). */
  private final AtomicReference<FiringSink> current = new AtomicReference<>();
  private final TimerTarget target;
  private final LoadConfig cfg;
  private final Results results;
  private final String runId = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

  public Scenarios(TimerTarget target, LoadConfig cfg, Results results) {
    this.target = target;
    this.cfg = cfg;
    this.results = results;
  }

  /** The sink to pass to {@link TimerTarget#start}: forwards to the phase's tracker. */
  public FiringSink sink() {
    return (id, due, received) -> {
      FiringSink s = current.get();
      if (s != null) {
        s.fired(id, due, received);
      }
    };
  }

  /** Label suffix for a repeated scenario (e.g. {@code #2}); rows go under {@code scenario + suffix}. */
  private String suffix = "";

  /** Runs one scenario; {@code repeat} (1-based) labels repeated runs {@code name#repeat}. */
  public void run(String scenario, int repeat) throws Exception {
    suffix = repeat > 1 ? "#" + repeat : "";
    run(scenario);
  }

  public void run(String scenario) throws Exception {
    switch (scenario) {
      case "throughput" -> throughput();
      case "lateness" -> lateness();
      case "burst" -> burst();
      case "heartbeat" -> heartbeat();
      case "recovery" -> recovery();
      case "scale" -> new ScaleScenario(this, target, cfg, runId).run();
      default -> throw new IllegalArgumentException("unknown scenario " + scenario);
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Outcome of a run of operations; {@code cpuNanos} is the CPU time the whole tool JVM used meanwhile (all threads:
   * client, JIT, GC; -1 if the JVM cannot tell), to see whether the client itself is the limit.
   */
  record Run(long ops, long errors, String firstError, long elapsedNanos, Histogram latencyMicros, long cpuNanos) {
    double perSecond() {
      return ops * 1e9 / elapsedNanos;
    }

    /** The tool's CPU microseconds per operation, or NaN when unknown. */
    double cpuMicrosPerOp() {
      return cpuNanos < 0 || ops == 0 ? Double.NaN : cpuNanos / 1e3 / ops;
    }
  }

  /** CPU time of this JVM's process so far (all threads), or -1 when the platform does not say. */
  static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
  }

  /**
   * CPU time (user + system, all threads) of the server the tool manages so far, or -1 without one (a {@code --url}
   * target, a peer) or when the platform does not say.
   */
  long serverCpuNanos() {
    if (!(target instanceof TickwheelTarget tw) || tw.server() == null || tw.server().pid() < 0) {
      return -1;
    }
    return ProcessHandle.of(tw.server().pid()).flatMap(h -> h.info().totalCpuDuration())
        .map(java.time.Duration::toNanos).orElse(-1L);
  }

  /** The managed server's pid, or -1 (a --url target). */
  long serverPid() {
    return target instanceof TickwheelTarget tw && tw.server() != null ? tw.server().pid() : -1;
  }

  /** CPU ms of {@code pid}'s threads named so since {@code cpu0} (from {@link ThreadCpu#nanos}), or NaN. */
  private static String cpuMsSince(long pid, java.util.function.Predicate<String> name, long cpu0) {
    long now = ThreadCpu.nanos(pid, name);
    return cpu0 < 0 || now < 0 ? "NaN" : String.valueOf((now - cpu0) / 1_000_000);
  }

  /** Server CPU µs per operation since {@code cpu0} (from {@link #serverCpuNanos}), formatted, or NaN. */
  private String serverCpuPer(long cpu0, long ops) {
    long now = serverCpuNanos();
    return String.format("%.1f", cpu0 < 0 || now < 0 || ops <= 0 ? Double.NaN : (now - cpu0) / 1e3 / ops);
  }

  private static long cpuSince(long cpu0) {
    long now = processCpuNanos();
    return cpu0 < 0 || now < 0 ? -1 : now - cpu0;
  }

  /**
   * Runs {@code n} operations with at most {@code concurrency} in flight, paced at {@code rate}/s (0 = flat out).
   * With a rate, latency is measured from the intended start (no coordinated omission).
   */
  static Run paced(int n, int concurrency, double rate, IntFunction<CompletionStage<Void>> op) throws Exception {
    if (rate <= 0) {
      return closedLoop(n, concurrency, op, 0);
    }
    Semaphore permits = new Semaphore(concurrency);
    Recorder rec = new Recorder(3);
    AtomicLong errors = new AtomicLong();
    AtomicReference<String> firstError = new AtomicReference<>();
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      long start;
      if (rate > 0) {
        long intended = t0 + (long) (i * 1e9 / rate);
        long wait;
        while ((wait = intended - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        start = intended;
      } else {
        start = 0;
      }
      permits.acquire();
      long s = rate > 0 ? start : System.nanoTime();
      CompletionStage<Void> f;
      try {
        f = op.apply(i);
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      f.whenComplete((v, e) -> {
        rec.recordValue(Math.max(0, (System.nanoTime() - s) / 1000));
        if (e != null) {
          errors.incrementAndGet();
          firstError.compareAndSet(null, String.valueOf(e.getMessage()));
        }
        permits.release();
      });
    }
    if (!permits.tryAcquire(concurrency, 300, TimeUnit.SECONDS)) {
      throw new IllegalStateException("operations still in flight after 300 s");
    }
    long elapsed = System.nanoTime() - t0;
    return new Run(n, errors.get(), firstError.get(), elapsed, rec.getIntervalHistogram(), cpuSince(cpu0));
  }

  /**
   * Flat out: {@code concurrency} chains, each starting its next operation from the completion of the previous one
   * (on the thread that completed it, the target's event loop: no hand-off per operation).
   */
  static Run closedLoop(int n, int concurrency, IntFunction<CompletionStage<Void>> op) throws Exception {
    return closedLoop(n, concurrency, op, 0);
  }

  /**
   * As {@link #closedLoop(int, int, IntFunction)}, but no operation starts once {@code maxMs} have passed (0: no
   * limit); the run's {@code ops} are the operations started, all of which completed. Fails once no operation has
   * completed for {@value #STALL_S} s (however long the whole run takes: 100 M timers fill for minutes).
   */
  static Run closedLoop(int n, int concurrency, IntFunction<CompletionStage<Void>> op, long maxMs) throws Exception {
    Recorder rec = new Recorder(3);
    AtomicLong errors = new AtomicLong();
    AtomicReference<String> firstError = new AtomicReference<>();
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch chains = new java.util.concurrent.CountDownLatch(concurrency);
    AtomicLong started = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    long stopAt = maxMs > 0 ? t0 + TimeUnit.MILLISECONDS.toNanos(maxMs) : Long.MAX_VALUE;
    for (int c = 0; c < concurrency; c++) {
      new Object() {
        void step() {
          if (System.nanoTime() - stopAt >= 0) {
            chains.countDown();
            return;
          }
          int i = next.getAndIncrement();
          if (i >= n) {
            chains.countDown();
            return;
          }
          started.incrementAndGet();
          long s = System.nanoTime();
          CompletionStage<Void> f;
          try {
            f = op.apply(i);
          } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
          }
          f.whenComplete((v, e) -> {
            completed.incrementAndGet();
            rec.recordValue(Math.max(0, (System.nanoTime() - s) / 1000));
            if (e != null) {
              errors.incrementAndGet();
              firstError.compareAndSet(null, String.valueOf(e.getMessage()));
            }
            step();
          });
        }
      }.step();
    }
    long seen = -1;
    while (!chains.await(STALL_S, TimeUnit.SECONDS)) {
      long now = completed.get();
      if (now == seen) {
        throw new IllegalStateException("no operation completed in " + STALL_S + " s (" + now + " of " + n
            + " completed)");
      }
      seen = now;
    }
    long elapsed = System.nanoTime() - t0;
    return new Run(started.get(), errors.get(), firstError.get(), elapsed, rec.getIntervalHistogram(), cpuSince(cpu0));
  }

  /** How long a closed loop may go without an operation completing, s. */
  static final long STALL_S = 120;

  /** Schedules ids {@code prefix+i} for i in [0,n) by batches of {@code batchSize}, {@code inFlight} at a time. */
  Run batches(String prefix, int n, IntToLong due, int batchSize, int inFlight, FiringTracker tracker)
      throws Exception {
    return batches(prefix, n, due, batchSize, inFlight, tracker, 0);
  }

  /** As above; no batch starts after {@code maxMs} (0: no limit). The run's ops are batches started. */
  Run batches(String prefix, int n, IntToLong due, int batchSize, int inFlight, FiringTracker tracker, long maxMs)
      throws Exception {
    int nb = (n + batchSize - 1) / batchSize;
    return closedLoop(nb, inFlight, b -> {
      int from = b * batchSize;
      int to = Math.min(n, from + batchSize);
      List<String> ids = new ArrayList<>(to - from);
      long[] dues = new long[to - from];
      for (int i = from; i < to; i++) {
        ids.add(prefix + i);
        dues[i - from] = due.at(i);
        if (tracker != null) {
          tracker.expect(i, dues[i - from]);
        }
      }
      return target.scheduleBatch(ids, dues);
    }, maxMs);
  }

  @FunctionalInterface
  interface IntToLong {
    long at(int i);
  }

  /** The sink firings of the current phase go to (null: none). */
  void phase(FiringSink s) {
    current.set(s);
  }

  void put(String scenario, String metric, Object value) {
    results.add(target.name(), scenario + suffix, metric, value);
  }

  private static double ms(Histogram h, double pct) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(pct);
  }

  private void latencyRows(String scenario, String what, Histogram micros) {
    put(scenario, what + " p50 ms", String.format("%.2f", ms(micros, 50) / 1000));
    put(scenario, what + " p99 ms", String.format("%.2f", ms(micros, 99) / 1000));
    put(scenario, what + " p999 ms", String.format("%.2f", ms(micros, 99.9) / 1000));
  }

  void checkErrors(String scenario, String what, Run r) {
    put(scenario, what + " errors", r.errors);
    if (r.errors > 0) {
      System.err.println(scenario + ": " + r.errors + " " + what + " failed; first: " + r.firstError);
    }
  }

  void firingRows(String scenario, FiringTracker t) {
    Histogram h = t.lateness();
    put(scenario, "firings expected", t.expectedCount());
    put(scenario, "firings received", t.received());
    put(scenario, "lateness p50 ms", (long) ms(h, 50));
    put(scenario, "lateness p99 ms", (long) ms(h, 99));
    put(scenario, "lateness p999 ms", (long) ms(h, 99.9));
    put(scenario, "lateness max ms", h.getTotalCount() == 0 ? "NaN" : String.valueOf(h.getMaxValue()));
    put(scenario, "early (must be 0)", t.early()
        + (target instanceof TickwheelTarget tw ? tw.serverEarlyFirings() : 0));
    put(scenario, "missing (must be 0)", t.missing());
    put(scenario, "duplicates (must be 0)", t.duplicates());
  }

  /** Waits until the tracker received everything or {@code deadlineMs} (epoch) passed. */
  static void awaitFirings(FiringTracker t, long deadlineMs) throws InterruptedException {
    while (t.received() < t.expectedCount() && System.currentTimeMillis() < deadlineMs) {
      Thread.sleep(20);
    }
  }

  // ---------------------------------------------------------------- scenarios

  /** 1. Single POSTs with C concurrent requests (after a warm-up), then batches; due far in the future. */
  void throughput() throws Exception {
    String sc = "throughput";
    long far = System.currentTimeMillis() + 3_600_000;
    long spread = Math.max(1, cfg.windowMs());
    if (cfg.warmup() > 0) {
      warmUp(sc, far, spread);
    }
    String sp = runId + "-ts-";
    long serverCpu0 = serverCpuNanos();
    long clientBatches0 = target instanceof TickwheelTarget tw ? tw.clientScheduleBatches() : -1;
    Run single = cfg.rate() > 0
        ? paced(cfg.timers(), cfg.concurrency(), cfg.rate(), i -> target.schedule(sp + i, far + i % spread))
        : closedLoop(cfg.timers(), cfg.concurrency(), i -> target.schedule(sp + i, far + i % spread),
            cfg.throughputMs());
    put(sc, "single accepted/s", Math.round(single.perSecond() * (single.ops - single.errors) / Math.max(1, single.ops)));
    put(sc, "single timers", single.ops);
    latencyRows(sc, "single", single.latencyMicros);
    put(sc, "single tool cpu us/op", String.format("%.1f", single.cpuMicrosPerOp()));
    put(sc, "single server cpu us/op", serverCpuPer(serverCpu0, single.ops));
    if (clientBatches0 >= 0 && target instanceof TickwheelTarget tw) {
      long sent = tw.clientScheduleBatches() - clientBatches0;
      put(sc, "single timers per client batch", String.format("%.1f", sent <= 0 ? Double.NaN
          : (double) single.ops / sent));
    }
    serverCpu0 = serverCpuNanos();
    checkErrors(sc, "single", single);
    int batchMax = Math.max(cfg.timers() * 4, cfg.batchSize());
    Run batch = batches(runId + "-tb-", batchMax, i -> far + i % spread, cfg.batchSize(), cfg.batchConcurrency(), null,
        cfg.throughputMs());
    long batchTimers = Math.min(batchMax, batch.ops * cfg.batchSize());
    put(sc, "batch timers/s", Math.round(batchTimers * 1e9 / batch.elapsedNanos));
    put(sc, "batch timers", batchTimers);
    latencyRows(sc, "batch req", batch.latencyMicros);
    put(sc, "batch tool cpu us/timer", String.format("%.2f", batch.cpuNanos < 0 || batchTimers == 0 ? Double.NaN
        : batch.cpuNanos / 1e3 / batchTimers));
    put(sc, "batch server cpu us/timer", serverCpuPer(serverCpu0, batchTimers));
    checkErrors(sc, "batch", batch);
    target.reset();
  }

  /**
   * The throughput scenario's unmeasured warm-up: a pass of up to {@code --warmup} single schedules, then up to
   * 4 × that (at most 40,000) timers in batches. Without {@code --warmup-ms} one pass. With it, passes repeat until
   * that many milliseconds have passed, the last one cut there, and the target may drop each pass's timers before the
   * next ({@link TimerTarget#dropWarmup}): a fresh server JVM still compiles its hot paths for 20 s and more on this
   * 2-core machine, so a warm-up that ends after a fixed count measured the JIT, not the steady state.
   */
  private void warmUp(String sc, long far, long spread) throws Exception {
    long t0 = System.nanoTime();
    long singles = 0;
    int pass = 0;
    while (true) {
      String wp = runId + "-tw" + pass + "-";
      Run warm = closedLoop(cfg.warmup(), cfg.concurrency(), i -> target.schedule(wp + i, far + i % spread),
          warmUpCapMs(t0));
      singles += warm.ops;
      if (!warmUpOver(t0)) {
        batches(runId + "-twb" + pass + "-", Math.min(cfg.warmup() * 4, 40_000), i -> far + i % spread,
            cfg.batchSize(), cfg.batchConcurrency(), null, warmUpCapMs(t0));
      }
      pass++;
      if (cfg.warmupMs() <= 0 || warmUpOver(t0)) {
        break;
      }
      target.dropWarmup();
    }
    put(sc, "single warm-up", singles);
    put(sc, "warm-up passes", pass);
    put(sc, "warm-up s", String.format("%.1f", (System.nanoTime() - t0) / 1e9));
  }

  /** The warm-up's time cap for its next run: 0 (none) without {@code --warmup-ms}, else what is left, at least 1. */
  private long warmUpCapMs(long t0) {
    return cfg.warmupMs() <= 0 ? 0
        : Math.max(1, cfg.warmupMs() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
  }

  /** With {@code --warmup-ms}: whether that long has passed since {@code t0} (nanoTime); without: false. */
  private boolean warmUpOver(long t0) {
    return cfg.warmupMs() > 0 && System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(cfg.warmupMs());
  }

  /** 2. P pending far away, plus a stream of timers due at R/s over the window, scheduled 1 s ahead in batches. */
  void lateness() throws Exception {
    String sc = "lateness";
    long far = System.currentTimeMillis() + 2 * 3_600_000;
    long t0 = System.nanoTime();
    Run fill = batches(runId + "-lp-", cfg.pending(), i -> far + (i % 3_600_000), MAX(cfg), cfg.batchConcurrency(), null);
    put(sc, "pending", cfg.pending());
    put(sc, "pending fill timers/s", Math.round(cfg.pending() * 1e9 / (System.nanoTime() - t0)));
    checkErrors(sc, "fill batch", fill);
    // A warm-up lead at the same rate first: its firings are checked (early, missing, duplicates) but kept out of
    // the percentiles, so a server whose fire path has not run yet (the fill fires nothing) is measured warm.
    long span = cfg.latenessWarmupMs() + cfg.windowMs();
    int warm = (int) (cfg.firingRate() * cfg.latenessWarmupMs() / 1000);
    int total = (int) (cfg.firingRate() * span / 1000);
    FiringTracker tracker = new FiringTracker(runId + "-ls-", total).measureFrom(warm);
    current.set(tracker);
    long slotMs = cfg.streamSlotMs();
    int slots = (int) (span / slotMs);
    long start = System.currentTimeMillis() + 1000;
    long startNanos = System.nanoTime();
    // Open loop: a batch goes out at its time whatever the answers of the earlier ones (a service does not wait for
    // its last create before the next), up to 3.2 s of the stream's batches
    Semaphore inFlight = new Semaphore(streamInFlight(slotMs));
    AtomicLong errors = new AtomicLong();
    // each stream batch of measured timers (the warm-up's are left out, as their firings are): sent (its first timer
    // due 1 s later) -> answered, and how late it was sent (only when 3.2 s of them are unanswered): where a late
    // firing comes from when its create arrived late
    Recorder answers = new Recorder(3);
    long measuredFrom = cfg.latenessWarmupMs() / slotMs;
    Recorder sendLate = new Recorder(3);
    int done = 0;
    // the split (firedAt − dueAt, received − firedAt) counts from the first measured firing's due time on
    int splitFrom = (int) ((1000 + cfg.latenessWarmupMs()) / slotMs);
    for (int s = 0; s < slots; s++) {
      if (s == splitFrom && target instanceof TickwheelTarget tw) {
        tw.resetLatenessSplit();
      }
      long sendAt = startNanos + s * slotMs * 1_000_000L;
      long wait;
      while ((wait = sendAt - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      int to = (int) ((long) total * (s + 1) / slots);
      List<String> ids = new ArrayList<>(to - done);
      long[] dues = new long[to - done];
      for (int i = done; i < to; i++) {
        long due = start + (long) i * span / total;
        ids.add(tracker.id(i));
        dues[i - done] = due;
        tracker.expect(i, due);
      }
      done = to;
      inFlight.acquire();
      long sentNanos = System.nanoTime();
      sendLate.recordValue(Math.max(0, (sentNanos - sendAt) / 1_000_000));
      boolean measured = s >= measuredFrom;
      target.scheduleBatch(ids, dues).whenComplete((v, e) -> {
        if (measured) {
          answers.recordValue((System.nanoTime() - sentNanos) / 1_000_000);
        }
        if (e != null && errors.getAndIncrement() == 0) {
          System.err.println("lateness: stream batch failed: " + e.getMessage());
        }
        inFlight.release();
      });
    }
    // Up to 60 s after the window (as the burst): the slower peers are seconds late, and a late firing is not a lost one.
    awaitFirings(tracker, start + span + 60_000);
    Thread.sleep(500); // late duplicates
    current.set(null);
    put(sc, "firing rate /s", cfg.firingRate());
    put(sc, "warm-up firings (not in percentiles)", warm);
    put(sc, "stream batch errors", errors.get());
    Histogram a = answers.getIntervalHistogram();
    Histogram l = sendLate.getIntervalHistogram();
    put(sc, "stream batch answer p50/p99/max ms (measured timers' batches)", a.getValueAtPercentile(50) + " / " + a.getValueAtPercentile(99)
        + " / " + a.getMaxValue());
    put(sc, "stream batch sent late p50/p99/max ms", l.getValueAtPercentile(50) + " / " + l.getValueAtPercentile(99)
        + " / " + l.getMaxValue());
    if (target instanceof TickwheelTarget tw) {
      // where the lateness goes: the owner's decision (firedAt − dueAt) or the hop to this subscriber (received − firedAt)
      latenessSplit(sc, tw);
    }
    put(sc, "lateness p99 ms by second of the stream (warm-up included)", tracker.p99BySecond(cfg.firingRate()));
    firingRows(sc, tracker);
    target.reset();
  }

  /** Most stream batches of the lateness scenario unanswered at once: 3.2 s of them, at least 32. */
  static int streamInFlight(long slotMs) {
    return (int) Math.max(32, 3_200 / slotMs);
  }

  static int MAX(LoadConfig cfg) {
    return Math.min(TickwheelTarget.MAX_BATCH, Math.max(cfg.batchSize(), 1000));
  }

  /** 3. B timers all due at one instant: time from due to the last firing received. */
  void burst() throws Exception {
    String sc = "burst";
    int n = cfg.burst();
    if (cfg.latenessWarmupMs() > 0) {
      warmUpBursts(sc, n);
    }
    FiringTracker tracker = new FiringTracker(runId + "-b-", n);
    current.set(tracker);
    long due = System.currentTimeMillis() + 2000 + n / 20; // schedules at >= 20k/s leave time to spare
    Run r = burstOf(tracker, n, due);
    long scheduledBy = System.currentTimeMillis();
    checkErrors(sc, "batch", r);
    put(sc, "timers", n);
    put(sc, "scheduled before due", scheduledBy < due ? "yes" : "NO (" + (scheduledBy - due) + " ms late)");
    long serverCpu0 = serverCpuNanos();
    awaitFirings(tracker, due + 60_000);
    put(sc, "server cpu us/firing (from scheduled to the last firing)", serverCpuPer(serverCpu0, tracker.received()));
    Thread.sleep(500);
    current.set(null);
    put(sc, "due to last firing ms", tracker.received() == 0 ? "NaN" : String.valueOf(tracker.lastReceivedAt() - due));
    firingRows(sc, tracker);
    target.reset();
  }

  /** Schedules {@code t}'s {@code n} timers, all due at {@code dueMs}, in batch creates. */
  private Run burstOf(FiringTracker t, int n, long dueMs) throws Exception {
    return batches(t.prefix(), n, i -> dueMs, MAX(cfg), cfg.batchConcurrency(), t);
  }

  /**
   * The burst's unmeasured warm-up: bursts of {@code n} other timers due at one instant, each awaited, until
   * {@code --lateness-warmup-ms} have passed (one at least). A tickwheel server is a fresh JVM here (the scenario before
   * ends by restarting it), so without them the measured burst was the first firing work it ever did, run by its
   * interpreter and compiled meanwhile, while a peer inside this tool's JVM had run its fire path in earlier scenarios.
   * Their firings are checked (early, missing, duplicates), not measured.
   */
  private void warmUpBursts(String sc, int n) throws Exception {
    long t0 = System.nanoTime();
    int bursts = 0;
    long early = 0;
    long missing = 0;
    long duplicates = 0;
    long errors = 0;
    do {
      FiringTracker warm = new FiringTracker(runId + "-bw" + bursts + "-", n);
      current.set(warm);
      long due = System.currentTimeMillis() + 500 + n / 20;
      Run r = burstOf(warm, n, due);
      if (r.errors > 0 && errors == 0) {
        System.err.println(sc + ": warm-up batch failed; first: " + r.firstError);
      }
      errors += r.errors;
      awaitFirings(warm, Math.max(due, System.currentTimeMillis()) + 60_000);
      early += warm.early();
      missing += warm.missing();
      duplicates += warm.duplicates();
      bursts++;
    } while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(cfg.latenessWarmupMs()));
    current.set(null);
    put(sc, "warm-up bursts (not measured)", bursts);
    put(sc, "warm-up batch errors", errors);
    put(sc, "warm-up early / missing / duplicates (must be 0)", early + " / " + missing + " / " + duplicates);
  }

  /** 5. K keys touched once a second each for D s with a 3 s delay: none should fire. */
  void heartbeat() throws Exception {
    String sc = "heartbeat";
    int k = cfg.keys();
    int delay = cfg.heartbeatDelayMs();
    // Warm-up, not measured: a fresh target's touch path is cold (JIT), and a backlog built in its first seconds does
    // not drain at a rate close to its capacity, so every key would lag past its countdown and fire. Touch a separate
    // set of keys, due 10 min ahead, at the same rate for --lateness-warmup-ms first.
    long warmMs = cfg.latenessWarmupMs();
    if (warmMs > 0) {
      String wp = runId + "-hw-";
      long far = System.currentTimeMillis() + 600_000;
      FiringTracker warmKeys = new FiringTracker(wp, k);
      checkErrors(sc, "warm-up create", batches(wp, k, i -> far, MAX(cfg), cfg.batchConcurrency(), warmKeys));
      // The fire path is as cold as the touch path: without this, the measured firings after touching stops are the
      // first this server (and the tool's receiving side) ever handles, and both JVMs spend the second compiling
      // them (C2 took ~1 core-second in each JVM during it). So k firings a second, for as long as the warm-up
      // touches run (one second at least), due while they run, on other keys. One second of them was not enough:
      // the wheel's and the store's fire loops had not reached C2 yet and were compiled during the measured second.
      int wf = (int) Math.max(k, (long) k * warmMs / 1000);
      String fp = runId + "-hf-";
      FiringTracker warmFirings = new FiringTracker(fp, wf);
      current.set((id, due, received) -> (id.startsWith(fp) ? warmFirings : warmKeys).fired(id, due, received));
      long warmDue = System.currentTimeMillis() + Math.min(warmMs, 2_000);
      checkErrors(sc, "warm-up firing create", batches(fp, wf, i -> warmDue + (long) i * 1000 / k,
          MAX(cfg), cfg.batchConcurrency(), warmFirings));
      // And the measured part's change of phase, once: the last second of warm-up touches sets the heartbeat's own
      // delay, so these keys fire after touching stops as the measured ones will. Even after three seconds of
      // firings, a minute of touches only left the fire path to be compiled (C2) during the measured second's first
      // 200 ms; this runs that transition before (bench/README, "2026-11-25 evening").
      int warmTouches = (int) Math.max(k, Math.min(Integer.MAX_VALUE, (long) k * warmMs / 1000));
      Run w = paced(warmTouches, cfg.concurrency(), k, i -> {
        if (i < warmTouches - k) {
          return target.reschedule(wp + (i % k), far + 1000);
        }
        long due = System.currentTimeMillis() + delay;
        warmKeys.expect(i % k, due);
        return target.reschedule(wp + (i % k), due);
      });
      put(sc, "warm-up touches (not measured)", w.ops);
      checkErrors(sc, "warm-up touch", w);
      awaitFirings(warmFirings, warmDue + 60_000);
      awaitFirings(warmKeys, System.currentTimeMillis() + delay + 60_000);
      put(sc, "warm-up firings (not measured)", warmFirings.received());
      put(sc, "warm-up firings missing", warmFirings.missing());
      put(sc, "warm-up keys fired after their touches stopped (not measured)", warmKeys.received());
      put(sc, "warm-up keys missing", warmKeys.missing());
      current.set(null);
    }
    FiringTracker tracker = new FiringTracker(runId + "-h-", k);
    current.set(tracker);
    if (target instanceof TickwheelTarget tw) {
      tw.resetLatenessSplit(); // nothing of the warm-up fires; from here on only this scenario's keys do
    }
    long now = System.currentTimeMillis();
    Run create = batches(runId + "-h-", k, i -> now + delay, MAX(cfg), cfg.batchConcurrency(), tracker);
    checkErrors(sc, "create", create);
    int touches = k * cfg.durationS();
    long serverCpu0 = serverCpuNanos();
    Run r = paced(touches, cfg.concurrency(), k, i -> {
      String id = tracker.id(i % k);
      long due = System.currentTimeMillis() + delay;
      tracker.expect(i % k, due);
      return target.reschedule(id, due);
    });
    long firedDuring = tracker.received();
    String serverCpuPerTouch = serverCpuPer(serverCpu0, r.ops);
    long serverCpuFire0 = serverCpuNanos();
    // what the server's JIT compiler and GC threads ran from here to the last firing: the two usual causes of a
    // late stretch (the JIT recompiles a fire path that a minute of touches only left cold or deoptimized)
    long pid = serverPid();
    long jit0 = ThreadCpu.nanos(pid, ThreadCpu.JIT);
    long gc0 = ThreadCpu.nanos(pid, ThreadCpu.GC);
    // touching stopped: every key fires once, its last touch + delay later
    awaitFirings(tracker, System.currentTimeMillis() + delay + 60_000);
    String jitMs = cpuMsSince(pid, ThreadCpu.JIT, jit0);
    String gcMs = cpuMsSince(pid, ThreadCpu.GC, gc0);
    Thread.sleep(500);
    current.set(null);
    put(sc, "keys", k);
    put(sc, "target touches/s", k);
    put(sc, "touches/s achieved", Math.round(r.perSecond()));
    put(sc, "server cpu us/touch", serverCpuPerTouch);
    latencyRows(sc, "touch", r.latencyMicros);
    checkErrors(sc, "touch", r);
    put(sc, "firings during touching (~0)", firedDuring);
    put(sc, "fired after touching stopped", tracker.received() - firedDuring);
    put(sc, "server cpu us/firing after touching stopped (incl. 0.5 s idle)",
        serverCpuPer(serverCpuFire0, tracker.received() - firedDuring));
    put(sc, "server JIT compiler threads cpu ms after touching stopped", jitMs);
    put(sc, "server GC threads cpu ms after touching stopped", gcMs);
    Histogram own = tracker.ownLateness();
    put(sc, "after-stop lateness vs fired due p50 ms", (long) ms(own, 50));
    put(sc, "after-stop lateness vs fired due p99 ms", (long) ms(own, 99));
    put(sc, "after-stop lateness vs fired due max ms", own.getTotalCount() == 0 ? "NaN"
        : String.valueOf(own.getMaxValue()));
    if (target instanceof TickwheelTarget tw) {
      // where the after-stop lateness goes: the server's decision (firedAt − dueAt) or the delivery (received − firedAt)
      latenessSplit(sc, tw);
    }
    firingRows(sc, tracker); // lateness there: vs the last touch's call time + delay (includes the touch latency)
    target.reset();
  }

  /** The rows of {@code tw}'s lateness split: the server's firedAt − dueAt and received − firedAt, p50/p99/max ms. */
  private void latenessSplit(String sc, TickwheelTarget tw) {
    Histogram dec = tw.decidedLateness();
    Histogram del = tw.deliveryLateness();
    put(sc, "server firedAt − dueAt p50/p99/max ms", dec.getValueAtPercentile(50) + " / "
        + dec.getValueAtPercentile(99) + " / " + dec.getMaxValue());
    put(sc, "received − firedAt p50/p99/max ms", del.getValueAtPercentile(50) + " / "
        + del.getValueAtPercentile(99) + " / " + del.getMaxValue());
  }

  /** 4. Fill P pending (some due 2 s later), kill -9, restart on the same data: recovery times, overdue firings. */
  void recovery() throws Exception {
    String sc = "recovery";
    if (!(target instanceof TickwheelTarget tw) || tw.server() == null) {
      put(sc, "skipped", "needs --server-jar");
      return;
    }
    ManagedServer server = tw.server();
    if (server.store().equals("memory")) {
      put(sc, "skipped", "the memory store keeps nothing across a restart");
      return;
    }
    int overdue = Math.max(1, Math.min(10_000, cfg.pending() / 10));
    FiringTracker tracker = new FiringTracker(runId + "-ro-", overdue);
    current.set(tracker);
    long far = System.currentTimeMillis() + 3_600_000;
    Run fill = batches(runId + "-rp-", cfg.pending(), i -> far + i % 3_600_000, MAX(cfg), cfg.batchConcurrency(), null);
    long due = System.currentTimeMillis() + 1500;
    Run od = batches(runId + "-ro-", overdue, i -> due, MAX(cfg), cfg.batchConcurrency(), tracker);
    checkErrors(sc, "fill", fill);
    checkErrors(sc, "overdue", od);
    long killedAt = System.currentTimeMillis();
    server.kill();
    put(sc, "pending at kill", cfg.pending() + overdue);
    put(sc, "overdue timers", overdue);
    while (System.currentTimeMillis() < due + 500) {
      Thread.sleep(20);
    }
    long restartWall = System.currentTimeMillis();
    long r0 = System.nanoTime();
    String url = server.start(600_000);
    long listening = System.nanoTime() - r0;
    tw.useUrl(url);
    int status = 0;
    while (status != 200 && System.nanoTime() - r0 < 600_000_000_000L) {
      try {
        status = tw.status("/health").get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        status = 0;
      }
      if (status != 200) {
        Thread.sleep(10);
      }
    }
    long healthy = System.nanoTime() - r0;
    long listeningAt = System.currentTimeMillis() - (healthy - listening) / 1_000_000;
    tw.reconnectTo(url);
    awaitFirings(tracker, System.currentTimeMillis() + 60_000);
    Thread.sleep(500);
    current.set(null);
    put(sc, "down ms (kill to restart)", restartWall - killedAt);
    put(sc, "restart to listening ms", listening / 1_000_000);
    put(sc, "restart to health 200 ms", healthy / 1_000_000);
    put(sc, "listening to last overdue firing ms",
        tracker.received() == 0 ? "NaN" : String.valueOf(tracker.lastReceivedAt() - listeningAt));
    put(sc, "overdue received", tracker.received());
    put(sc, "missing (must be 0)", tracker.missing());
    put(sc, "duplicates (must be 0)", tracker.duplicates());
    put(sc, "early (must be 0)", tracker.early());
    target.reset();
  }
}
