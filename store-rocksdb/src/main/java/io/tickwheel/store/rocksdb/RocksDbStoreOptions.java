package io.tickwheel.store.rocksdb;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Configuration of a {@link RocksDbTimerStore}. Fluent setters validate at once and throw
 * {@link IllegalArgumentException} naming the field and the bad value. Not thread safe; the store copies
 * the values it needs when it is opened, so changing an options object afterwards has no effect on it.
 */
public final class RocksDbStoreOptions {

  /** 64 MiB. */
  public static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
  /** 16 MiB. */
  public static final long DEFAULT_WRITE_BUFFER_BYTES = 16L << 20;
  public static final int DEFAULT_MAX_GROUP_OPS = 1024;
  public static final int DEFAULT_MAX_QUEUED_WRITES = 65_536;
  public static final int DEFAULT_MAX_QUEUED_READS = 16_384;
  public static final int DEFAULT_READER_THREADS = 2;
  public static final int DEFAULT_MAX_OPEN_FILES = 512;
  public static final int DEFAULT_TRIM_MAX_SCAN = 100_000;
  public static final int DEFAULT_RECENT_TIMERS = 131_072;
  public static final long DEFAULT_RECENT_TIMERS_BYTES = 64L << 20;
  /** Ten minutes. */
  public static final long DEFAULT_RECENT_TIMERS_HORIZON_MS = 600_000;

  private Path dataDir = Path.of("data");
  private boolean fsync;
  private long blockCacheBytes = DEFAULT_BLOCK_CACHE_BYTES;
  private long writeBufferBytes = DEFAULT_WRITE_BUFFER_BYTES;
  private int maxGroupOps = DEFAULT_MAX_GROUP_OPS;
  private int maxQueuedWrites = DEFAULT_MAX_QUEUED_WRITES;
  private int maxQueuedReads = DEFAULT_MAX_QUEUED_READS;
  private int readerThreads = DEFAULT_READER_THREADS;
  private int maxOpenFiles = DEFAULT_MAX_OPEN_FILES;
  private int trimMaxScan = DEFAULT_TRIM_MAX_SCAN;
  private int recentTimers = DEFAULT_RECENT_TIMERS;
  private long recentTimersBytes = DEFAULT_RECENT_TIMERS_BYTES;
  private long recentTimersHorizonMs = DEFAULT_RECENT_TIMERS_HORIZON_MS;

  /** The RocksDB directory; created (with parents) if missing. Default {@code ./data}. */
  public Path getDataDir() {
    return dataDir;
  }

  public RocksDbStoreOptions setDataDir(Path dataDir) {
    this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
    return this;
  }

  /**
   * Whether every group commit is fsynced ({@code WriteOptions.sync}) before its futures complete.
   * Default {@code false}: the write-ahead log is always written before a future completes, so a write
   * survives a crash of the process (kill -9) but the last moments of writes may be lost if the machine
   * loses power. With {@code true} writes also survive a power loss, at the cost of one fsync per group
   * (see the module README for measured throughput).
   */
  public boolean isFsync() {
    return fsync;
  }

  public RocksDbStoreOptions setFsync(boolean fsync) {
    this.fsync = fsync;
    return this;
  }

  /** Size of the shared LRU block cache, bytes, {@code >= 0}. Default 64 MiB. */
  public long getBlockCacheBytes() {
    return blockCacheBytes;
  }

