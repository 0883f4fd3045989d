package io.tickwheel.server.push;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.server.cluster.BroadcastCodec;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cluster node's {@link FiringSink}: each firing this node records goes into its own hub at once (through its
 * {@link ClusterFiringFeed}, which keeps the partition's position), and the firings of one partition recorded in one
 * event-loop task are broadcast to the other nodes as one {@link io.tickwheel.server.cluster.Broadcast.Firings} at the end of that task. The node
 * gets its own broadcast back and ignores it (its feed has published those seqs already).
 *
 * <p>A broadcast may be lost: the other nodes' feeds read the log then ({@link ClusterFiringFeed}). Owner context
 * only (the context it is created on).
 */
public final class ClusterFiringSink implements FiringSink {

  private final ClusterFiringFeed feed;
  private final ClusterCoordinator coordinator;
  private final Context owner;
  /** Per partition, the firings recorded in this task, not yet broadcast ({@code null}: none). */
  private final List<Firing>[] unsent;
  /** The partitions with unsent firings, in the order they were first recorded. */
  private final List<Integer> dirty = new ArrayList<>();

  @SuppressWarnings("unchecked")
  public ClusterFiringSink(ClusterFiringFeed feed, ClusterCoordinator coordinator, Context owner) {
    this.feed = Objects.requireNonNull(feed, "feed");
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.unsent = new List[feed.partitions()];
  }

  @Override
  public void recorded(int partition, Firing f) {
    feed.recorded(partition, f);
    List<Firing> batch = unsent[partition];
    if (batch == null) {
      batch = unsent[partition] = new ArrayList<>();
      if (dirty.isEmpty()) {
        owner.runOnContext(v -> flush());
      }
      dirty.add(partition);
    }
    batch.add(f);
  }

  private void flush() {
    for (int p : dirty) {
      List<Firing> batch = unsent[p];
      unsent[p] = null;
      coordinator.broadcast(BroadcastCodec.encode(BroadcastCodec.firings(p, batch)));
    }
    dirty.clear();
  }
}
