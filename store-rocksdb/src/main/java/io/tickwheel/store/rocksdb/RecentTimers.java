package io.tickwheel.store.rocksdb;

import io.tickwheel.core.model.Timer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

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
 * <p><b>Only timers due soon.</b> A timer whose next due time is more than {@code horizonMs} after its write is not
 * kept (and any older version of it is dropped): its firing comes long after the entry would have been evicted, and
 * keeping it cost more than the reads it saved. Under a stream of new timers due in an hour, the entries (each
 * living a few seconds at 20k writes/s) were promoted and then collected by G1: with the cache off, server CPU per
 * WebSocket schedule fell from 49.7 to 38.6 µs (bench/wrk/commands.sh, medians of 3, a temporary build; see
 * bench/results/commands-recent-inflight-2026-11-27.txt). Heartbeat timers, due seconds to minutes after
 * their touch, are the ones kept.
 *
 * <p>Memory, bounded twice: at most {@code capacity} timers and at most {@code maxBytes} by {@link #weight} (about 250
 * bytes per timer for the id, the {@code Timer} and the map entry, plus two bytes per character of id, topic, payload
 * and callback URL, plus 1 KiB for a calendar or callback). Defaults 131,072 and 64 MiB: short payloads fill the
 * count first (≈ 33 MB), 64 KiB payloads the bytes (≈ 500 timers). {@code capacity} 0 disables it.
 *
 * <p>Writer-confined, not thread safe (except {@link #hits}).
 */
final class RecentTimers {

  /** Bytes counted per entry besides its strings: the map entry, the key and Timer objects, their headers. */
  static final int ENTRY_OVERHEAD = 250;
  /** Bytes counted for a timer's extras: its parsed calendar (the cron's fields and zone) and callback objects. */
  static final int EXTRAS_OVERHEAD = 1024;

  private final int capacity;
  private final long maxBytes;
  private final long horizonMs;
  private final LongSupplier clock;
  private final LinkedHashMap<String, Timer> byId;
  private long bytes;
  private final LongAdder hits = new LongAdder();

  /** Keeps timers whatever their due time. */
  RecentTimers(int capacity, long maxBytes) {
    this(capacity, maxBytes, Long.MAX_VALUE, System::currentTimeMillis);
  }

  /**
   * @param horizonMs a timer due more than this many milliseconds after {@code clock}'s time of its write is not kept
   * @param clock     epoch milliseconds, read once per {@link #groupWritten} that has a timer to place
   */
  RecentTimers(int capacity, long maxBytes, long horizonMs, LongSupplier clock) {
    this.capacity = capacity;
    this.maxBytes = maxBytes;
    this.horizonMs = horizonMs;
    this.clock = clock;
    this.byId = new LinkedHashMap<>(16, 0.75f, false);
  }

  /**
   * The bytes {@code t} is counted for: {@link #ENTRY_OVERHEAD}, two per character of its id, topic, payload and
   * callback URL, and {@link #EXTRAS_OVERHEAD} when it has extras (a calendar, an end, a callback).
   */
  static long weight(Timer t) {
    Timer.Extras x = t.extras();
    long chars = t.id().length() + t.topic().length() + (t.payload() == null ? 0 : t.payload().length())
        + (x == null || x.callback() == null ? 0 : x.callback().url().length());
    return ENTRY_OVERHEAD + 2 * chars + (x == null ? 0 : EXTRAS_OVERHEAD);
  }

  /**
   * The committed version of {@code id} if it was written recently; else {@code null} (not known here: read
   * RocksDB). A removed timer is not known here either.
   */
  Timer get(String id) {
    Timer t = byId.get(id);
    if (t != null) {
      hits.increment();
    }
    return t;
  }

  /** Whether {@code id} is known here (not counted as a hit). */
  boolean has(String id) {
    return byId.containsKey(id);
  }

  /**
   * A group's writes were applied: {@code written} maps each timer id it wrote to its final version, or to
   * {@code removed} when the group removed it. Disabled ({@code capacity} 0), keeps nothing.
   */
  void groupWritten(Map<String, Timer> written, Timer removed) {
    if (capacity == 0) {
      return;                         // nothing is kept, so get and has find nothing
    }
    long now = horizonMs == Long.MAX_VALUE || written.isEmpty() ? 0 : clock.getAsLong();
    for (Map.Entry<String, Timer> e : written.entrySet()) {
      Timer old = byId.remove(e.getKey());  // re-inserted last: eviction follows the order of writing
      if (old != null) {
        bytes -= weight(old);
      }
      Timer t = e.getValue();
      if (t == removed || (horizonMs != Long.MAX_VALUE && t.nextDueAt() - now > horizonMs)) {
        continue;
      }
      long w = weight(t);
      if (w <= maxBytes) {
        byId.put(e.getKey(), t);
        bytes += w;
      }
    }
    var eldest = byId.values().iterator();
    while ((byId.size() > capacity || bytes > maxBytes) && eldest.hasNext()) {
      bytes -= weight(eldest.next());
      eldest.remove();
    }
  }

  /** A group's write failed: forget everything. */
  void forget() {
    byId.clear();
    bytes = 0;
  }

  /** Look-ups answered here so far (tests, benchmarks); any thread. */
  long hits() {
    return hits.sum();
  }

  int size() {
    return byId.size();
  }

  /** The bytes the kept timers are counted for ({@link #weight}). */
  long bytes() {
    return bytes;
  }
}
