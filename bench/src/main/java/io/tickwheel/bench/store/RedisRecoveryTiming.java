package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures recovery: {@code loadAll} of N timers (default 1,000,000) from a redis-server this main starts on a free
 * loopback port, with a fresh store per run (as at a server start). Run with
 * {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RedisRecoveryTiming [TIMERS RUNS BATCH]}
 * (after {@code mvn -q -pl bench -am -DskipTests package}).
 */
public final class RedisRecoveryTiming {

  private RedisRecoveryTiming() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 5_000;
    Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setWarningExceptionTime(1)
        .setWarningExceptionTimeUnit(java.util.concurrent.TimeUnit.SECONDS));
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      RedisStoreOptions opts = new RedisStoreOptions().setConnectionString(redis.uri());
      RedisTimerStore store = await(RedisTimerStore.open(vertx, opts));
      long t0 = System.nanoTime();
      List<Future<Void>> writes = new ArrayList<>();
      for (int i = 0; i < n; i += 5_000) {
        List<Timer> chunk = new ArrayList<>(5_000);
        for (int j = i; j < Math.min(n, i + 5_000); j++) {
          chunk.add(timer(j));
        }
        writes.add(store.putAll(chunk));
        if (writes.size() == 8) {
          await(Future.all(writes));
          writes.clear();
        }
      }
      await(Future.all(writes));
      long fillMs = (System.nanoTime() - t0) / 1_000_000;
      await(store.close());
      System.out.printf("filled %,d timers in %,d ms; redis used_memory %s%n", n, fillMs,
          info(redis, "MEMORY", "used_memory_human"));

      redis.command("CONFIG", "RESETSTAT");
      long[] ms = new long[runs];
      double[] jvmCpu = new double[runs];
      double[] redisCpu = new double[runs];
      for (int r = 0; r < runs; r++) {
        RedisTimerStore fresh = await(RedisTimerStore.open(vertx, opts));
        AtomicLong seen = new AtomicLong();
        double r0 = redisCpuSeconds(redis);
        long c0 = jvmCpuNanos();
        long s = System.nanoTime();
        long loaded = await(fresh.loadAll(batch, b -> {
          seen.addAndGet(b.size());
          return Future.succeededFuture();
        }));
        ms[r] = (System.nanoTime() - s) / 1_000_000;
        jvmCpu[r] = (jvmCpuNanos() - c0) / 1e9;
        redisCpu[r] = redisCpuSeconds(redis) - r0;
        if (loaded != n || seen.get() != n) {
          throw new IllegalStateException("loaded " + loaded + "/" + seen.get() + " of " + n);
        }
        await(fresh.close());
        System.out.printf("run %d: loadAll(%d) of %,d timers in %,d ms wall; cpu: jvm %.2f s, redis %.2f s;"
            + " load average %s%n", r + 1, batch, n, ms[r], jvmCpu[r], redisCpu[r], RedisPutThroughput.loadAverage());
      }
      long[] sorted = ms.clone();
      Arrays.sort(sorted);
      for (String line : redis.command("INFO", "COMMANDSTATS").split("\r\n")) {
        if (line.startsWith("cmdstat_evalsha")) {
          System.out.println("redis side of the loads: " + line);
        }
      }
      double[] jc = jvmCpu.clone();
      double[] rc = redisCpu.clone();
      Arrays.sort(jc);
      Arrays.sort(rc);
      System.out.printf("median loadAll of %,d timers (batch %d): %,d ms wall, cpu jvm %.2f s + redis %.2f s"
          + " (wall per run %s)%n", n, batch, sorted[runs / 2], jc[runs / 2], rc[runs / 2], Arrays.toString(ms));
    } finally {
      await(vertx.close());
    }
  }

  static Timer timer(int i) {
    return new Timer("timer-" + i, "topic-" + (i % 16), i % 3 == 0 ? Kind.FIXED_RATE : Kind.ONCE, 60_000,
        i % 3 == 0 ? 60_000 : 0, 0, Misfire.FIRE_ONCE, "{\"job\":" + i + ",\"kind\":\"reminder\"}",
        1_700_000_000_000L, 1_700_000_000_000L + (i % 100_000) * 1000L, 0, 1);
  }

  /** CPU time of this JVM, all threads (JIT and GC included), ns. */
  static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static double redisCpuSeconds(RedisServerProcess redis) {
    return Double.parseDouble(info(redis, "CPU", "used_cpu_user")) + Double.parseDouble(info(redis, "CPU", "used_cpu_sys"));
  }

  /** One field of {@code INFO section}. */
  static String info(RedisServerProcess redis, String section, String field) {
    for (String line : redis.command("INFO", section).split("\r\n")) {
      if (line.startsWith(field + ":")) {
        return line.substring(field.length() + 1);
      }
    }
    throw new IllegalStateException("INFO " + section + " has no " + field);
  }
}
