package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;
import static io.tickwheel.bench.store.RocksDbRecoveryTiming.median;

import io.tickwheel.core.model.Timer;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What {@code minReplicasAcked = 1} costs against {@code 0}: a master and one replica, both private redis-servers
 * this main starts on free loopback ports (no persistence), one store per setting. Per run and setting (the two
 * interleaved, so drift hits both alike): the latency of single {@code createAll} calls made one after another by
 * one caller (the server's single POST), the rate of single {@code createAll} calls from 64 concurrent callers, the
 * rate of {@code createAll} batches of 1,000 timers (4 in flight), and how many {@code WAIT}s Redis ran for them
 * ({@code INFO commandstats}). Prints every run and the median of RUNS.
 * Run with {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RedisReplicaAckCost [3 50000]}
 * (after {@code mvn -q -pl bench -am -DskipTests package}), under {@code flock /tmp/tickwheel-measure.lock}.
 */
public final class RedisReplicaAckCost {

  private static final int SEQUENTIAL = 5_000;
  private static final int CALLERS = 64;
  private static final int BATCH = 1_000;

  private RedisReplicaAckCost() {}

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
    Vertx vertx = Vertx.vertx();
    try (RedisServerProcess master = RedisServerProcess.start();
        RedisServerProcess replica = RedisServerProcess.startReplicaOf(master)) {
      RedisTimerStore[] stores = new RedisTimerStore[2];
      for (int acks = 0; acks < 2; acks++) {
        stores[acks] = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(master.uri())
            .setKeyPrefix("cost" + acks).setMinReplicasAcked(acks)));
      }
      System.out.printf(Locale.ROOT, "master %d + replica %d; %d runs; %d sequential creates, %d creates from %d "
          + "callers, %d timers in batches of %d; load average %s%n", master.port(), replica.port(), runs, SEQUENTIAL,
          n, CALLERS, n, BATCH, RedisPutThroughput.loadAverage());
      for (int acks = 0; acks < 2; acks++) { // warm-up of the JIT and of both Redis processes
        sequential(stores[acks], 2_000, "warm" + acks);
        concurrent(vertx, stores[acks], 10_000, "warmc" + acks);
        batches(stores[acks], 10_000, "warmb" + acks);
      }
      double[][] p50 = new double[2][runs];
      double[][] p99 = new double[2][runs];
      double[][] rate = new double[2][runs];
      double[][] batchRate = new double[2][runs];
      long[][] waits = new long[2][runs];
      for (int r = 0; r < runs; r++) {
        for (int acks = 0; acks < 2; acks++) {
          master.command("FLUSHALL");
          replica.awaitReplicaInSync(master, 10_000);
          master.command("CONFIG", "RESETSTAT");
          long[] lat = sequential(stores[acks], SEQUENTIAL, "s" + r);
          p50[acks][r] = lat[lat.length / 2] / 1e3;
          p99[acks][r] = lat[lat.length * 99 / 100] / 1e3;
          rate[acks][r] = n / (concurrent(vertx, stores[acks], n, "c" + r) / 1e9);
          batchRate[acks][r] = n / (batches(stores[acks], n, "b" + r) / 1e9);
          waits[acks][r] = calls(master.command("INFO", "commandstats"), "wait");
          System.out.printf(Locale.ROOT, "run %d minReplicasAcked=%d: single create p50 %.0f us p99 %.0f us; "
                  + "%,.0f creates/s (%d callers); %,.0f batched timers/s; %d WAITs for %d calls%n", r + 1, acks,
              p50[acks][r], p99[acks][r], rate[acks][r], CALLERS, batchRate[acks][r], waits[acks][r],
              SEQUENTIAL + n + n / BATCH);
        }
      }
      for (int acks = 0; acks < 2; acks++) {
        System.out.printf(Locale.ROOT, "median minReplicasAcked=%d: single create p50 %.0f us, p99 %.0f us; %,.0f "
                + "creates/s from %d callers; %,.0f batched timers/s%n", acks, median(p50[acks]), median(p99[acks]),
            median(rate[acks]), CALLERS, median(batchRate[acks]));
      }
      for (RedisTimerStore s : stores) {
        await(s.close());
      }
    } finally {
      await(vertx.close());
    }
  }

  /** {@code n} single creates, each after the previous completed; the sorted latencies, ns. */
  private static long[] sequential(RedisTimerStore store, int n, String tag) {
    long[] lat = new long[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      await(store.createAll(List.of(timer(tag, i))));
      lat[i] = System.nanoTime() - t0;
    }
    Arrays.sort(lat);
    return lat;
  }

  /** {@code n} single creates from {@link #CALLERS} callers, each on its own context; elapsed ns. */
  private static long concurrent(Vertx vertx, RedisTimerStore store, int n, String tag) {
    return ClosedLoop.elapsedNanos(vertx, CALLERS, n, i -> store.createAll(List.of(timer(tag, i))));
  }

  private static long batches(RedisTimerStore store, int n, String tag) {
    long t0 = System.nanoTime();
    List<Future<Void>> inFlight = new ArrayList<>();
    for (int b = 0; b < n; b += BATCH) {
      List<Timer> batch = new ArrayList<>(BATCH);
      for (int i = b; i < Math.min(n, b + BATCH); i++) {
        batch.add(timer(tag, i));
      }
      inFlight.add(store.createAll(batch));
      if (inFlight.size() == 4) {
        await(inFlight.remove(0));
      }
    }
    await(Future.all(inFlight));
    return System.nanoTime() - t0;
  }

  private static Timer timer(String tag, int i) {
    Timer t = RedisRecoveryTiming.timer(i);
    return new Timer(tag + "-" + t.id(), t.topic(), t.kind(), t.delayMs(), t.periodMs(), t.maxFirings(), t.misfire(),
        t.payload(), t.createdAt(), t.nextDueAt(), t.firings(), t.generation());
  }

  /** {@code calls} of {@code cmdstat_NAME} in an {@code INFO commandstats} answer (0 when absent). */
  private static long calls(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("cmdstat_" + name + ":")) {
        return Long.parseLong(line.replaceAll("^cmdstat_[a-z|]+:calls=(\\d+),.*", "$1"));
      }
    }
    return 0;
  }
}
