package io.tickwheel.core.store;

import io.vertx.core.Future;

/**
 * The stored timers by due time, and how many there are: what a scheduler needs to keep only the timers due soon in
 * memory and leave the later ones in the store, reading them back as their time comes. Implemented by the memory,
 * RocksDB and Redis stores beside {@link TimerStore}; every implementation passes {@code DueIndexContract} (core's
 * test-jar). Same threading, context and failure rules as {@link TimerStore}; thread safe.
 */
public interface DueIndex {

  /** Most timers one {@link #dueBetween} call answers. */
  int MAX_DUE_LIMIT = 10_000;

  /**
   * A page of the stored timers with {@code fromMs <= nextDueAt < toMs}, ordered by {@code nextDueAt} then id,
   * strictly after {@code after} (a cursor of this order, or {@code null}: from {@code fromMs}), at most
   * {@code limit}, payloads included. The work per call is bounded by {@code limit}; a page may be shorter than
   * {@code limit} while more remain.
   *
   * <p>Not a snapshot across pages, and not atomic with writes made meanwhile: a timer written while the range is
   * being read may be missed, or answered in the state it had before that write. A caller that keeps what it reads
   * must order the reads with its own writes (a timer it wrote after the read started is its own to place) and rely
   * on the generation check of {@link TimerStore#recordFirings} for the rest.
   *
   * @param fromMs inclusive lower bound of {@code nextDueAt}, epoch ms
   * @param toMs   exclusive upper bound of {@code nextDueAt}, epoch ms; {@code toMs <= fromMs} is an empty range
   * @param after  continue after this position, or {@code null}
   * @param limit  in [1, {@value #MAX_DUE_LIMIT}], else {@link IllegalArgumentException} (a failed future)
   * @return the timers, and in {@code next} the cursor to continue from when the range may hold more; {@code null}
   *     when it is exhausted
   */
  Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int limit);

  /**
   * The number of timers stored now, exact, without reading them (a counter the store keeps in step with its writes,
   * or an O(1) size). Ordered after the caller's earlier writes, as any read.
   */
  Future<Long> timerCount();

  /**
   * The stored timers per topic, exact, without reading them (counts the store keeps in step with its writes, in the
   * same atomic write as the timers): the topics with at least one stored timer, ordered by name
   * ({@link String#compareTo}; byte order for the ASCII names the API admits), strictly after {@code after}
   * ({@code null}: from the first), at most {@code limit}. Ordered after the caller's earlier writes, as any read.
   * The work per call is bounded by {@code limit}.
   *
   * @param limit in [1, {@value #MAX_DUE_LIMIT}], else {@link IllegalArgumentException} (a failed future)
   */
  Future<java.util.List<TopicCount>> topicCounts(String after, int limit);

  /** The stored timers of {@code topic}, exact (0 when none), as {@link #topicCounts}. */
  Future<Long> topicCount(String topic);

  /**
   * The stored timers that are paused ({@link io.tickwheel.core.model.Timer#paused()}), exact, without reading them
   * (a counter the store keeps in step with its writes). Ordered after the caller's earlier writes, as any read.
   */
  Future<Long> pausedCount();

  /**
   * Which of {@code ids} are stored now, in one read (a create checks that its ids are not far timers). Unlike the
   * other reads it need not wait for the caller's writes in flight: an id one of them creates or removes may be
   * answered either way (a caller keeps such ids from being checked: it holds them until their write completes). It
   * sees every write completed before it was called.
   *
   * @param ids at most {@value #MAX_DUE_LIMIT}, else {@link IllegalArgumentException} (a failed future)
   * @return a new set, the caller's to keep
   */
  Future<java.util.Set<String>> storedIds(java.util.List<String> ids);

  /**
   * Creates those of {@code timers} whose ids are not stored, and leaves the stored ones as they are, in one atomic
   * write: the create of a caller that keeps only some timers in memory (an id it does not hold may be a far timer,
   * which a create must not replace), in one round trip rather than {@link #storedIds} and then
   * {@link TimerStore#createAll}. A write as any other: ordered after the caller's earlier writes and before its later
   * ones ({@link TimerStore}, "Order"), and a failure may have applied as theirs may
   * ({@link StoreException#mayHaveApplied()}).
   *
   * @param timers distinct ids, at most {@value #MAX_DUE_LIMIT}, else {@link IllegalArgumentException} (a failed
   *               future, nothing written)
   * @return the ids of {@code timers} that were stored already (those were not written); a new set, the caller's
   */
  Future<java.util.Set<String>> createAbsent(java.util.List<io.tickwheel.core.model.Timer> timers);

  /** Checks {@link #createAbsent}'s argument; for implementations. */
  static void checkCreateAbsent(java.util.List<io.tickwheel.core.model.Timer> timers) {
    if (timers.size() > MAX_DUE_LIMIT) {
      throw new IllegalArgumentException("at most " + MAX_DUE_LIMIT + " timers, was " + timers.size());
    }
    if (timers.size() < 2) {
      return;
    }
    java.util.Set<String> ids = new java.util.HashSet<>(timers.size() * 2);
    for (io.tickwheel.core.model.Timer t : timers) {
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("timers hold id " + t.id() + " twice");
      }
    }
  }

  /**
   * Whether this object answers {@link #dueBetween}, the counts, {@link #storedIds} and {@link #createAbsent}: {@code true} for a store; a wrapper of
   * any store (metrics, fencing) implements this interface and answers whether the store it wraps does.
   */
  default boolean dueIndexAvailable() {
    return true;
  }

  /** Checks {@link #dueBetween}'s {@code limit}; for implementations. */
  static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_DUE_LIMIT) {
      throw new IllegalArgumentException("limit must be in [1, " + MAX_DUE_LIMIT + "], was " + limit);
    }
  }
}
