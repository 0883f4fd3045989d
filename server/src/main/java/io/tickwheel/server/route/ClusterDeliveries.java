package io.tickwheel.server.route;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.cluster.PartitionOwners;
import io.tickwheel.server.dispatch.Deliveries;
import io.tickwheel.server.dispatch.DeliveryLane;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.dispatch.DeliveryService;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A cluster node's {@code /v1/deliveries}: every partition's deliveries, whoever delivers them. Ids are
 * {@code msg_<partition>_<seq>}.
 * <ul>
 *   <li>Reads (get, list) read the partitions' stores directly (any node can read any partition), so they need no
 *       hop and answer alike on every node. A listing goes in partition order, then firing order within a partition;
 *       its cursor {@code <partition>_<seq>} names the last delivery given.</li>
 *   <li>A retry changes the delivery and schedules its attempts, which only the partition's owner does: a partition
 *       this node serves → its lane of the node's {@link DeliveryService}; another → forwarded to its owner
 *       ({@link InternalCall.RetryDelivery}), whose outcome is this node's; a forwarded one for a partition this node no longer serves → not routed (503, Retry-After),
 *       never forwarded again.</li>
 * </ul>
 * Owner context only (the node's event loop); futures never fail.
 */
public final class ClusterDeliveries implements Deliveries {

  private final PartitionOwners owners;
  private final IntFunction<TimerStore> reader;
  private final IntFunction<DeliveryLane> lanes;
  private final DeliveryService service;
  private final Forwarder forwarder;
  private final boolean direct;

  /**
   * @param reader partition {@code p}'s store for reading
   * @param lanes  partition {@code p}'s delivery lane while this node serves it, else {@code null}
   */
  public ClusterDeliveries(PartitionOwners owners, IntFunction<TimerStore> reader, IntFunction<DeliveryLane> lanes,
      DeliveryService service, Forwarder forwarder) {
    this(owners, reader, lanes, service, forwarder, false);
  }

  private ClusterDeliveries(PartitionOwners owners, IntFunction<TimerStore> reader, IntFunction<DeliveryLane> lanes,
      DeliveryService service, Forwarder forwarder, boolean direct) {
    this.owners = owners;
    this.reader = reader;
    this.lanes = lanes;
    this.service = service;
    this.forwarder = forwarder;
    this.direct = direct;
  }

  @Override
  public Deliveries direct() {
    return direct ? this : new ClusterDeliveries(owners, reader, lanes, service, forwarder, true);
  }

  private int partitionOf(String id) {
    int p = Delivery.partitionOf(id);
    return p < owners.partitions() ? p : -1;
  }

  @Override
  public Future<DeliveryOutcome> get(String id) {
    int p = partitionOf(id);
    if (p < 0) {
      return Future.succeededFuture(new DeliveryOutcome.NotFound(id));
    }
    return reader.apply(p).getDelivery(Delivery.seqInPartitionOf(id))
        .<DeliveryOutcome>map(d -> d == null ? new DeliveryOutcome.NotFound(id) : new DeliveryOutcome.Found(d, id))
        .otherwise(e -> new DeliveryOutcome.StoreFailed(String.valueOf(e.getMessage())));
  }

  @Override
  public boolean validCursor(String cursor) {
    return partitionOf("msg_" + cursor) >= 0;
  }

  @Override
  public Future<DeliveryOutcome> list(DeliveryState state, String cursor, int limit) {
    int p = cursor == null ? 0 : partitionOf("msg_" + cursor);
    long after = cursor == null ? 0 : Delivery.seqInPartitionOf("msg_" + cursor);
    return page(state, p, after, limit, new ArrayList<>(), new ArrayList<>())
        .otherwise(e -> new DeliveryOutcome.StoreFailed(String.valueOf(e.getMessage())));
  }

  /** Fills a page from partition {@code p} on (one store read per partition, in turn). */
  private Future<DeliveryOutcome> page(DeliveryState state, int p, long after, int limit, List<Delivery> got,
      List<String> ids) {
    if (p >= owners.partitions()) {
      return Future.succeededFuture(new DeliveryOutcome.Listed(got, ids, null));
    }
    return reader.apply(p).listDeliveries(state, after, limit - got.size()).compose(page -> {
      for (Delivery d : page.items()) {
        got.add(d);
        ids.add(Delivery.idOf(p, d.seq()));
      }
      if (got.size() >= limit) {
        Delivery last = got.get(got.size() - 1);
        boolean more = page.nextAfter() >= 0 || p + 1 < owners.partitions();
        return Future.succeededFuture(new DeliveryOutcome.Listed(got, ids, more ? p + "_" + last.seq() : null));
      }
      return page(state, p + 1, 0, limit, got, ids);
    });
  }

  @Override
  public Future<DeliveryOutcome> retry(String id) {
    int p = partitionOf(id);
    if (p < 0) {
      return Future.succeededFuture(new DeliveryOutcome.NotFound(id));
    }
    DeliveryLane lane = lanes.apply(p);
    if (lane != null) {
      return service.retry(lane, Delivery.seqInPartitionOf(id));
    }
    String owner = owners.ownerAddress(p);
    if (direct || owner == null || owners.local(p) != null) {
      return Future.succeededFuture(new DeliveryOutcome.Unrouted(direct
          ? "partition " + p + " is not served by this node (its owner changed); retry shortly"
          : "no live node holds partition " + p + " now (a take-over is under way)"));
    }
    InternalCall call = new InternalCall.RetryDelivery(id);
    return forwarder.send(owner, InternalCodec.encode(call)).transform(ar ->
        Future.succeededFuture(ar.failed() ? new DeliveryOutcome.Unrouted(ar.cause().getMessage())
            : outcome(call, ar.result())));
  }

  /** The owner's outcome of a forwarded retry: its own, or its refusal of the whole call. */
  private static DeliveryOutcome outcome(InternalCall call, Forwarder.Answer a) {
    try {
      InternalAnswer got = InternalCodec.answer(call, a);
      if (got instanceof InternalAnswer.Refused r) {
        return new DeliveryOutcome.Remote(r.status(), r.code(), r.message(), r.field(), r.retryAfter());
      }
      return ((InternalAnswer.Delivery) got).outcome();
    } catch (RuntimeException e) {
      return new DeliveryOutcome.Remote(502, "unavailable", "the partition's owner gave an answer this node cannot"
          + " read (HTTP " + a.status() + "): " + e.getMessage(), null, 1);
    }
  }
}
