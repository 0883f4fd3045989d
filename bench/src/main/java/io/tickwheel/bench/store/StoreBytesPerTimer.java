package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;

import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What a stored timer costs in each durable store, by shape: a plain {@code once} timer, a {@code cron} timer (zone
 * and DST policies, the calendar fields every cron timer has), and a {@code cron} timer with every calendar field
 * (end, jitter with its nominal time). The timers share ids, topics, payloads and due times; only the shape differs.
 * <ul>
 *   <li>RocksDB: SST bytes per timer after a full compaction (timers family, due index, whole directory).</li>
 *   <li>Redis: {@code used_memory} growth per timer on a fresh redis-server started for each shape, and the length
 *       of one record ({@code HSTRLEN}).</li>
 * </ul>
 * Run with {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.StoreBytesPerTimer [TIMERS]}
 * (default 200,000; after {@code mvn -q -pl bench -am -DskipTests package}).
 */
public final class StoreBytesPerTimer {

  private StoreBytesPerTimer() {}

  private static final long NOW = 1_750_000_000_000L;

  record Shape(String name, IntFunction<Timer> timer) {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    ZonedCron weekdays = ZonedCron.of("0 9 * * 1-5", ZoneId.of("Europe/Amsterdam"), DstGap.AUTO, DstOverlap.AUTO);
    List<Shape> shapes = List.of(
        new Shape("once", StoreBytesPerTimer::once),
        new Shape("cron", i -> cron(i, new Timer.Extras(weekdays, Timer.NO_END, 0, false, 0))),
        new Shape("cron+end+jitter", i -> cron(i, new Timer.Extras(weekdays, NOW + 365L * 86_400_000L, 60_000,
            false, once(i).nextDueAt()))));
    Vertx vertx = Vertx.vertx();
    try {
      for (Shape s : shapes) {
        rocksdb(vertx, s, n);
      }
      for (Shape s : shapes) {
        redis(vertx, s, n);
      }
    } finally {
      await(vertx.close());
    }
  }

  static Timer once(int i) {
    return new Timer(String.format("order-%08d", i), "topic-" + (i % 16), Kind.ONCE, 30_000, 0, 0,
        Misfire.FIRE_ONCE, "{\"order\":" + i + ",\"attempt\":1}", NOW, NOW + (i * 7919L) % 86_400_000L, 0, 1);
  }

  static Timer cron(int i, Timer.Extras extras) {
    Timer o = once(i);
    Timer t = new Timer(o.id(), o.topic(), Kind.CRON, 0, 0, 0, Misfire.FIRE_ONCE, o.payload(), NOW, o.nextDueAt(), 0,
        1, extras);
    return extras.jitterMs() > 0 ? t.withDue(o.nextDueAt(), o.nextDueAt() + i % extras.jitterMs()) : t;
  }

  private static void fill(TimerStore store, Shape s, int n) {
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < n; i += 5_000) {
      List<Timer> chunk = new ArrayList<>(5_000);
      for (int j = i; j < Math.min(n, i + 5_000); j++) {
        chunk.add(s.timer().apply(j));
      }
      writes.add(store.putAll(chunk));
      if (writes.size() == 8) {
        await(Future.all(writes));
        writes.clear();
      }
    }
    await(Future.all(writes));
  }

  private static void rocksdb(Vertx vertx, Shape s, int n) throws Exception {
    Path dir = Files.createTempDirectory("tickwheel-bytes-");
    try {
      RocksDbTimerStore store = await(RocksDbTimerStore.open(vertx, new RocksDbStoreOptions().setDataDir(dir)));
      fill(store, s, n);
      await(store.close());
      String[] cf = RocksDbRecoveryTiming.compactAll(dir, "timers", "due");
      long sst = RocksDbRecoveryTiming.sizeOf(dir, ".sst");
      long all = RocksDbRecoveryTiming.sizeOf(dir, "");
      System.out.printf("rocksdb %-16s %,d timers: %.1f B/timer sst (timers cf %.1f, due cf %.1f), %.1f B/timer dir%n",
          s.name(), n, (double) sst / n, Long.parseLong(cf[0]) / (double) n, Long.parseLong(cf[1]) / (double) n,
          (double) all / n);
    } finally {
      RocksDbRecoveryTiming.deleteTree(dir);
    }
  }

  private static void redis(Vertx vertx, Shape s, int n) {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      RedisTimerStore store = await(RedisTimerStore.open(vertx,
          new RedisStoreOptions().setConnectionString(redis.uri())));
      long before = Long.parseLong(RedisRecoveryTiming.info(redis, "MEMORY", "used_memory"));
      fill(store, s, n);
      await(store.close());
      long after = Long.parseLong(RedisRecoveryTiming.info(redis, "MEMORY", "used_memory"));
      String record = redis.command("HSTRLEN", "{tw}:timers", s.timer().apply(1).id());
      System.out.printf("redis   %-16s %,d timers: %.1f B/timer used_memory, record of timer 1: %s B%n", s.name(),
          n, (after - before) / (double) n, record.replace(":", ""));
    }
  }
}
