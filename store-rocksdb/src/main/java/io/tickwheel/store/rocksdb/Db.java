package io.tickwheel.store.rocksdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Priority;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.Status;
import org.rocksdb.WriteOptions;

/**
 * The open RocksDB instance, its column families and every native object that configures it. Opened and
 * closed off the event loop (by the caller of {@link #open} and by the store's writer thread); the handles
 * are then used concurrently by the writer and reader threads (RocksDB is thread safe), and must not be used
 * after {@link #close}.
 */
final class Db {

  static final String CF_TIMERS = "timers";
  static final String CF_DUE = "due";
  static final String CF_FIRINGS = "firings";
  static final String CF_META = "meta";

  final Path dir;
  final RocksDB db;
  final ColumnFamilyHandle timers;
  final ColumnFamilyHandle due;
  final ColumnFamilyHandle firings;
  final ColumnFamilyHandle meta;
  final WriteOptions writeOptions;
  private final List<ColumnFamilyHandle> handles;
  /** Closed in reverse order after the DB. */
  private final List<RocksObject> resources;
  private boolean closed;

  private Db(Path dir, RocksDB db, List<ColumnFamilyHandle> handles, WriteOptions writeOptions,
      List<RocksObject> resources) {
    this.dir = dir;
    this.db = db;
    this.handles = handles;
    this.timers = handles.get(1);
    this.due = handles.get(2);
    this.firings = handles.get(3);
    this.meta = handles.get(4);
    this.writeOptions = writeOptions;
    this.resources = resources;
  }

