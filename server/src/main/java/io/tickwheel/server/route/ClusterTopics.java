package io.tickwheel.server.route;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.server.cluster.Broadcast;
import io.tickwheel.server.cluster.BroadcastCodec;
import io.tickwheel.server.cluster.PartitionOwners;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Set;

/**
 * Topic pauses for the whole cluster: the set is kept by the coordinator ({@link ClusterCoordinator#setTopicPaused});
 * a change is announced with the broadcast {@link Broadcast.PausedTopicsChanged}, on which every node reads the set and applies it to each of its
 * partition schedulers ({@link Scheduler#applyPausedTopics}). Broadcasts may be lost, so each node also reads the set
 * every {@code refreshMs}; a partition scheduler that starts reads it from its store at recovery. So a pause reaches
 * every node within one broadcast, or at worst {@code refreshMs}.
 *
 * <p>Owner context only (the node's event loop).
 */
final class ClusterTopics {

  /** Most paused topics in a cluster (as a single node keeps). */
  public static final int MAX_PAUSED_TOPICS = 10_000;

  private final Vertx vertx;
  private final ClusterCoordinator coordinator;
  private final PartitionOwners owners;
  private final long refreshMs;
  private long timer = -1;

  public ClusterTopics(Vertx vertx, ClusterCoordinator coordinator, PartitionOwners owners, long refreshMs) {
    this.vertx = vertx;
    this.coordinator = coordinator;
    this.owners = owners;
    this.refreshMs = refreshMs;
  }

  /** Starts the periodic read of the cluster's set. */
  public void start() {
    timer = vertx.setPeriodic(refreshMs, id -> refresh());
  }

  public void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  /** A broadcast from any node: {@link Broadcast.PausedTopicsChanged} re-reads the set; others are not ours. */
  public void onBroadcast(String message) {
    if (BroadcastCodec.decode(message) instanceof Broadcast.PausedTopicsChanged) {
      refresh();
    }
  }

  /** Reads the cluster's set and applies it to this node's partition schedulers. A failed read changes nothing. */
  public Future<Set<String>> refresh() {
    return coordinator.pausedTopics().onSuccess(this::apply);
  }

  private void apply(Set<String> paused) {
    for (int p = 0; p < owners.partitions(); p++) {
      Scheduler s = owners.local(p);
      if (s != null) {
        s.applyPausedTopics(paused);
      }
    }
  }

  /**
   * Pauses or resumes {@code topic} for the cluster, durably, applies it here and announces it.
   *
   * @return {@code null} when done, or the refusal ({@link Refusal.TooManyPausedTopics}, the coordinator's failure)
   */
  public Future<Refusal> set(String topic, boolean paused) {
    Future<Refusal> room = !paused ? Future.succeededFuture() : coordinator.pausedTopics().map(set ->
        !set.contains(topic) && set.size() >= MAX_PAUSED_TOPICS ? new Refusal.TooManyPausedTopics(MAX_PAUSED_TOPICS) : null);
    return room.compose(refused -> refused != null ? Future.succeededFuture(refused)
            : coordinator.setTopicPaused(topic, paused)
                .compose(v -> refresh())
                .compose(set -> coordinator.broadcast(BroadcastCodec.encode(new Broadcast.PausedTopicsChanged()))
                    .otherwiseEmpty())                                              // a hint: the set is durable already
                .map((Refusal) null))
        .otherwise(e -> Refusal.ofStoreFailure(e, true));
  }
}
