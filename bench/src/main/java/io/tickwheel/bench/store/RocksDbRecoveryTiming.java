package io.tickwheel.bench.store;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDB;

/**
 * Measures recovery ({@code loadAll} of N timers after a reopen) and bytes on disk per timer after a full
 * compaction. Run with
 * {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.store.RocksDbRecoveryTiming 1000000 5}
 * (after {@code mvn -q -pl bench -am -DskipTests package})
 * (args: timers, runs; a third optional arg is the directory, default a new directory under java.io.tmpdir, deleted at the end).
 */
public final class RocksDbRecoveryTiming {

  private RocksDbRecoveryTiming() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean temp = args.length <= 2;
    Path dir = temp ? Files.createTempDirectory("tickwheel-recovery-") : Path.of(args[2]);
    Vertx vertx = Vertx.vertx();
    try {
      RocksDbStoreOptions o = new RocksDbStoreOptions().setDataDir(dir);
      long t0 = System.nanoTime();
      RocksDbTimerStore s = await(RocksDbTimerStore.open(vertx, o));
      SplittableRandom rnd = new SplittableRandom(7);
      long now = 1_750_000_000_000L;
      List<Future<Void>> pending = new ArrayList<>();
      for (int i = 0; i < n; i += 10_000) {
        List<Timer> chunk = new ArrayList<>(10_000);
        for (int j = i; j < Math.min(n, i + 10_000); j++) {
          boolean periodic = j % 4 == 0;
          String id = "order-" + String.format("%08d", rnd.nextInt(100_000_000)) + "-" + j;
          chunk.add(new Timer(id, "topic-" + (j % 16), periodic ? Kind.FIXED_RATE : Kind.ONCE,
              periodic ? 60_000 : 30_000, periodic ? 60_000 : 0, 0, Misfire.FIRE_ONCE,
              "{\"order\":\"" + id + "\",\"attempt\":1}", now, now + rnd.nextLong(86_400_000L), 0, 1));
        }
        pending.add(s.putAll(chunk));
        if (pending.size() >= 8) {
          await(pending.remove(0));
        }
        if ((i + 10_000) % 200_000 == 0) {
          System.out.printf("  %,d written after %.2f s%n", i + 10_000, (System.nanoTime() - t0) / 1e9);
        }
      }
      for (Future<Void> f : pending) {
        await(f);
      }
      await(s.close());
      System.out.printf("wrote %,d timers in %.2f s (putAll of 10,000, 8 in flight), dir %s%n", n,
          (System.nanoTime() - t0) / 1e9, dir);

      long c0 = System.nanoTime();
      String[] familySst = compactAll(dir, "timers", "due");
      String timersSst = familySst[0];
      String dueSst = familySst[1];
      long sst = sizeOf(dir, ".sst");
      long all = sizeOf(dir, "");
      System.out.printf("full compaction %.2f s; on disk after compaction: sst %,d B (timers cf %s B, due cf %s B), "
              + "whole dir %,d B -> %.1f B/timer (sst), %.1f B/timer (dir)%n",
          (System.nanoTime() - c0) / 1e9, sst, timersSst, dueSst, all, (double) sst / n, (double) all / n);

      double[] openS = new double[runs];
      double[] loadS = new double[runs];
      for (int r = 0; r < runs; r++) {
        long a = System.nanoTime();
        RocksDbTimerStore st = await(RocksDbTimerStore.open(vertx, o));
        long b = System.nanoTime();
        long[] seen = new long[1];
        long count = await(st.loadAll(1000, batch -> {
          seen[0] += batch.size();
          return Future.succeededFuture();
        }));
        long c = System.nanoTime();
        await(st.close());
        if (count != n || seen[0] != n) {
          throw new IllegalStateException("loaded " + count + "/" + seen[0] + " of " + n);
        }
        openS[r] = (b - a) / 1e9;
        loadS[r] = (c - b) / 1e9;
        System.out.printf("run %d: open %.3f s, loadAll(1000) of %,d timers %.3f s (%.0f timers/s)%n", r + 1,
            openS[r], count, loadS[r], count / loadS[r]);
      }
      System.out.printf("median: open %.3f s, loadAll %.3f s over %d runs%n", median(openS), median(loadS), runs);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      if (temp) {
        deleteTree(dir);
      }
    }
  }

  /**
   * Opens the store's directory with RocksJava and the options the store last opened it with (RocksDB's OPTIONS
   * file: compression LZ4, ZSTD at the bottommost level, the same as the store's own compactions), compacts every
   * column family fully and returns {@code rocksdb.total-sst-files-size} of the named ones.
   */
  static String[] compactAll(Path dir, String... named) throws Exception {
    List<ColumnFamilyDescriptor> cfs = new ArrayList<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (ConfigOptions config = new ConfigOptions(); DBOptions o = new DBOptions()) {
      OptionsUtil.loadLatestOptions(config, dir.toString(), o, cfs);
      try (RocksDB db = RocksDB.open(o, dir.toString(), cfs, handles)) {
        for (ColumnFamilyHandle h : handles) {
          db.compactRange(h);
        }
        String[] sizes = new String[named.length];
        for (int i = 0; i < named.length; i++) {
          int at = -1;
          for (int j = 0; j < cfs.size(); j++) {
            if (new String(cfs.get(j).getName(), StandardCharsets.UTF_8).equals(named[i])) {
              at = j;
            }
          }
          if (at < 0) {
            throw new IllegalStateException("no column family " + named[i] + " in " + dir);
          }
          sizes[i] = db.getProperty(handles.get(at), "rocksdb.total-sst-files-size");
        }
        return sizes;
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
        cfs.forEach(d -> d.getOptions().close());
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static long sizeOf(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
  }
}
