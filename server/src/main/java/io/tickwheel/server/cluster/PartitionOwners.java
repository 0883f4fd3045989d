package io.tickwheel.server.cluster;

import io.tickwheel.server.scheduler.Scheduler;

/**
 * Who serves which partition, as this node knows it: the seam between the cluster runtime (leases, membership,
 * per-partition schedulers) and everything that routes a call (HTTP, WebSocket commands, batches, listings).
 * A single node is the one-owner case: one partition ({@link #partitions()} 1), always local.
 *
 * <p>Read on the owner event loop only (not thread safe). The answers change between turns as leases move: a
 * caller that got a local scheduler must be ready for it to refuse a write as fenced (the partition moved meanwhile),
 * and a forwarded call may find the partition moved again (answer 503 with {@code Retry-After}, never loop).
 */
public interface PartitionOwners {

  /** The cluster's partition count (1 for a single node). */
  int partitions();

  /** The partition of a timer id ({@link io.tickwheel.core.coordination.Partitions#of}). */
  int partitionOf(String id);

  /** This node's id. */
  String localNodeId();

  /** The scheduler serving partition {@code p} on this node, or {@code null} if this node does not serve it now. */
  Scheduler local(int p);

  /**
   * The base URL ({@code --advertise}) of the node that should serve partition {@code p} now, or {@code null} when
   * no live node holds it (between a node's death and the take-over: the caller answers 503 with Retry-After).
   * Equal to this node's own address when {@link #local(int)} is non-null.
   */
  String ownerAddress(int p);

  /**
   * The node {@link #ownerAddress} named for partition {@code p} refused a call as not its owner (or not yet
   * serving it): what this node knows of {@code p}'s owner may be stale, and is to be read again soon.
   */
  default void ownerRefused(int p) {
  }
}
