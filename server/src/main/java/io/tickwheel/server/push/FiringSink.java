package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;

/**
 * Where a node's schedulers hand every firing they recorded, in seq order per partition, right after the log
 * recorded it: the one way a firing reaches the node's {@link FiringHub}. A single node's sink is the hub itself
 * ({@link FiringHub#publish(int, Firing)}); a cluster node's ({@link ClusterFiringSink}) also broadcasts the firings
 * to the other nodes. Owner context only.
 */
@FunctionalInterface
public interface FiringSink {

  /** {@code f}, just recorded in {@code partition}'s log (0 on a single node), seq order per partition. */
  void recorded(int partition, Firing f);
}
