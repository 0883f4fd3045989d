package io.tickwheel.server.dispatch;

import java.util.List;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.store.DeliveryPage;

/** What a delivery API call came to: the HTTP edge ({@code http/OutcomeMapping}) maps it to a status. */
public sealed interface DeliveryOutcome {

  /** One delivery, called {@code id} ({@code msg_<seq>}, or {@code msg_<partition>_<seq>} in a cluster). */
  record Found(Delivery delivery, String id) implements DeliveryOutcome {
    public Found(Delivery delivery) {
      this(delivery, delivery.id());
    }
  }

  /**
   * A page of them: the deliveries with their ids, and the cursor of the next page ({@code null} on the last).
   */
  record Listed(List<Delivery> deliveries, List<String> ids, String next) implements DeliveryOutcome {
    /** A single node's page: ids {@code msg_<seq>}, the cursor the next seq to list after. */
    public Listed(DeliveryPage page) {
      this(page.items(), page.items().stream().map(Delivery::id).toList(),
          page.nextAfter() < 0 ? null : Long.toString(page.nextAfter()));
    }
  }

  /** A dead delivery re-queued: pending again, same id. */
  record Requeued(Delivery delivery, String id) implements DeliveryOutcome {
    public Requeued(Delivery delivery) {
      this(delivery, delivery.id());
    }
  }

  /**
   * The partition owner's refusal of a forwarded call as a whole (a cluster node forwards a retry to the owner, which
   * alone holds the delivery's attempts): its status, error code, message, field ({@code null} for none) and
   * {@code Retry-After} seconds (0 for none), answered as they are.
   */
  record Remote(int status, String code, String message, String field, int retryAfter) implements DeliveryOutcome {}

  /** The call could not reach the node that serves the delivery's partition (a take-over, a timeout). */
  record Unrouted(String reason) implements DeliveryOutcome {}

  /** No delivery with this id (never, or trimmed). */
  record NotFound(String id) implements DeliveryOutcome {}

  /** Only a dead delivery can be re-queued. */
  record NotDead(String id, String state) implements DeliveryOutcome {}

  /** As many deliveries are pending as the server holds: retry later. */
  record Full(int max) implements DeliveryOutcome {}

  /** The store failed or cannot be reached. */
  record StoreFailed(String message) implements DeliveryOutcome {}
}
