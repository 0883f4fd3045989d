package io.tickwheel.bench.load;

import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code scale} scenario: what a node costs with many pending timers. Only against a tickwheel the tool starts
 * ({@code --server-jar}), since it reads the server's heap and kills it.
 *
 * <ol>
 *   <li><b>Fill</b>: {@code --pending} timers due evenly over [now + 10 min, now + {@code --fill-horizon-ms}]
 *       (default 48 h), by batches ({@code --batch-concurrency} in flight); reports the fill rate. A horizon inside
 *       the server's {@code --window-ms} measures a node whose pending timers are all in memory.</li>
 *   <li><b>Stream</b>: for {@code --duration-s} seconds, {@code --firing-rate} timers/s due 1 s after they are sent
 *       (a batch every {@code --stream-slot-ms}, default 100 ms), while far timers keep being created and touched,
 *       each at a tenth of the firing rate (creates in the same batches' rhythm, touches as single requests of filled
 *       timers, to new due times 1-48 h ahead). The first {@code --lateness-warmup-ms} of the stream are checked but kept out of the percentiles.
 *       Reports lateness (received − due) p50/p99/p999/max, and early/missing/duplicates.</li>
 *   <li><b>Memory</b>: {@code jcmd PID GC.run}, then {@code jcmd PID GC.heap_info}: the live heap after a full GC;
 *       and the process's RSS ({@code /proc/PID/status} VmRSS); and {@code tickwheel_pending_timers} from
 *       {@code /metrics}.</li>
 *   <li><b>Restart</b>: {@code min(10,000, firing-rate × 5)} timers due 2 s to 12 s ahead, then kill -9 and a
 *       restart on the same data: kill → listening and kill → health 200, {@code tickwheel_pending_timers} after it,
 *       and those timers' firings: 0 missing, 0 duplicates, 0 early (an overdue one fires late, not never).</li>
 * </ol>
 *
 * <p>Everything goes to {@link Results} under scenario {@code scale}. The server's flags: {@code LOAD_SERVER_ARGS}
 * (e.g. {@code --max-pending}), its JVM's: {@code LOAD_SERVER_JAVA_OPTS} (e.g. {@code -Xmx1g}).
 */
