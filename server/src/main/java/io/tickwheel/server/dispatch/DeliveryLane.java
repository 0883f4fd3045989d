package io.tickwheel.server.dispatch;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.store.DeliveryTable;
import java.util.function.BooleanSupplier;

/**
 * Where a delivery's record lives and what its id is: a single node's one store ({@code msg_<seq>}), or, in a
 * cluster, the fenced store of one partition under one lease ({@code msg_<partition>_<seq>}), live while this node
 * still serves that partition under that lease. A {@link DeliveryService} holds deliveries of many lanes (one per
 * partition a cluster node serves) behind one set of host queues, breakers and connections.
 *
 * @param partition the partition, or -1 on a single node
 * @param store     where the lane's deliveries are recorded (a partition's store refuses writes once its lease is lost)
 * @param live      whether this node still serves the lane (always true on a single node); read on the owner context
 */
public record DeliveryLane(int partition, DeliveryTable store, BooleanSupplier live) {

  /** A single node's lane: its store, ids {@code msg_<seq>}, always live. */
  public static DeliveryLane single(DeliveryTable store) {
    return new DeliveryLane(-1, store, () -> true);
  }

  /** The id (and {@code webhook-id}) of the delivery of firing {@code seq} in this lane. */
  public String idOf(long seq) {
    return partition < 0 ? Delivery.idOf(seq) : Delivery.idOf(partition, seq);
  }

  /** The id of {@code d} in this lane. */
  public String idOf(Delivery d) {
    return idOf(d.seq());
  }
}
