package io.tickwheel.server.scheduler;

import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreUnavailableException;

/**
 * Why the {@link Scheduler} did not do what it was asked: every expected way a read or a write does not succeed.
 * The scheduler's futures complete <em>successfully</em> with these; a failed future means a bug. Domain terms
 * only: the HTTP edge maps each to a status and an error code, in one place. Immutable.
 */
public sealed interface Refusal extends WriteOutcome, ReadOutcome permits Refusal.NotFound, Refusal.Conflict,
    Refusal.CapacityExceeded, Refusal.TooManyPausedTopics, Refusal.Busy, Refusal.ChangedConcurrently, Refusal.Recovering,
    Refusal.StoreUnavailable, Refusal.StoreFault {

  /** There is no timer {@code id} (never was, cancelled, or ended after its last firing). */
  record NotFound(String id) implements Refusal {}

  /** A create of {@code id}, which exists already (or is repeated in the same batch). Nothing was written. */
  record Conflict(String id) implements Refusal {}

  /** A create beyond the {@code max} pending timers the server holds. Nothing was written. */
  record CapacityExceeded(long max) implements Refusal {}

  /** A topic pause beyond the {@code max} paused topics the server keeps. Nothing was written. */
  record TooManyPausedTopics(int max) implements Refusal {}

  /**
   * The write waited its lock timeout for {@code id}, held by another operation (typically the recording of its
   * firing, while the store is slow or down). Nothing was written.
   */
  record Busy(String id) implements Refusal {}

  /**
   * A touch found the store's state of {@code id} changed under it twice in a row (memory and store disagreed, and
   * the retry on the store's state was refused too). Nothing was written; a retry may succeed.
   */
  record ChangedConcurrently(String id) implements Refusal {}

  /** The server is still loading its stored timers; writes are refused until it is done. Nothing was written. */
  record Recovering() implements Refusal {}

  /**
   * The store's backend could not be reached.
   *
   * @param message        the store's description of the failure
   * @param write          whether the refused call was a write (a read changes nothing either way)
   * @param mayHaveApplied whether the write may nevertheless have been applied (a request that was sent but not
   *                       answered, {@link StoreException#mayHaveApplied()}); always {@code false} for reads
   */
  record StoreUnavailable(String message, boolean write, boolean mayHaveApplied) implements Refusal {}

  /** The store failed otherwise (a bug or corruption rather than an outage); logged where it happened. */
  record StoreFault(String message) implements Refusal {}

  /**
   * The refusal for a failed store call: {@link StoreUnavailable} when the backend is unreachable or the store closed, else
   * {@link StoreFault} (logged with its stack trace). The one place that classifies store exceptions.
   *
   * @param write whether the call was a write (only a write "may have been applied")
   */
  static Refusal ofStoreFailure(Throwable t, boolean write) {
    if (t instanceof StoreUnavailableException || t instanceof StoreClosedException) {
      // any I/O failure, and a store closed under a request during shutdown: unavailable, retry elsewhere/later
      return new StoreUnavailable(t.getMessage(), write, write && ((StoreException) t).mayHaveApplied());
    }
    System.getLogger(Refusal.class.getName()).log(System.Logger.Level.ERROR, "store call failed", t);
    return new StoreFault(t.getMessage());
  }
}
