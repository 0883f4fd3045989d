package io.tickwheel.server.scheduler;

import io.tickwheel.core.coordination.StoreFencedException;
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
    Refusal.StoreUnavailable, Refusal.StoreFault, Refusal.NotOwner, Refusal.Unrouted, Refusal.Remote {

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
   * firing, while the store is slow or down), or found it held by the read-back of an earlier write the store has not
   * answered (the store is down; answered at once). Nothing was written.
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
   * This node does not serve partition {@code partition} (any more): a call forwarded to it by another node, or a
   * write its store refused as fenced (the lease moved). Nothing was written; the caller retries shortly (the
   * routing node learns the new owner), never forwards again.
   */
  record NotOwner(int partition) implements Refusal {}

  /**
   * A call this node had to forward to the partition's owner could not be routed: no live node holds the partition
   * (between a node's death and the take-over), this node has its cap of forwarded calls in flight, the owner could
   * not be reached, or it did not answer in time. Whether a write was applied is {@code mayHaveApplied} (a request
   * that was sent but not answered may have been).
   *
   * @param reason what happened, for the error message
   */
  record Unrouted(String reason, boolean mayHaveApplied) implements Refusal {}

  /**
   * The owner of the partition refused a forwarded call with a refusal this node has no exact domain form for (e.g.
   * its capacity or store refusals): carried verbatim so the answer is the owner's, whichever node is asked.
   *
   * @param status            the owner's HTTP status (4xx/5xx)
   * @param code              its error code
   * @param message           its error message
   * @param field             its error field, or {@code null}
   * @param retryAfterSeconds its {@code Retry-After}, or 0
   */
  record Remote(int status, String code, String message, String field, int retryAfterSeconds) implements Refusal {}

  /**
   * The refusal for a failed store call: {@link StoreUnavailable} when the backend is unreachable or the store closed, else
   * {@link StoreFault} (logged with its stack trace). The one place that classifies store exceptions.
   *
   * @param write whether the call was a write (only a write "may have been applied")
   */
  public static Refusal ofStoreFailure(Throwable t, boolean write) {
    if (t instanceof StoreFencedException f) {
      return new NotOwner(f.partition());         // the lease moved: nothing applied, the new owner serves it
    }
    if (t instanceof StoreUnavailableException || t instanceof StoreClosedException) {
      // any I/O failure, and a store closed under a request during shutdown: unavailable, retry elsewhere/later
      return new StoreUnavailable(t.getMessage(), write, write && ((StoreException) t).mayHaveApplied());
    }
    System.getLogger(Refusal.class.getName()).log(System.Logger.Level.ERROR, "store call failed", t);
    return new StoreFault(t.getMessage());
  }
}
