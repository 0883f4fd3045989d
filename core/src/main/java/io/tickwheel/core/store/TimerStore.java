package io.tickwheel.core.store;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;

/**
 * Where accepted timers and the firing log are kept durably. Implemented by the in-memory, RocksDB and
 * Redis stores; every implementation passes the contract suite ({@code TimerStoreContract} in core's test-jar).
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Asynchronous, never blocking the caller.</b> Every method returns at once; blocking work
 *       (JNI, disk) runs on the store's own threads, network I/O on the async client.</li>
 *   <li><b>Context.</b> When called on a Vert.x context (the server's event loop), the returned future
 *       completes on that same context.</li>
 *   <li><b>Durability.</b> A successful write future means the write is durable as far as the store's
 *       configuration promises (RocksDB: WAL written, fsynced with {@code --fsync}; Redis: as its AOF settings).
 *       A failed write may or may not have been applied: {@link StoreException#mayHaveApplied()} says which.</li>
 *   <li><b>Atomicity.</b> Each write call is atomic: all of it or nothing ({@link #putAll} included); each
 *       {@link FiringRequest} of {@link #recordFirings} is atomic on its own (firing appended and timer advanced
 *       or removed together).</li>
 *   <li><b>Order.</b> Calls made from one thread are applied in the order they were made.</li>
 *   <li><b>Sequence.</b> Firing {@code seq} is one strictly increasing sequence per store, starting at 1,
 *       without gaps, surviving restarts and trimming.</li>
 *   <li><b>Failures.</b> A failed future holds a {@link StoreException}: {@link StoreUnavailableException} when
 *       the backend cannot be used now (unreachable, connection lost, timeout, full queue, any I/O failure; the
 *       server answers 503), {@link StoreClosedException} after {@link #close()}, {@link StoreFaultException} when
 *       the store answered but something is wrong (corrupt record, script error). Only arguments that break a
 *       method's stated preconditions fail otherwise ({@link IllegalArgumentException},
 *       {@link NullPointerException}), as does a {@link #loadAll} sink's own failure, which is passed on.</li>
 *   <li><b>Keys.</b> Everything about one timer is keyed by its id, so a partitioned store can route every call
 *       about one timer to one partition.</li>
 * </ul>
 * Implementations are thread safe.
 */
public interface TimerStore {

  /** A short name for logs and metrics: {@code memory}, {@code rocksdb}, {@code redis}. */
  String name();

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

  /** The stored timer with payload, or {@code null}. */
  Future<Timer> get(String id);

  /** Removes a timer; returns whether it existed. */
  Future<Boolean> remove(String id);

  /**
   * Settles due timers: for each request, atomically append its firing to the log (when it fires) and
   * advance or remove its timer, if it is not stale (see {@link FiringRequest}). A store may group-commit
   * the whole list in one write.
   *
   * @return one result per request, in order; applied firings get consecutive increasing seqs in list order
   */
  Future<List<FiringResult>> recordFirings(List<FiringRequest> requests);

