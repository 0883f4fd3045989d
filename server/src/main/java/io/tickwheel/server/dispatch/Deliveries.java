package io.tickwheel.server.dispatch;

import io.tickwheel.core.delivery.DeliveryState;
import io.vertx.core.Future;

/**
 * What the {@code /v1/deliveries} API asks: a single node's {@link DeliveryService} ({@link #of}), or a cluster
 * node's view over every partition ({@code route.ClusterDeliveries}). Owner context only; futures never fail (a
 * store failure is an outcome).
 */
public interface Deliveries {

  /** The delivery called {@code id}: {@code Found}, {@code NotFound} (also for a text that is no id). */
  Future<DeliveryOutcome> get(String id);

  /**
   * A page in listing order from {@code cursor} (a previous page's {@code next}; {@code null}: from the start),
   * of deliveries in {@code state} (or all): {@code Listed}.
   */
  Future<DeliveryOutcome> list(DeliveryState state, String cursor, int limit);

  /** Whether {@code cursor} is one this listing could have given (checked before {@link #list}). */
  boolean validCursor(String cursor);

  /** Re-queues a dead delivery: {@code Requeued} (or a relayed answer), {@code NotFound}, {@code NotDead}, ... */
  Future<DeliveryOutcome> retry(String id);

  /**
   * The view for a call another node forwarded here: it never forwards again (a cluster node that does not serve the
   * delivery's partition answers that it cannot route it). A single node's is itself.
   */
  default Deliveries direct() {
    return this;
  }

  /** A single node's: the service's store, ids {@code msg_<seq>}, in seq order, the cursor a seq. */
  static Deliveries of(DeliveryService service) {
    return new Deliveries() {
      @Override
      public Future<DeliveryOutcome> get(String id) {
        return service.get(id);
      }

      @Override
      public Future<DeliveryOutcome> list(DeliveryState state, String cursor, int limit) {
        return service.list(state, cursor == null ? 0 : Long.parseLong(cursor), limit);
      }

      @Override
      public boolean validCursor(String c) {
        return c.length() <= 18 && c.chars().allMatch(ch -> ch >= '0' && ch <= '9') && Long.parseLong(c) >= 1;
      }

      @Override
      public Future<DeliveryOutcome> retry(String id) {
        return service.retry(id);
      }
    };
  }
}
