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
 * What one periodic trim of the callbacks' delivery records costs the RocksDB store when there is nothing to remove:
 * N finished deliveries, all recent and within the retained count (the server's default retention: 100,000 and 7
 * days), then {@code calls} {@code trimDeliveries} calls one after the other. The server makes one such call every
 * 10 s; it runs on the store's writer thread, so every write (creates, firing records) waits behind it. Prints the
 * median and the highest wall time of one call and the process CPU per call (all threads), and checks that nothing
 * was removed (fails otherwise). Run with
 * {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RocksDbDeliveryTrimCost 100000 20}
 * (after {@code mvn -q -pl bench -am -DskipTests package}; args: finished deliveries, calls).
 */
public final class RocksDbDeliveryTrimCost {

  private static final Callback HOOK = new Callback("https://example.com/hook", 2000, 3, 0, 0);

  private RocksDbDeliveryTrimCost() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
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
      Retention retention = new Retention(100_000, 7L * 24 * 3600 * 1000);
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
}
