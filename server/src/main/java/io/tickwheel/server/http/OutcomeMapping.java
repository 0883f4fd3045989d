package io.tickwheel.server.http;

import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;

/**
 * The one place where the scheduler's domain outcomes become HTTP: a success's status, and a {@link Refusal}'s
 * status, error code, message and field (as an {@link ApiException}, which {@link ErrorResponses} writes). Used for
 * single calls and for the items of a batch alike.
 *
 * <p>Stateless, thread safe.
 */
final class OutcomeMapping {

  private OutcomeMapping() {}

  /**
   * The status of a successful write: 201 created, 200 replaced, touched, paused, resumed, fired now or a topic
   * changed, 204 cancelled.
   */
  public static int status(WriteOutcome success) {
    if (success instanceof WriteOutcome.Created) {
      return 201;
    }
    if (success instanceof WriteOutcome.Replaced || success instanceof WriteOutcome.Touched
        || success instanceof WriteOutcome.Paused || success instanceof WriteOutcome.Resumed
        || success instanceof WriteOutcome.FiredNow || success instanceof WriteOutcome.TopicChanged) {
      return 200;
    }
    if (success instanceof WriteOutcome.Cancelled) {
      return 204;
    }
    throw new IllegalArgumentException("not a success: " + success);
  }

  /** The status of a successful read: 200. */
  public static int status(ReadOutcome success) {
    if (success instanceof ReadOutcome.Found || success instanceof ReadOutcome.Listed
        || success instanceof ReadOutcome.Topics) {
      return 200;
    }
    throw new IllegalArgumentException("not a success: " + success);
  }

  /** The status of a delivery call's success: 200 found or listed, 202 re-queued. */
  public static int status(DeliveryOutcome success) {
    if (success instanceof DeliveryOutcome.Found || success instanceof DeliveryOutcome.Listed) {
      return 200;
    }
    if (success instanceof DeliveryOutcome.Requeued) {
      return 202;
    }
    throw new IllegalArgumentException("not a success: " + success);
  }

  /** The error a delivery call's refusal is answered with: 404, 409 (not dead), 429 (full), 503 (store). */
  public static ApiException error(DeliveryOutcome r) {
    if (r instanceof DeliveryOutcome.NotFound n) {
      return ApiException.notFound("no delivery with id \"" + ErrorResponses.shorten(n.id()) + "\"");
    }
    if (r instanceof DeliveryOutcome.NotDead n) {
      return new ApiException(409, "failed_precondition", "delivery \"" + n.id() + "\" is " + n.state()
          + "; only a dead delivery can be retried", null);
    }
    if (r instanceof DeliveryOutcome.Full f) {
      return new ApiException(429, "resource_exhausted", "the server holds its maximum of " + f.max()
          + " pending deliveries; retry later", null);
    }
    if (r instanceof DeliveryOutcome.StoreFailed s) {
      return ApiException.unavailable("the store is unavailable: " + s.message());
    }
    if (r instanceof DeliveryOutcome.Remote x) {
      return new ApiException(x.status(), x.code(), x.message(), x.field()).withRetryAfter(x.retryAfter());
    }
    if (r instanceof DeliveryOutcome.Unrouted u) {
      return ApiException.unavailable("the call could not be routed to the delivery's partition owner: "
          + u.reason()).withRetryAfter(1);
    }
    throw new IllegalArgumentException("not a refusal: " + r);
  }

  /** The error a refusal is answered with. */
  public static ApiException error(Refusal r) {
    if (r instanceof Refusal.NotFound n) {
      return ApiException.notFound("no timer with id \"" + n.id() + "\"");
    }
    if (r instanceof Refusal.Conflict c) {
      return ApiException.alreadyExists(c.id());
    }
    if (r instanceof Refusal.CapacityExceeded e) {
      return ApiException.exhausted(e.max());
    }
    if (r instanceof Refusal.TooManyPausedTopics p) {
      return new ApiException(429, "resource_exhausted", "the server keeps at most " + p.max()
          + " paused topics; resume one first", "topic");
    }
    if (r instanceof Refusal.Busy b) {
      return ApiException.unavailable("timer \"" + b.id()
          + "\" is busy (its firing or an earlier write is still being confirmed by the store); the store may be slow"
          + " or down");
    }
    if (r instanceof Refusal.ChangedConcurrently c) {
      return ApiException.unavailable("timer \"" + c.id() + "\" changed concurrently; retry");
    }
    if (r instanceof Refusal.Recovering) {
      return ApiException.unavailable("the server is recovering its timers (the call was not applied); retry shortly");
    }
    if (r instanceof Refusal.StoreUnavailable u) {
      String effect = !u.write() ? ""
          : u.mayHaveApplied() ? " (the write may have been applied: read the timer before retrying)"
          : " (the write was not applied; retrying is safe)";
      return ApiException.unavailable("the store is unavailable" + effect + ": " + u.message());
    }
    if (r instanceof Refusal.NotOwner n) {
      return ApiException.unavailable("partition " + n.partition()
          + " is not served by this node (its owner changed; the call was not applied); retry shortly")
          .withRetryAfter(1);
    }
    if (r instanceof Refusal.Unrouted u) {
      String effect = u.mayHaveApplied() ? " (the write may have been applied: read the timer before retrying)"
          : " (not applied)";
      return ApiException.unavailable("the call could not be routed to its partition's owner" + effect + ": "
          + u.reason()).withRetryAfter(1);
    }
    if (r instanceof Refusal.Remote x) {
      return new ApiException(x.status(), x.code(), x.message(), x.field()).withRetryAfter(x.retryAfterSeconds());
    }
    if (r instanceof Refusal.StoreFault f) {
      return ApiException.internal("the store failed: " + f.message());
    }
    // Java 17 has no exhaustive switch over a sealed type; OutcomeMappingTest covers every permitted subclass
    throw new IllegalArgumentException("unmapped refusal: " + r);
  }
}
