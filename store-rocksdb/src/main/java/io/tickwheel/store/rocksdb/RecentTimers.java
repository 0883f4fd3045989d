package io.tickwheel.store.rocksdb;

import io.tickwheel.core.model.Timer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The last {@code capacity} timers the writer thread wrote, as written (payload included), so that an operation on
 * a timer written shortly before reads it from here instead of from RocksDB. A heartbeat's firing (or its next
 * touch) comes a few seconds after the touch that wrote its record; after a minute of touches that record lives in
 * a memtable or a fresh L0 file, and the {@code multiGet} of a firing batch's records was half of the writer's time
 * (async-profiler, the first second of 100,000 firings after 60 s of touches).
 *
 * <p><b>Exact, not approximate.</b> Every write of a timer goes through a {@link WriteGroup}, which keeps the
 * group's final version of each timer it wrote (or its removal) in its overlay; {@link #groupWritten} takes that
 * overlay once the group's {@code db.write} succeeded, so an entry here is always the committed version. When a
 * group's write fails, {@link #forget} empties the cache (what RocksDB then holds is read again). Eviction drops the
 * least recently written; an id not found here is read from RocksDB as before.
 *
 * <p>Memory: about 250 bytes per timer of a short payload (the id, the {@code Timer} and the map entry), plus the
 * payload; 131,072 entries ≈ 33 MB. {@code capacity} 0 disables it.
 *
 * <p>Writer-confined, not thread safe (except {@link #hits}).
 */
final class RecentTimers {

  private final int capacity;
  private final LinkedHashMap<String, Timer> byId;
  private final LongAdder hits = new LongAdder();

  RecentTimers(int capacity) {
    this.capacity = capacity;
    this.byId = new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Timer> eldest) {
        return size() > RecentTimers.this.capacity;
      }
    };
  }

  /**
   * The committed version of {@code id} if it was written recently; else {@code null} (not known here: read
   * RocksDB). A removed timer is not known here either.
   */
  Timer get(String id) {
    if (capacity == 0) {
      return null;
    }
    Timer t = byId.get(id);
    if (t != null) {
      hits.increment();
    }
    return t;
  }

  /** Whether {@code id} is known here (not counted as a hit). */
  boolean has(String id) {
    return capacity != 0 && byId.containsKey(id);
  }

  /**
   * A group's writes were applied: {@code written} maps each timer id it wrote to its final version, or to
   * {@code removed} when the group removed it.
   */
  void groupWritten(Map<String, Timer> written, Timer removed) {
    if (capacity == 0) {
      return;
    }
    for (Map.Entry<String, Timer> e : written.entrySet()) {
      byId.remove(e.getKey());        // re-inserted last: eviction follows the order of writing
      if (e.getValue() != removed) {
        byId.put(e.getKey(), e.getValue());
      }
    }
  }

  /** A group's write failed: forget everything. */
  void forget() {
    byId.clear();
  }

  /** Look-ups answered here so far (tests, benchmarks); any thread. */
  long hits() {
    return hits.sum();
  }

  int size() {
    return byId.size();
  }
}