  public RocksDbStoreOptions setBlockCacheBytes(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("blockCacheBytes must be >= 0, was " + bytes);
    }
    this.blockCacheBytes = bytes;
    return this;
  }

  /**
   * Size of one memtable of the timers column family, bytes, {@code >= 1 MiB}. The index and firing-log
   * families get half of it, the meta family a fixed 1 MiB; at most two memtables per family exist, so memtables
   * use at most about {@code 2 * (1 + 0.5 + 0.5) * writeBufferBytes + 2 MiB}. Default 16 MiB.
   */
  public long getWriteBufferBytes() {
    return writeBufferBytes;
  }

  public RocksDbStoreOptions setWriteBufferBytes(long bytes) {
    if (bytes < (1L << 20)) {
      throw new IllegalArgumentException("writeBufferBytes must be >= 1048576, was " + bytes);
    }
    this.writeBufferBytes = bytes;
    return this;
  }

  /**
   * Group commit: at most this many queued write calls are folded into one RocksDB write batch (a
   * {@code putAll} counts as one call). {@code 1} disables grouping. Default 1024.
   */
  public int getMaxGroupOps() {
    return maxGroupOps;
  }

  public RocksDbStoreOptions setMaxGroupOps(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxGroupOps must be >= 1, was " + n);
    }
    this.maxGroupOps = n;
    return this;
  }

  /**
   * How many write calls may wait for the writer thread; beyond it a write fails at once with
   * {@code StoreUnavailableException}. Default 65536.
   */
  public int getMaxQueuedWrites() {
    return maxQueuedWrites;
  }

  public RocksDbStoreOptions setMaxQueuedWrites(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxQueuedWrites must be >= 1, was " + n);
    }
    this.maxQueuedWrites = n;
    return this;
  }

  /**
   * How many read calls may wait (for earlier writes or for a reader thread); beyond it a read fails at once
   * with {@code StoreUnavailableException}. Default 16384.
   */
  public int getMaxQueuedReads() {
    return maxQueuedReads;
  }

  public RocksDbStoreOptions setMaxQueuedReads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxQueuedReads must be >= 1, was " + n);
    }
    this.maxQueuedReads = n;
    return this;
  }

  /** Threads serving reads (get, list, readFirings, loadAll), {@code >= 1}. Default 2. */
  public int getReaderThreads() {
    return readerThreads;
  }

  public RocksDbStoreOptions setReaderThreads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("readerThreads must be >= 1, was " + n);
    }
    this.readerThreads = n;
    return this;
  }

  /** RocksDB {@code max_open_files}: table files kept open, {@code >= 16} or {@code -1} (unlimited). Default 512. */
  public int getMaxOpenFiles() {
    return maxOpenFiles;
  }

  public RocksDbStoreOptions setMaxOpenFiles(int n) {
    if (n != -1 && n < 16) {
      throw new IllegalArgumentException("maxOpenFiles must be -1 or >= 16, was " + n);
    }
    this.maxOpenFiles = n;
    return this;
  }

  /**
   * Bounded work of one trim call: {@code trimFirings} by age examines at most this many log entries, in writes of
   * 10,000, and {@code trimDeliveries} removes at most this many deliveries, in writes of 1,000; other writes go
   * between them, and the rest is trimmed by the next call. Default 100000.
   */
  public int getTrimMaxScan() {
    return trimMaxScan;
  }

  public RocksDbStoreOptions setTrimMaxScan(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("trimMaxScan must be >= 1, was " + n);
    }
    this.trimMaxScan = n;
    return this;
  }

  /**
   * How many of the timers the writer thread wrote last it keeps in memory, so that the next write of one of them (a
   * firing, a touch) does not read its record back from RocksDB first. Exact: only committed versions are kept.
   * About 250 bytes each plus the payload, and never more than {@link #getRecentTimersBytes}; {@code 0} disables it.
   * Default 131,072 (≈ 33 MB with short payloads).
   */
  public int getRecentTimers() {
    return recentTimers;
  }

  public RocksDbStoreOptions setRecentTimers(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("recentTimers must be >= 0, was " + n);
    }
    this.recentTimers = n;
    return this;
  }

  /**
   * The most memory, in bytes as estimated ({@code RecentTimers.weight}: 250 per timer plus two per character of
   * its id, topic, payload and callback URL), the recent timers may take; the least recently written go first.
   * Default 64 MiB (about 500 timers of 64 KiB payloads).
   */
  public long getRecentTimersBytes() {
    return recentTimersBytes;
  }

  public RocksDbStoreOptions setRecentTimersBytes(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("recentTimersBytes must be >= 0, was " + bytes);
    }
    this.recentTimersBytes = bytes;
    return this;
  }

  /**
   * The recent timers keep only a timer due at most this many milliseconds after it was written (by the system
   * clock): a heartbeat's next touch or firing comes within it, a timer due later is read back from RocksDB when its
   * time comes, long after it would have been evicted. Default 600,000 (ten minutes, the server's default window).
   */
  public long getRecentTimersHorizonMs() {
    return recentTimersHorizonMs;
  }

  public RocksDbStoreOptions setRecentTimersHorizonMs(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("recentTimersHorizonMs must be >= 0, was " + ms);
    }
    this.recentTimersHorizonMs = ms;
    return this;
  }

  @Override
  public String toString() {
    return "RocksDbStoreOptions{dataDir=" + dataDir + ", fsync=" + fsync + ", blockCacheBytes=" + blockCacheBytes
        + ", writeBufferBytes=" + writeBufferBytes + ", maxGroupOps=" + maxGroupOps + ", maxQueuedWrites="
        + maxQueuedWrites + ", maxQueuedReads=" + maxQueuedReads + ", readerThreads=" + readerThreads
        + ", maxOpenFiles=" + maxOpenFiles + ", trimMaxScan=" + trimMaxScan + ", recentTimers=" + recentTimers
        + ", recentTimersBytes=" + recentTimersBytes + ", recentTimersHorizonMs=" + recentTimersHorizonMs + '}';
  }
}
