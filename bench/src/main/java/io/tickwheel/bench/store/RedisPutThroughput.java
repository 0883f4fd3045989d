package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.tickwheel.store.redis.impl.TimerRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Measures write throughput and Redis CPU per timer against a redis-server this main starts on a free loopback port
 * (no persistence unless the first argument says {@code always}/{@code everysec}). Modes: single puts with C
 * concurrent callers (each on its own event-loop context, next put when the previous completes), {@code putAll}
 * batches, {@code recordFirings} batches; and as a peer in the same run, the same records written by plain
 * pipelined {@code HSET}+{@code ZADD} over one connection (no script, no checks). Reports the median of RUNS runs.
 * Run with {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RedisPutThroughput [none 3 50000]}
 * (after {@code mvn -q -pl bench -am -DskipTests package}).
 */
public final class RedisPutThroughput {

  private RedisPutThroughput() {}

  public static void main(String[] args) {
    String fsync = args.length > 0 ? args[0] : "none";
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
    Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setWarningExceptionTime(1)
        .setWarningExceptionTimeUnit(java.util.concurrent.TimeUnit.SECONDS));
    try (RedisServerProcess redis = "none".equals(fsync) ? RedisServerProcess.start()
        : RedisServerProcess.startWithAof(fsync)) {
      RedisTimerStore store = await(RedisTimerStore.open(vertx,
          new RedisStoreOptions().setConnectionString(redis.uri())));
      RedisConnection raw = await(Redis.createClient(vertx, redis.uri()).connect());
      System.out.printf(Locale.ROOT, "redis persistence: %s; %d timers per run; %d runs; load average %s%n", fsync,
          n, runs, loadAverage());
      AtomicInteger run = new AtomicInteger();
      // warm up the JIT and Redis
      singles(vertx, store, 16, 10_000, "warm" + run.incrementAndGet());
      report(redis, runs, n, "single put, 1 caller", r -> singles(vertx, store, 1, n / 5, "s1-" + r) * 5);
      report(redis, runs, n, "single put, 16 callers", r -> singles(vertx, store, 16, n, "s16-" + r));
      report(redis, runs, n, "single put, 256 callers", r -> singles(vertx, store, 256, n, "s256-" + r));
      report(redis, runs, n, "putAll, batches of 1000", r -> batches(store, n, 1000, "b-" + r));
      report(redis, runs, n, "recordFirings, batches of 1000 (once timers: log + remove)",
          r -> firings(store, n, 1000, "b-" + r));
      report(redis, runs, n, "peer: raw pipelined HSET+ZADD, 16 callers", r -> rawPipelined(vertx, raw, 16, n, "raw-" + r));
      await(store.close());
    } finally {
      await(vertx.close());
    }
  }

  /** Runs {@code body} (which returns elapsed ns) {@code runs} times; prints median timers/s and Redis CPU/timer. */
  private static void report(RedisServerProcess redis, int runs, int n, String what, IntFunction<Long> body) {
    redis.command("CONFIG", "RESETSTAT");
    double[] rate = new double[runs];
    double[] cpu = new double[runs];
    for (int r = 0; r < runs; r++) {
      double c0 = cpuSeconds(redis);
      long ns = body.apply(r);
      double c1 = cpuSeconds(redis);
      rate[r] = n / (ns / 1e9);
      cpu[r] = (c1 - c0) * 1e6 / n;
    }
    double[] rs = rate.clone();
    double[] cs = cpu.clone();
    Arrays.sort(rs);
    Arrays.sort(cs);
    System.out.printf(Locale.ROOT, "%-62s median %,9.0f timers/s  redis cpu %6.2f us/timer   (runs: %s)%n", what,
        rs[runs / 2], cs[runs / 2], Arrays.toString(Arrays.stream(rate).mapToLong(Math::round).toArray()));
    for (String line : redis.command("INFO", "COMMANDSTATS").split("\r\n")) {
      if (line.startsWith("cmdstat_")) {
        System.out.println("    " + line); // Redis's own per-command cost (usec_per_call) over these runs
      }
    }
  }

  private static long singles(Vertx vertx, RedisTimerStore store, int callers, int n, String tag) {
    return ClosedLoop.elapsedNanos(vertx, callers, n, i -> store.put(RedisRecoveryTiming.timer(i)
        .withPayload("{\"job\":" + i + "}").withNextDueAt(1_000_000 + i).withGeneration(1)));
  }

  private static long rawPipelined(Vertx vertx, RedisConnection raw, int callers, int n, String tag) {
    return ClosedLoop.elapsedNanos(vertx, callers, n, i -> {
      Timer t = RedisRecoveryTiming.timer(i);
      raw.send(Request.cmd(Command.HSET).arg("{peer}:timers").arg(tag + t.id()).arg(TimerRecord.encode(t)));
      return raw.send(Request.cmd(Command.ZADD).arg("{peer}:due").arg(0)
          .arg(TimerRecord.member(t.nextDueAt(), tag + t.id())));
    });
  }

  private static long batches(RedisTimerStore store, int n, int size, String tag) {
    long t0 = System.nanoTime();
    List<Future<Void>> inFlight = new ArrayList<>();
    for (int i = 0; i < n; i += size) {
      List<Timer> b = new ArrayList<>(size);
      for (int j = i; j < Math.min(n, i + size); j++) {
        Timer t = RedisRecoveryTiming.timer(j);
        b.add(new Timer(tag + t.id(), t.topic(), t.kind(), t.delayMs(), t.periodMs(), t.maxFirings(), t.misfire(),
            t.payload(), t.createdAt(), t.nextDueAt(), 0, 1));
      }
      inFlight.add(store.putAll(b));
      if (inFlight.size() == 4) {
        await(Future.all(inFlight));
        inFlight.clear();
      }
    }
    await(Future.all(inFlight));
    return System.nanoTime() - t0;
  }

  /** Fires the timers {@link #batches} wrote under {@code tag} (they exist: putAll ran first with the same tag). */
  private static long firings(RedisTimerStore store, int n, int size, String tag) {
    long t0 = System.nanoTime();
    List<Future<?>> inFlight = new ArrayList<>();
    for (int i = 0; i < n; i += size) {
      List<FiringRequest> b = new ArrayList<>(size);
      for (int j = i; j < Math.min(n, i + size); j++) {
        Timer t = RedisRecoveryTiming.timer(j);
        b.add(new FiringRequest(tag + t.id(), 1, 0, true, t.nextDueAt(), t.nextDueAt() + 3, null));
      }
      inFlight.add(store.recordFirings(b).map(rs -> {
        if (!rs.get(0).applied()) {
          throw new IllegalStateException("firing of " + b.get(0).id() + " was stale");
        }
        return rs;
      }));
      if (inFlight.size() == 4) {
        await(Future.all(inFlight));
        inFlight.clear();
      }
    }
    await(Future.all(inFlight));
    return System.nanoTime() - t0;
  }

  private static double cpuSeconds(RedisServerProcess redis) {
    return Double.parseDouble(RedisRecoveryTiming.info(redis, "CPU", "used_cpu_user"))
        + Double.parseDouble(RedisRecoveryTiming.info(redis, "CPU", "used_cpu_sys"));
  }

  static String loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
