package io.tickwheel.bench.store;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Throughput of {@code put} with C concurrent closed-loop callers (each on its own event-loop context, each
 * issuing its next put when the previous one completed), with fsync off and on, group commit on
 * (maxGroupOps 1024) against group commit off (maxGroupOps 1) in the same run. Run with
 * {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RocksDbGroupCommitThroughput 8 5 3}
 * (after {@code mvn -q -pl bench -am -DskipTests package})
 * (args: callers, seconds per run, runs).
 */
public final class RocksDbGroupCommitThroughput {

  private RocksDbGroupCommitThroughput() {}

  public static void main(String[] args) throws Exception {
    int callers = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path base = Files.createTempDirectory("tickwheel-throughput-");
    Vertx vertx = Vertx.vertx();
    try {
      for (boolean fsync : new boolean[] {false, true}) {
        for (int maxGroup : new int[] {1024, 1}) {
          double[] opsPerS = new double[runs];
          double[] perGroup = new double[runs];
          for (int r = 0; r < runs; r++) {
            Path dir = base.resolve("fsync-" + fsync + "-group-" + maxGroup + "-run-" + r);
            double[] res = run(vertx, new RocksDbStoreOptions().setDataDir(dir).setFsync(fsync)
                .setMaxGroupOps(maxGroup), callers, seconds);
            opsPerS[r] = res[0];
            perGroup[r] = res[1];
          }
          System.out.printf("fsync=%-5s maxGroupOps=%-4d callers=%d: median %,.0f puts/s (runs %s), "
                  + "median %.1f calls per group commit%n", fsync, maxGroup, callers,
              RocksDbRecoveryTiming.median(opsPerS), java.util.Arrays.toString(round(opsPerS)), RocksDbRecoveryTiming.median(perGroup));
        }
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      RocksDbRecoveryTiming.deleteTree(base);
    }
  }

  private static long[] round(double[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Math.round(v[i]);
    }
    return r;
  }

  /** Returns {puts per second, calls per group}. */
  private static double[] run(Vertx vertx, RocksDbStoreOptions o, int callers, int seconds) throws Exception {
    RocksDbTimerStore s = RocksDbRecoveryTiming.await(RocksDbTimerStore.open(vertx, o));
    LongAdder done = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder failed = new LongAdder();
    long groups0 = s.writeGroups();
    long calls0 = s.writeCalls();
    long t0 = System.nanoTime();
    for (int c = 0; c < callers; c++) {
      Context ctx = vertx.getOrCreateContext();
      int caller = c;
      ctx.runOnContext(v -> loop(s, caller, new long[1], done, failed, stop));
    }
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    long elapsed = System.nanoTime() - t0;
    long n = done.sum();
    double perGroup = (double) (s.writeCalls() - calls0) / Math.max(1, s.writeGroups() - groups0);
    RocksDbRecoveryTiming.await(s.close());
    if (failed.sum() > 0) {
      throw new IllegalStateException(failed.sum() + " puts failed");
    }
    return new double[] {n / (elapsed / 1e9), perGroup};
  }

  private static void loop(RocksDbTimerStore s, int caller, long[] i, LongAdder done, LongAdder failed,
      AtomicBoolean stop) {
    if (stop.get()) {
      return;
    }
    String id = "c" + caller + "-" + i[0]++;
    Timer t = new Timer(id, "bench", Kind.ONCE, 60_000, 0, 0, Misfire.FIRE_ONCE, "{\"k\":\"" + id + "\"}",
        1, 1_750_000_000_000L + i[0], 0, 1);
    s.put(t).onComplete(ar -> {
      if (ar.succeeded()) {
        done.increment();
      } else {
        failed.increment();
      }
      loop(s, caller, i, done, failed, stop);
    });
  }
}
