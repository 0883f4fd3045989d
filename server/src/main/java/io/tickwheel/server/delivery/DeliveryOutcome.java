package io.tickwheel.server.delivery;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.store.DeliveryPage;

/** What a delivery API call came to: the HTTP edge ({@code http/OutcomeMapping}) maps it to a status. */
public sealed interface DeliveryOutcome {

  /** One delivery. */
  record Found(Delivery delivery) implements DeliveryOutcome {}

  /** A page of them. */
  record Listed(DeliveryPage page) implements DeliveryOutcome {}

  /** A dead delivery re-queued: pending again, same id. */
  record Requeued(Delivery delivery) implements DeliveryOutcome {}

  /** No delivery with this id (never, or trimmed). */
  record NotFound(String id) implements DeliveryOutcome {}

  /** Only a dead delivery can be re-queued. */
  record NotDead(String id, String state) implements DeliveryOutcome {}

  /** As many deliveries are pending as the server holds: retry later. */
  record Full(int max) implements DeliveryOutcome {}

  /** The store failed or cannot be reached. */
  record StoreFailed(String message) implements DeliveryOutcome {}
}