  /**
   * Streams every stored timer (with payload) to {@code sink}, in batches of at most {@code batchSize},
   * waiting for the future {@code sink} returns before reading the next batch (no giant list in memory).
   * Used at recovery; not atomic with concurrent writes.
   *
   * @return the number of timers streamed
   */
  Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink);

  /**
   * A page of timers ordered by {@code nextDueAt} then id, strictly after {@code after} (or from the start),
   * of at most {@code limit}, only those of {@code topic} if not {@code null}.
   */
  Future<TimerPage> list(String topic, TimerCursor after, int limit);

  /** Retained firings with {@code seq > afterSeq}, ascending, at most {@code limit}. */
  Future<List<Firing>> readFirings(long afterSeq, int limit);

  /** The seq of the latest firing ever recorded (retained or trimmed), {@code 0} if none. */
  Future<Long> lastSeq();

  /**
   * Trims the firing log to {@code retention} as of {@code nowMs}; the newest firing is always kept.
   *
   * @return how many firings were removed
   */
  Future<Long> trimFirings(Retention retention, long nowMs);

  /** Flushes and releases everything; the store is unusable afterwards. Idempotent. */
  Future<Void> close();

  /**
   * Marks {@code topic} paused or resumed (no timer of a paused topic fires; see the contract's "Calendars"). The
   * store only keeps the set of paused topics: what pausing means is the server's business. Durable like a timer
   * write (a successful future survives a restart as {@link #put} does), ordered with the caller's other writes,
   * completing on the caller's context; idempotent (pausing a paused topic, or resuming one that is not paused,
   * changes nothing and succeeds). Failures as for every write.
   *
   * @param topic a topic name as the API admits it ({@code [A-Za-z0-9._-]{1,100}}); the store does not check
   *              whether any timer has it
   */
  Future<Void> setTopicPaused(String topic, boolean paused);

  /**
   * The topics currently paused (see {@link #setTopicPaused}), as a new set the caller may keep; empty when none.
   * A read: it sees every {@code setTopicPaused} called before it from the same thread.
   */
  Future<java.util.Set<String>> pausedTopics();


  // ------------------------------------------------------------------ callback deliveries

  /**
   * The delivery of the firing {@code seq} (its id is {@code Delivery.idOf(seq)}), or {@code null} when there is none
   * (never created, or trimmed). Created only by {@link #recordFirings} (a request with a callback), atomically with
   * its firing.
   */
  Future<Delivery> getDelivery(long seq);

  /**
   * A page of deliveries in seq order, strictly after {@code afterSeq} ({@code 0}: from the start), at most
   * {@code limit}, only those in {@code state} if not {@code null}.
   */
  Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit);

  /**
   * Replaces the stored delivery {@code d.seq()} with {@code d} (after an attempt or a postponement), whatever its
   * state: {@link #updateDelivery(Delivery, DeliveryState)} expecting no state.
   *
   * @return whether it was stored (and is now replaced)
   */
  default Future<Boolean> updateDelivery(Delivery d) {
    return updateDelivery(d, null);
  }

  /**
   * Replaces the stored delivery {@code d.seq()} with {@code d} if the stored one is in state {@code expected}:
   * a compare-and-set on the state, atomic with the replacement, so of concurrent calls that expect the state the
   * stored record is in, exactly one succeeds (a re-queue of a dead delivery expects {@link DeliveryState#DEAD}).
   * Durable and ordered like every write. A delivery that is not stored (trimmed, never created) is not created.
   *
   * @param expected the state the stored delivery must be in, or {@code null}: any
   * @return whether it was stored in that state (and is now replaced); {@code false} changes nothing
   */
  Future<Boolean> updateDelivery(Delivery d, DeliveryState expected);

  /**
   * Streams every {@link DeliveryState#PENDING} delivery to {@code sink} in batches of at most {@code batchSize},
   * waiting for the future {@code sink} returns before the next batch. Used at recovery.
   *
   * @return how many were streamed
   */
  Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink);

  /**
   * Removes finished deliveries (succeeded or dead; pending ones are never removed) beyond {@code retention}:
   * the oldest (by seq) above {@code maxCount} finished ones, and those last changed before
   * {@code nowMs - maxAgeMs}. Bounded work per call: a store may stop after some thousands and finish on a later
   * call. This is the cap of the delivery records: their number stays about {@code maxCount} plus the pending ones.
   *
   * @return how many were removed
   */
  Future<Long> trimDeliveries(Retention retention, long nowMs);

  /** The number of deliveries in {@code state} now stored. */
  Future<Long> countDeliveries(DeliveryState state);

  /**
   * The webhook secret this store keeps (the key callbacks are signed with, {@code whsec_…}): when the store holds
   * none yet it stores {@code generatedIfAbsent}; either way it answers the one it holds. Set-if-absent is atomic, so
   * servers starting together on one store (a cluster on one Redis) all end up with the same secret, and it survives
   * restarts as a timer write does. The store does not read the text; it keeps it as given.
   *
   * <p>The default implementation fails with {@link StoreFaultException}: a store without a place for it cannot
   * serve callbacks. The memory, RocksDB and Redis stores implement it.
   *
   * @param generatedIfAbsent the secret to keep when there is none, non-null
   * @return the secret kept (the one already stored, or {@code generatedIfAbsent})
   */
  default Future<String> webhookSecret(String generatedIfAbsent) {
    return Future.failedFuture(new StoreFaultException("the " + name() + " store keeps no webhook secret", null,
        false));
  }

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
