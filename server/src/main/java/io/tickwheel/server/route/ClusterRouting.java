package io.tickwheel.server.route;

import io.micrometer.core.instrument.MeterRegistry;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.server.cluster.PartitionOwners;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.function.LongSupplier;

/**
 * The routing of a cluster node, assembled: its {@link Forwarder}, {@link ClusterTopics} and {@link RoutedTimers}.
 * The cluster runtime builds one per node on the node's context, hands {@link #timers()} to the HTTP/WS edge
 * ({@code TimersApi}, {@code TopicsApi}, {@code WsCommandHandler}), passes every broadcast to {@link #onBroadcast},
 * and {@link #close()}s it on stop.
 *
 * <p>Owner context only.
 */
public final class ClusterRouting {

  /** How often every node re-reads the cluster's paused topics (a lost broadcast of a change is repaired by then). */
  public static final long TOPIC_REFRESH_MS = 2_000;

  private final Forwarder forwarder;
  private final ClusterTopics topics;
  private final RoutedTimers timers;
  private final RouteMetrics metrics;

  /**
   * @param token the admin token sent on forwarded calls, asked for each call (the tokens file may change), or
   *              {@code null} for none
   * @param codec the workers for the JSON of forwarded sub-batches (the node's batch codec)
   */
  public ClusterRouting(Vertx vertx, ClusterCoordinator coordinator, PartitionOwners owners,
      java.util.function.Supplier<String> token,
      RouteOptions options, MeterRegistry registry, WorkerExecutor codec, LongSupplier clock) {
    this.metrics = new RouteMetrics(registry);
    this.forwarder = new Forwarder(vertx, options, owners.localNodeId(), token, metrics);
    this.topics = new ClusterTopics(vertx, coordinator, owners, TOPIC_REFRESH_MS);
    this.timers = new RoutedTimers(owners, forwarder, coordinator::partitionReader, topics, clock, metrics, codec);
  }

  /** Starts the periodic read of the cluster's paused topics. */
  public ClusterRouting start() {
    topics.start();
    return this;
  }

  /** The timers the edge serves from. */
  public Timers timers() {
    return timers;
  }

  /** The cluster's topic pauses (apply the set when a partition scheduler starts: {@link ClusterTopics#refresh}). */
  public ClusterTopics topics() {
    return topics;
  }

  public RouteMetrics metrics() {
    return metrics;
  }

  public Forwarder forwarder() {
    return forwarder;
  }

  /** A broadcast from any node (the paused topics changed: {@link ClusterTopics#onBroadcast}). */
  public void onBroadcast(String message) {
    topics.onBroadcast(message);
  }

  /** Stops the topic refresh and closes the forwarder's connections. */
  public Future<Void> close() {
    topics.stop();
    return forwarder.close();
  }
}
