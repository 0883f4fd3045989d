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
 * {@link ClusterFiringFeed}, which keeps the partition's position), and the firings of each partition recorded in one
 * event-loop task go to the other nodes at the end of that task: to a {@link FiringPusher}, which pushes each node
 * the firings of its subscribers' topics; without one, as one
 * {@link io.tickwheel.server.cluster.Broadcast.Firings} broadcast per partition (which the node gets back and
 * ignores: its feed has published those seqs already).
 *
 * <p>A push or broadcast may be lost: the other nodes' feeds read the log then ({@link ClusterFiringFeed}). Owner
 * context only (the context it is created on).
 */
public final class ClusterFiringSink implements FiringSink {

  private final ClusterFiringFeed feed;
  private final ClusterCoordinator coordinator;
  private final Context owner;
  /** Per partition, the firings recorded in this task, not yet broadcast ({@code null}: none). */
  private final List<Firing>[] unsent;
  /** The partitions with unsent firings, in the order they were first recorded. */
  private final List<Integer> dirty = new ArrayList<>();

  /** Where the firings go to the other nodes; {@code null}: broadcast. */
  private final FiringPusher pusher;

  /** A sink that broadcasts what it records to every node. */
  public ClusterFiringSink(ClusterFiringFeed feed, ClusterCoordinator coordinator, Context owner) {
    this(feed, coordinator, owner, null);
  }

  /** A sink that hands what it records to {@code pusher} ({@code null}: broadcasts it). */
  @SuppressWarnings("unchecked")
  public ClusterFiringSink(ClusterFiringFeed feed, ClusterCoordinator coordinator, Context owner,
      FiringPusher pusher) {
    this.feed = Objects.requireNonNull(feed, "feed");
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.pusher = pusher;
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

  /** Hands {@code batch} to the pusher in runs of consecutive seqs. */
  private void pushConsecutive(int p, List<Firing> batch) {
    int from = 0;
    for (int i = 1; i <= batch.size(); i++) {
      if (i == batch.size() || batch.get(i).seq() != batch.get(i - 1).seq() + 1) {
        pusher.recorded(p, from == 0 && i == batch.size() ? batch : batch.subList(from, i));
        from = i;
      }
    }
  }

  private void flush() {
    for (int p : dirty) {
      List<Firing> batch = unsent[p];
      unsent[p] = null;
      if (pusher != null) {
        pushConsecutive(p, batch);
      } else {
        coordinator.broadcast(BroadcastCodec.encode(BroadcastCodec.firings(p, batch)));
      }
    }
    dirty.clear();
    if (pusher != null) {
      pusher.flush();
    }
  }
}
