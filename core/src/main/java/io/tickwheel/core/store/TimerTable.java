package io.tickwheel.core.store;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;

/**
 * The timers part of a store: accepted timers with their payloads, by id, and the due-time order they are listed
 * and recovered in. Everything about one timer is keyed by its id.
 *
 * <p>Follows the contract common to every part ({@link TimerStore}): asynchronous, completing on the caller's
 * context, each write atomic and durable as the store promises, calls from one thread applied in order, failures as
 * {@link StoreException}s. Times are epoch milliseconds. Implementations are thread safe. The firing of due timers is
 * the {@link FiringLog}'s: it advances or removes timers atomically with its log entries, so both parts of one store
 * share one dataset. Contract suite: {@code TimerTableContract} in core's test-jar.
 */
public interface TimerTable {

  /**
   * Whether this store keeps the very {@link Timer} objects it is given, payload included, on the Java heap (the
   * memory store). The server then puts the same object in its wheel instead of a payload-less copy: the payload is
   * held anyway, and one object less per pending timer is about 90 bytes of heap and one allocation less per write.
   * Callers must not assume it: the default is {@code false}.
   */
  default boolean keepsTimersOnHeap() {
    return false;
  }

  /** Creates or replaces the timer with {@code t.id()}, payload included. */
  Future<Void> put(Timer t);

  /** Creates or replaces all these timers in one atomic write (ids are distinct). */
  Future<Void> putAll(List<Timer> timers);

  /**
   * Creates timers whose ids the caller knows are not stored: it checked, and holds every id against other
   * writes until the returned future completes (the server's create path). Same atomicity and durability as
   * {@link #putAll}; the default is {@code putAll}. A store may use the promise to skip reading old versions
   * (RocksDB does: it is most of the cost of a batch). If an id is stored after all (a caller bug), its record is
   * replaced as by {@code putAll}, but the old version's index entries may stay behind: the store must never show
   * them ({@link #list} skips an entry that disagrees with its record), and they cost only space.
   */
  default Future<Void> createAll(List<Timer> timers) {
    return putAll(timers);
  }

  /**
   * Replaces the schedule of a stored timer, keeping its stored payload ({@code next}'s payload is ignored),
   * only if its stored generation is {@code expectedGeneration}. Used by touch: one round trip answers with the
   * payload, no {@link #get} needed.
   *
   * @return the timer as now stored: {@code next} with the stored payload; or {@code null} when nothing was
   *     changed because no timer has {@code next.id()} or its stored generation is not {@code expectedGeneration}
   */
  Future<Timer> update(Timer next, long expectedGeneration);

  /**
   * {@link #update} for many timers in one atomic write (the batch touch, and touches coalesced from one event-loop
   * turn): each item is applied, or not, on its own condition exactly as {@link #update} would, but the whole call
   * is one write as far as atomicity and durability go, and one round trip.
   *
   * @param next                the new schedules; ids are distinct (else {@link IllegalArgumentException})
   * @param expectedGenerations per item of {@code next}, the stored generation it is conditional on (same length)
   * @return one element per item, in order: the timer as now stored ({@code next[i]} with the stored payload), or
   *     {@code null} when item {@code i} changed nothing (no such timer, or another generation)
   */
  Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations);

  /** The stored timer with payload, or {@code null}. */
  Future<Timer> get(String id);

  /** Removes a timer; returns whether it existed. */
  Future<Boolean> remove(String id);

  /**
   * A page of timers ordered by {@code nextDueAt} then id, strictly after {@code after} (or from the start),
   * of at most {@code limit}, only those of {@code topic} if not {@code null}.
   */
  Future<TimerPage> list(String topic, TimerCursor after, int limit);

  /**
   * Streams every stored timer (with payload) to {@code sink}, in batches of at most {@code batchSize},
   * waiting for the future {@code sink} returns before reading the next batch (no giant list in memory).
   * Used at recovery; not atomic with concurrent writes. A failure of the sink's own is passed on as it is.
   *
   * @return the number of timers streamed
   */
  Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink);

  /**
   * Checks {@link #updateAll}'s preconditions: as many generations as timers, distinct ids. For implementations.
   *
   * @throws IllegalArgumentException naming the first broken one
   */
  static void checkUpdateAll(List<Timer> next, long[] expectedGenerations) {
    if (next.size() != expectedGenerations.length) {
      throw new IllegalArgumentException("updateAll: " + next.size() + " timers but " + expectedGenerations.length
          + " expected generations");
    }
    HashSet<String> ids = new HashSet<>(next.size() * 2);
    for (Timer t : next) {
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("updateAll: id \"" + t.id() + "\" is repeated");
      }
    }
  }
}
