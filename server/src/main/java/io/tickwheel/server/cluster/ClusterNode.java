package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This node's part in a cluster: it joins (the coordinator checks the partition count and that no single node uses
 * the store), keeps its leases with a {@link LeaseKeeper}, answers who serves which partition
 * ({@link PartitionOwners}) and what {@code GET /v1/cluster} shows, and on SIGTERM hands its partitions over.
 *
 * <p>Owner context only (not thread safe), like the keeper.
 */
public final class ClusterNode implements Ownership {

  private final ClusterCoordinator coord;
  private final LeaseKeeper keeper;
  private boolean joined;

  public ClusterNode(ClusterCoordinator coord, LeaseKeeper keeper) {
    this.coord = coord;
    this.keeper = keeper;
  }

  /**
   * Joins the cluster, becomes the member with its node id ({@link LeaseKeeper#claim()}) and starts keeping leases.
   * Fails with {@link io.tickwheel.core.coordination.ClusterConfigException} when the store belongs to a single node or to
   * a cluster with another partition count, or ({@link io.tickwheel.core.coordination.NodeIdInUseException}) when another
   * live process runs with the same node id.
   */
  @Override
  public Future<Void> start() {
    return coord.join(keeper.nodeId(), keeper.address(), keeper.partitions()).compose(n -> keeper.claim()).map(n -> {
      coord.onBroadcast(this::onBroadcast);
      keeper.start();
      joined = true;
      return null;
    });
  }

  /** Whether it joined (then it serves: calls for partitions held elsewhere are forwarded). */
  @Override
  public boolean ready() {
    return joined;
  }

  @Override
  public List<Scheduler> schedulers() {
    return keeper.schedulers();
  }

  /** A broadcast from any node: {@code "m"} (ownership changed) runs a round shortly; others are not ours. */
  void onBroadcast(String message) {
    if (BroadcastCodec.decode(message) instanceof Broadcast.OwnershipChanged) {
      keeper.nudge();
    }
  }

  /** Hands every partition over and leaves (SIGTERM); see {@link LeaseKeeper#shutdown()}. */
  @Override
  public Future<Void> shutdown() {
    return keeper.shutdown();
  }

  public LeaseKeeper keeper() {
    return keeper;
  }

  @Override
  public int partitions() {
    return keeper.partitions();
  }

  @Override
  public int partitionOf(String id) {
    return Partitions.of(id, keeper.partitions());
  }

  @Override
  public String localNodeId() {
    return keeper.nodeId();
  }

  @Override
  public Scheduler local(int p) {
    return keeper.local(p);
  }

  /** This node's address when it serves {@code p}; else the live holder of {@code p}'s lease as last read. */
  @Override
  public String ownerAddress(int p) {
    if (keeper.local(p) != null) {
      return keeper.address();
    }
    Lease l = keeper.liveLease(p);
    if (l == null || l.nodeId().equals(keeper.nodeId())) {
      return null;
    }
    for (Member m : keeper.members()) {
      if (m.nodeId().equals(l.nodeId())) {
        return m.address();
      }
    }
    return null;
  }

  /** The next lease round reads the leases again ({@link LeaseKeeper#staleView}). */
  @Override
  public void ownerRefused(int p) {
    keeper.staleView();
  }

  @Override
  public int owned() {
    return keeper.owned();
  }

  /**
   * The contract's {@code GET /v1/cluster} body: {@code {"nodeId","partitions","nodes":[{"id","address","partitions",
   * "lastSeenAt"}],"owners":[{"partition","node","epoch"}]}}, from the last round (live members; owners are the live
   * holders of leases, this node's own from what it serves now).
   */
  @Override
  public JsonObject describe() {
    Map<String, Integer> count = new HashMap<>();
    JsonArray owners = new JsonArray();
    for (int p = 0; p < keeper.partitions(); p++) {
      String node = null;
      long epoch = 0;
      if (keeper.local(p) != null) {
        node = keeper.nodeId();
        epoch = keeper.epoch(p);
      } else {
        Lease l = keeper.liveLease(p);
        if (l != null && !l.nodeId().equals(keeper.nodeId())) {
          node = l.nodeId();
          epoch = l.epoch();
        }
      }
      if (node != null) {
        count.merge(node, 1, Integer::sum);
        owners.add(new JsonObject().put("partition", p).put("node", node).put("epoch", epoch));
      }
    }
    JsonArray nodes = new JsonArray();
    for (Member m : keeper.members()) {
      nodes.add(new JsonObject().put("id", m.nodeId()).put("address", m.address())
          .put("partitions", count.getOrDefault(m.nodeId(), 0)).put("lastSeenAt", m.lastSeenAt()));
    }
    return new JsonObject().put("nodeId", keeper.nodeId()).put("partitions", keeper.partitions()).put("nodes", nodes)
        .put("owners", owners);
  }
}
