package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What one periodic trim of the callbacks' delivery records costs the RocksDB store. N finished deliveries, all
 * recent, then {@code calls} {@code trimDeliveries} calls one after the other, with the server's default retention
 * (100,000 and 7 days) or the retained count given as the third argument. The server makes one such call every 10 s;
 * it runs on the store's writer thread, so every write (creates, firing records) waits behind it.
 * <ul>
 *   <li>Nothing to remove (N within the retained count): prints the median and the highest wall time of one call
 *   and the process CPU per call (all threads); fails if a call removed anything.</li>
 *   <li>Removing (N above it): while the calls run, another thread creates one timer at a time and records how long
 *   each create took; prints the calls' wall time, what they removed (must be N minus the retained count, else it
 *   fails) and the longest and the p99 create, against the same creates with no trim running just before.</li>
 * </ul>
 * Run with {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RocksDbDeliveryTrimCost 100000 20}
 * or {@code ... RocksDbDeliveryTrimCost 200000 2 100000} (after {@code mvn -q -pl bench -am -DskipTests package};
 * args: finished deliveries, calls, retained count).
 */
public final class RocksDbDeliveryTrimCost {

  private static final Callback HOOK = new Callback("https://example.com/hook", 2000, 3, 0, 0);

  private RocksDbDeliveryTrimCost() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int retained = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    Path dir = Files.createTempDirectory("tickwheel-dlv-trim-");
    Vertx vertx = Vertx.vertx();
    try {
      RocksDbTimerStore s = await(RocksDbTimerStore.open(vertx, new RocksDbStoreOptions().setDataDir(dir)));
      long now = System.currentTimeMillis();
      for (int i = 0; i < n; i += 5_000) {
        List<Timer> ts = new ArrayList<>();
        List<FiringRequest> reqs = new ArrayList<>();
        for (int j = i; j < Math.min(n, i + 5_000); j++) {
          Timer t = new Timer("order-" + j, "topic-" + (j % 16), Kind.ONCE, 30_000, 0, 0, Misfire.FIRE_ONCE,
              "{\"order\":" + j + "}", now - 60_000, now - 30_000, 0, 1);
          ts.add(t);
          reqs.add(new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), now - 29_000, null,
              t.nextDueAt(), HOOK));
        }
        await(s.putAll(ts));
        List<Future<Boolean>> done = new ArrayList<>();
        for (FiringResult r : await(s.recordFirings(reqs))) {
          Delivery d = r.delivery();
          done.add(s.updateDelivery(d.after(new Attempt(1, now - 28_000, 200, null, 3), DeliveryState.SUCCEEDED, 0,
              now - 28_000)));
        }
        await(Future.all(done));
      }
      long finished = await(s.countDeliveries(DeliveryState.SUCCEEDED));
      Retention retention = new Retention(retained, 7L * 24 * 3600 * 1000);
      if (finished > retained) {
        removing(s, retention, finished, calls);
        await(s.close());
        return;
      }
      System.out.printf("%,d finished deliveries (all recent), retention %,d / 7 days, %d trim calls%n", finished,
          retention.maxCount(), calls);
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long[] wallUs = new long[calls];
      long removed = 0;
      long cpu0 = os.getProcessCpuTime();
      for (int c = 0; c < calls; c++) {
        long t0 = System.nanoTime();
        removed += await(s.trimDeliveries(retention, System.currentTimeMillis()));
        wallUs[c] = (System.nanoTime() - t0) / 1_000;
      }
      long cpuUs = (os.getProcessCpuTime() - cpu0) / 1_000;
      Arrays.sort(wallUs);
      System.out.printf("trimDeliveries with nothing to remove: median %,d us, highest %,d us of wall time per call;"
          + " process CPU %,d us per call; removed %d (must be 0)%n", wallUs[calls / 2], wallUs[calls - 1],
          cpuUs / calls, removed);
      await(s.close());
      if (removed != 0) {
        throw new IllegalStateException("the trims removed " + removed + " recent deliveries: the figures are void");
      }
    } finally {
      await(vertx.close());
      try (Stream<Path> w = Files.walk(dir)) {
        w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The removing case: trims of the excess while single creates go on beside them. */
  private static void removing(RocksDbTimerStore s, Retention retention, long finished, int calls) throws Exception {
    System.out.printf("%,d finished deliveries (all recent), retention %,d / 7 days, %d trim calls, single creates"
        + " beside them%n", finished, retention.maxCount(), calls);
    long[] quiet = creates(s, "quiet-", null);
    java.util.concurrent.atomic.AtomicBoolean trimming = new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.CompletableFuture<long[]> during = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> creates(s, "during-", trimming));
    long[] wallUs = new long[calls];
    long removed = 0;
    for (int c = 0; c < calls; c++) {
      long t0 = System.nanoTime();
      removed += await(s.trimDeliveries(retention, System.currentTimeMillis()));
      wallUs[c] = (System.nanoTime() - t0) / 1_000;
    }
    trimming.set(false);
    long[] busy = during.get();
    if (busy.length == 0) {
      throw new IllegalStateException("no create ran during the trims: the figures are void");
    }
    System.out.printf("trimDeliveries removing: %s us of wall time per call; removed %,d (must be %,d)%n",
        Arrays.toString(wallUs), removed, finished - retention.maxCount());
    System.out.printf("single creates, no trim: %,d, p99 %,d us, longest %,d us%n", quiet.length, quiet[quiet.length
        * 99 / 100], quiet[quiet.length - 1]);
    System.out.printf("single creates during the trims: %,d, p99 %,d us, longest %,d us%n", busy.length,
        busy[busy.length * 99 / 100], busy[busy.length - 1]);
    if (removed != finished - retention.maxCount()) {
      throw new IllegalStateException("the trims removed " + removed + ", not the excess: the figures are void");
    }
  }

  /**
   * One create at a time (awaited) while {@code go} is set, or 2,000 of them when it is {@code null}; their
   * latencies in us, sorted.
   */
  private static long[] creates(RocksDbTimerStore s, String prefix, java.util.concurrent.atomic.AtomicBoolean go) {
    List<Long> us = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; go == null ? i < 2_000 : go.get(); i++) {
      Timer t = new Timer(prefix + i, "t", Kind.ONCE, 3_600_000, 0, 0, Misfire.FIRE_ONCE, null, now, now + 3_600_000,
          0, 1);
      long t0 = System.nanoTime();
      await(s.put(t));
      us.add((System.nanoTime() - t0) / 1_000);
    }
    return us.stream().mapToLong(Long::longValue).sorted().toArray();
  }
}