  /**
   * Opens or creates the database in {@code o.getDataDir()}. Blocking.
   *
   * @throws StoreOpenException when the directory is locked, corrupt, unusable, or holds something else
   */
  static Db open(RocksDbStoreOptions o) {
    Path dir = o.getDataDir().toAbsolutePath().normalize();
    checkDirectory(dir);
    RocksDB.loadLibrary();
    lowerCompactionPriority();
    List<RocksObject> res = new ArrayList<>();
    try {
      Cache cache = add(res, new LRUCache(o.getBlockCacheBytes(), cacheShardBits(o.getBlockCacheBytes()), false, 0.5));
      BloomFilter bloom = add(res, new BloomFilter(10));
      long wb = o.getWriteBufferBytes();
      ColumnFamilyOptions defaultCf = add(res, family(cache, 1L << 20));
      ColumnFamilyOptions timersCf = add(res, recordFamily(cache, bloom, wb));
      ColumnFamilyOptions dueCf = add(res, family(cache, wb / 2));
      ColumnFamilyOptions firingsCf = add(res, family(cache, wb / 2));
      ColumnFamilyOptions metaCf = add(res, family(cache, 1L << 20));
      DBOptions dbo = add(res, new DBOptions()
          .setCreateIfMissing(true)
          .setCreateMissingColumnFamilies(true)
          .setParanoidChecks(true)
          .setMaxOpenFiles(o.getMaxOpenFiles())
          .setMaxBackgroundJobs(2)
          // every family shares the WAL; the small meta family would otherwise pin old WAL files forever
          .setMaxTotalWalSize(4 * wb)
          .setBytesPerSync(1L << 20)
          .setInfoLogLevel(InfoLogLevel.INFO_LEVEL)
          .setMaxLogFileSize(8L << 20)
          .setKeepLogFileNum(3));
      List<ColumnFamilyDescriptor> cfs = List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultCf),
          new ColumnFamilyDescriptor(bytes(CF_TIMERS), timersCf),
          new ColumnFamilyDescriptor(bytes(CF_DUE), dueCf),
          new ColumnFamilyDescriptor(bytes(CF_FIRINGS), firingsCf),
          new ColumnFamilyDescriptor(bytes(CF_META), metaCf));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      RocksDB db;
      try {
        db = RocksDB.open(dbo, dir.toString(), cfs, handles);
      } catch (RocksDBException e) {
        throw openFailure(dir, e);
      }
      WriteOptions wo = add(res, new WriteOptions().setSync(o.isFsync()).setDisableWAL(false));
      return new Db(dir, db, handles, wo, res);
    } catch (RuntimeException e) {
      closeAll(res);
      throw e;
    }
  }

  /**
   * Runs RocksDB's compaction threads (its LOW pool, shared by every database of the process) at the lowest CPU
   * priority ({@code nice 19}; their I/O priority is left alone). Compaction is background work that may wait;
   * the event loop, the writer thread and the flushes (HIGH pool, left alone) are what a firing waits for. On a
   * small machine the compaction after a bulk load otherwise competes for a core with the wheel's event loop for
   * seconds (see the lateness A/B in store-rocksdb/README.md). Under a sustained write overload compaction then
   * falls behind and RocksDB's own write slowdown pushes back on writers, which is the intended order of
   * priorities. Idempotent.
   */
  private static void lowerCompactionPriority() {
    Env env = Env.getDefault();
    env.lowerThreadPoolCPUPriority(Priority.LOW);
  }

  /**
   * Shard bits of the block cache: shards of at least 16 MiB (at most 64 shards). RocksDB's default of 64 shards
   * makes 1 MiB shards of a 64 MiB cache, smaller than one large index or filter block.
   */
  static int cacheShardBits(long cacheBytes) {
    int bits = 0;
    while (bits < 6 && (cacheBytes >> (bits + 1)) >= (16L << 20)) {
      bits++;
    }
    return bits;
  }

  /**
   * The {@code timers} family's memtable bloom filter, as a fraction of its write buffer (1.6 MiB of the default
   * 16 MiB buffer). A create-if-absent of a new id then skips the memtable's skip-list search: without it that
   * search was ~40 % of the id check's {@code multiGet} (async-profiler, WebSocket schedules of new ids).
   */
  static final double MEMTABLE_BLOOM_RATIO = 0.1;

  /**
   * The {@code timers} family, read by id at random (a create-if-absent's check of each id, the window's read of the
   * records its due index names): a bloom filter and the index both partitioned (4 KiB partitions behind a top level
   * pinned in the cache). With one filter block and one index block per file, 100 M timers have ~125 MB of filters
   * against a 64 MiB cache: a point read loaded a file's whole filter (megabytes) for one record. Data blocks stay
   * at 16 KiB with ZSTD at the bottommost level: 4 KiB blocks and LZ4 there cost ~5 % more CPU per created timer on a
   * small database (bench/results/scale-100m-2026-11-27.md).
   */
  private static ColumnFamilyOptions recordFamily(Cache cache, BloomFilter bloom, long writeBuffer) {
    return options(table(cache)
        .setFilterPolicy(bloom)
        .setIndexType(IndexType.kTwoLevelIndexSearch)
        .setPartitionFilters(true)
        .setMetadataBlockSize(4 << 10)
        .setPinTopLevelIndexAndFilter(true), writeBuffer)
        .setMemtableWholeKeyFiltering(true)
        .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO);
  }

  private static ColumnFamilyOptions family(Cache cache, long writeBuffer) {
    return options(table(cache), writeBuffer);
  }

  private static BlockBasedTableConfig table(Cache cache) {
    // Index and filter blocks live in the block cache (memory stays bounded by it), in its high-priority pool so
    // that data blocks do not push them out. With RocksDB's default 64 shards a 64 MiB cache has 1 MiB shards,
    // smaller than the filter block of one SST of a million timers (1.25 MB): it was re-read from the file on
    // every point read, ~100 µs instead of ~6 µs (cacheShardBits; store-rocksdb/README.md).
    return new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(16 << 10)
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinL0FilterAndIndexBlocksInCache(true);
  }

  private static ColumnFamilyOptions options(BlockBasedTableConfig table, long writeBuffer) {
    return new ColumnFamilyOptions()
        .setWriteBufferSize(writeBuffer)
        .setMaxWriteBufferNumber(2)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
        .setLevelCompactionDynamicLevelBytes(true)
        .setTableFormatConfig(table);
  }

  /**
   * Refuses what RocksDB would silently accept: a path that is not a directory, or a non-empty directory
   * without a {@code CURRENT} file ({@code create_if_missing} would start a new, empty database next to the
   * old files of a damaged one, or litter an unrelated directory).
   */
  static void checkDirectory(Path dir) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new StoreOpenException("data dir " + dir + " is not a directory");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StoreOpenException("data dir " + dir + " cannot be created: " + e, e);
    }
    if (!Files.isReadable(dir) || !Files.isWritable(dir) || !Files.isExecutable(dir)) {
      throw new StoreOpenException("data dir " + dir + " is not readable and writable by this user");
    }
    if (Files.exists(dir.resolve("CURRENT"))) {
      return;
    }
    List<String> foreign;
    try (Stream<Path> s = Files.list(dir)) {
      foreign = s.map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith(".") && !n.equals("lost+found"))
          .sorted().limit(5).toList();
    } catch (IOException e) {
      throw new StoreOpenException("data dir " + dir + " is unreadable: " + e, e);
    }
    if (foreign.isEmpty()) {
      return;
    }
    boolean rocksFiles = foreign.stream().anyMatch(n -> n.startsWith("MANIFEST-") || n.endsWith(".sst")
        || n.endsWith(".log") || n.startsWith("OPTIONS-") || n.equals("LOCK") || n.equals("IDENTITY"));
    if (rocksFiles) {
      throw new StoreOpenException("data dir " + dir + " is corrupt: it holds RocksDB files " + foreign
          + " but no CURRENT file; refusing to create a new database over it");
    }
    throw new StoreOpenException("data dir " + dir + " is not empty and not a tickwheel RocksDB directory "
        + "(found " + foreign + "); use an empty or new directory");
  }

  static StoreOpenException openFailure(Path dir, RocksDBException e) {
    Status st = e.getStatus();
    Status.Code code = st == null ? null : st.getCode();
    String msg = e.getMessage() == null ? String.valueOf(code) : e.getMessage().replace('\n', ' ');
    String lower = msg.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("lock") && lower.contains("current process")) {
      return new StoreOpenException("data dir " + dir + " is already open by another store in this process: " + msg, e);
    }
    if (lower.contains("lock")) {
      return new StoreOpenException("data dir " + dir + " is locked by another process (RocksDB LOCK file held: "
          + "is another tickwheel running on it?): " + msg, e);
    }
    if (code == Status.Code.Corruption || lower.contains("corrupt")) {
      return new StoreOpenException("data dir " + dir + " is corrupt: " + msg, e);
    }
    if (code == Status.Code.IOError) {
      return new StoreOpenException("data dir " + dir + " is unreadable: " + msg, e);
    }
    return new StoreOpenException("data dir " + dir + " cannot be opened: " + msg, e);
  }

  /** The largest key of a family as a big-endian long, or {@code -1} when empty. Blocking. */
  long lastKeyAsLong(ColumnFamilyHandle cf) {
    try (RocksIterator it = db.newIterator(cf)) {
      it.seekToLast();
      return it.isValid() ? Keys.seqOf(it.key()) : -1;
    }
  }

  /** The smallest key of a family as a big-endian long, or {@code -1} when empty. Blocking. */
  long firstKeyAsLong(ColumnFamilyHandle cf) {
    try (RocksIterator it = db.newIterator(cf)) {
      it.seekToFirst();
      return it.isValid() ? Keys.seqOf(it.key()) : -1;
    }
  }

  /** Flushes the memtables (so a reopen replays no WAL) and releases every native object. Blocking; idempotent. */
  synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo, handles);
    } catch (RocksDBException e) {
      // the WAL still holds everything; the next open replays it
    }
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    try {
      db.closeE();
    } catch (RocksDBException e) {
      db.close();
    } finally {
      closeAll(resources);
    }
  }

  private static <T extends RocksObject> T add(List<RocksObject> res, T o) {
    res.add(o);
    return o;
  }

  private static void closeAll(List<RocksObject> res) {
    for (int i = res.size() - 1; i >= 0; i--) {
      res.get(i).close();
    }
    res.clear();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