final class ScaleScenario {
  private static final String SC = "scale";
  private static final long HOUR = 3_600_000;
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)([KMG])");
  private static final Pattern PENDING = Pattern.compile("(?m)^tickwheel_pending_timers(?:\\{[^}]*})? ([0-9.eE+]+)");

  private final Scenarios sc;
  private final TimerTarget target;
  private final LoadConfig cfg;
  private final String runId;

  ScaleScenario(Scenarios sc, TimerTarget target, LoadConfig cfg, String runId) {
    this.sc = sc;
    this.target = target;
    this.cfg = cfg;
    this.runId = runId;
  }

  void run() throws Exception {
    if (!(target instanceof TickwheelTarget tw) || tw.server() == null) {
      sc.put(SC, "skipped", "needs --server-jar (reads the server's heap and kills it)");
      return;
    }
    ManagedServer server = tw.server();
    int n = cfg.pending();
    String fillPrefix = runId + "-sp-";
    long base = System.currentTimeMillis() + 600_000;
    long spread = cfg.fillHorizonMs() - 600_000;
    long t0 = System.nanoTime();
    Scenarios.Run fill = sc.batches(fillPrefix, n, i -> base + (long) i * spread / Math.max(1, n), Scenarios.MAX(cfg),
        cfg.batchConcurrency(), null);
    long fillNanos = System.nanoTime() - t0;
    sc.put(SC, "pending filled", n);
    sc.put(SC, "fill timers/s", Math.round(n * 1e9 / fillNanos));
    sc.put(SC, "fill s", String.format("%.1f", fillNanos / 1e9));
    sc.put(SC, "fill due from now + 10 min to now + ms", cfg.fillHorizonMs());
    sc.checkErrors(SC, "fill batch", fill);

    stream(tw, fillPrefix, n);
    memory(tw, server.pid(), "after stream");
    restart(tw, server);
    target.reset();
  }

  /** The 1-s-ahead stream with far creates and touches beside it. */
  private void stream(TickwheelTarget tw, String fillPrefix, int filled) throws Exception {
    long span = cfg.latenessWarmupMs() + cfg.durationS() * 1000L;
    int warm = (int) ((long) cfg.firingRate() * cfg.latenessWarmupMs() / 1000);
    int total = (int) ((long) cfg.firingRate() * span / 1000);
    FiringTracker tracker = new FiringTracker(runId + "-ss-", total).measureFrom(warm);
    sc.phase(tracker);
    long slotMs = cfg.streamSlotMs();
    int farPerSlot = (int) Math.max(1, (long) cfg.firingRate() * slotMs / 10_000);      // a tenth of the rate
    String farPrefix = runId + "-sf-";
    int slots = (int) (span / slotMs);
    long start = System.currentTimeMillis() + 1000;
    long startNanos = System.nanoTime();
    int maxInFlight = (int) Math.max(8, 800 / slotMs);      // 0.8 s of the stream's batches
    Semaphore inFlight = new Semaphore(maxInFlight);
    Semaphore touchesInFlight = new Semaphore(Math.max(1, cfg.concurrency()));
    AtomicLong streamErrors = new AtomicLong();
    AtomicLong farErrors = new AtomicLong();
    AtomicLong touches = new AtomicLong();
    AtomicLong farCreated = new AtomicLong();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
    int done = 0;
    for (int s = 0; s < slots; s++) {
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
      target.scheduleBatch(ids, dues).whenComplete((v, e) -> {
        if (e != null && streamErrors.getAndIncrement() == 0) {
          System.err.println("scale: stream batch failed: " + e.getMessage());
        }
        inFlight.release();
      });
      // far creates, one batch per slot
      List<String> far = new ArrayList<>(farPerSlot);
      long[] farDue = new long[farPerSlot];
      long now = System.currentTimeMillis();
      for (int k = 0; k < farPerSlot; k++) {
        far.add(farPrefix + (s * farPerSlot + k));
        farDue[k] = now + HOUR + rnd.nextLong(47 * HOUR);
      }
      inFlight.acquire();
      target.scheduleBatch(far, farDue).whenComplete((v, e) -> {
        if (e != null) {
          if (farErrors.getAndIncrement() == 0) {
            System.err.println("scale: far create batch failed: " + e.getMessage());
          }
        } else {
          farCreated.addAndGet(far.size());
        }
        inFlight.release();
      });
      // far touches of filled timers, single requests
      for (int k = 0; k < farPerSlot && filled > 0; k++) {
        if (!touchesInFlight.tryAcquire()) {
          break;                // the server is behind: the stream's pace comes first
        }
        String id = fillPrefix + rnd.nextInt(filled);
        CompletionStage<Void> f = target.reschedule(id, now + HOUR + rnd.nextLong(47 * HOUR));
        f.whenComplete((v, e) -> {
          if (e != null) {
            if (farErrors.getAndIncrement() == 0) {
              System.err.println("scale: far touch failed: " + e.getMessage());
            }
          } else {
            touches.incrementAndGet();
          }
          touchesInFlight.release();
        });
      }
    }
    Scenarios.awaitFirings(tracker, start + span + 60_000);
    Thread.sleep(500); // late duplicates
    sc.phase(null);
    inFlight.acquire(maxInFlight);
    inFlight.release(8);
    sc.put(SC, "stream firing rate /s", cfg.firingRate());
    sc.put(SC, "stream s (after warm-up)", cfg.durationS());
    sc.put(SC, "stream warm-up firings (not in percentiles)", warm);
    sc.put(SC, "stream batch errors", streamErrors.get());
    sc.put(SC, "far creates during stream", farCreated.get());
    sc.put(SC, "far touches during stream", touches.get());
    sc.put(SC, "far create/touch errors", farErrors.get());
    sc.firingRows(SC, tracker);
  }

  /** Live heap after a full GC, RSS and the server's own pending count. */
  private void memory(TickwheelTarget tw, long pid, String when) throws Exception {
    jcmd(pid, "GC.run");
    String info = jcmd(pid, "GC.heap_info");
    Matcher m = HEAP_USED.matcher(info);
    String heap = "NaN";
    if (m.find()) {
      long v = Long.parseLong(m.group(1));
      long mb = switch (m.group(2)) {
        case "K" -> v / 1024;
        case "M" -> v;
        default -> v * 1024;
      };
      heap = String.valueOf(mb);
    } else {
      System.err.println("scale: no 'used' in GC.heap_info:\n" + info);
    }
    sc.put(SC, "live heap after full GC MB (" + when + ")", heap);
    sc.put(SC, "RSS MB (" + when + ")", rssMb(pid));
    sc.put(SC, "tickwheel_pending_timers (" + when + ")", pendingMetric(tw));
  }

  /** Kill -9 with a stream's worth of timers due soon; restart; their firings. */
  private void restart(TickwheelTarget tw, ManagedServer server) throws Exception {
    int k = (int) Math.max(1, Math.min(10_000, cfg.firingRate() * 5L));
    FiringTracker tracker = new FiringTracker(runId + "-sr-", k);
    sc.phase(tracker);
    long from = System.currentTimeMillis() + 2000;
    Scenarios.Run r = sc.batches(runId + "-sr-", k, i -> from + (long) i * 10_000 / k, Scenarios.MAX(cfg),
        cfg.batchConcurrency(), tracker);
    sc.checkErrors(SC, "restart-set batch", r);
    long killedNanos = System.nanoTime();
    server.kill();
    long killed = System.nanoTime() - killedNanos;
    long r0 = System.nanoTime();
    String url = server.start(900_000);
    long listening = System.nanoTime() - r0;
    tw.useUrl(url);
    int status = 0;
    while (status != 200 && System.nanoTime() - r0 < 900_000_000_000L) {
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
    tw.reconnectTo(url);
    Scenarios.awaitFirings(tracker, System.currentTimeMillis() + 60_000);
    Thread.sleep(500);
    sc.phase(null);
    sc.put(SC, "kill -9 wait ms", killed / 1_000_000);
    sc.put(SC, "restart to listening ms", listening / 1_000_000);
    sc.put(SC, "restart to health 200 ms", healthy / 1_000_000);
    sc.put(SC, "tickwheel_pending_timers (after restart)", pendingMetric(tw));
    sc.put(SC, "restart-set timers (due 2-12 s after the kill)", k);
    sc.put(SC, "restart-set received", tracker.received());
    sc.put(SC, "restart-set missing (must be 0)", tracker.missing());
    sc.put(SC, "restart-set duplicates (must be 0)", tracker.duplicates());
    sc.put(SC, "restart-set early (must be 0)", tracker.early());
    memory(tw, server.pid(), "after restart");
  }

  private static String pendingMetric(TickwheelTarget tw) {
    try {
      String body = tw.call(HttpMethod.GET, "/metrics", null, 200).get(30, TimeUnit.SECONDS);
      Matcher m = PENDING.matcher(body);
      return m.find() ? String.valueOf((long) Double.parseDouble(m.group(1))) : "absent";
    } catch (Exception e) {
      return "NaN (" + e.getMessage() + ")";
    }
  }

  /** {@code jcmd pid command}'s output; fails when it does not exit 0 within 120 s. */
  static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd", Long.toString(pid), command)
        .redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("jcmd " + pid + " " + command + " failed: " + new String(out, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** VmRSS of {@code pid} in MB, or NaN where /proc does not say. */
  static String rssMb(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return String.valueOf(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process is gone
    }
    return "NaN";
  }
}
