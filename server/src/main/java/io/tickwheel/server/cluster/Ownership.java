package io.tickwheel.server.cluster;

import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Which partitions this node serves, and how it comes to serve them: the one thing that differs between a single
 * node and a cluster node. A single node is a cluster of one: {@link SoleOwner} holds its one partition for good and
 * never forwards; a cluster node ({@link ClusterNode}) holds partitions under leases ({@link LeaseKeeper}) that move
 * between nodes. Either one hands every partition it comes to serve to the same {@link PartitionFactory}.
 *
 * <p>Owner context only (not thread safe).
 */
public interface Ownership extends PartitionOwners {

  /**
   * Starts serving: a single node opens and recovers its partition (completes once recovered); a cluster node joins
   * and keeps leases (completes once joined; partitions are served as they are acquired).
   */
  Future<Void> start();

  /** Whether the node serves {@code /v1}: recovered (single node), joined (cluster node). */
  boolean ready();

  /** The schedulers serving partitions here now. */
  List<Scheduler> schedulers();

  /** How many partitions this node serves now. */
  int owned();

  /** The {@code GET /v1/cluster} body: this node, the live nodes, who owns which partition. */
  JsonObject describe();

  /** Stops serving: a cluster node hands its partitions over and leaves; a single node stops its scheduler. */
  Future<Void> shutdown();
}
