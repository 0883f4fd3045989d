package io.tickwheel.server;

import io.tickwheel.core.cluster.ClusterCoordinator;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.cluster.ClusterMetrics;
import io.tickwheel.server.cluster.ClusterNode;
import io.tickwheel.server.cluster.ClusterOptions;
import io.tickwheel.server.cluster.LeaseKeeper;
import io.tickwheel.server.cluster.PartitionFactory;
import io.tickwheel.server.delivery.DeliveryLane;
import io.tickwheel.server.delivery.DeliveryService;
import io.tickwheel.server.route.ClusterDeliveries;
import io.tickwheel.server.metrics.MeteredStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.route.ClusterRouting;
import io.tickwheel.server.route.RouteOptions;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.util.function.LongSupplier;

/**
 * A cluster node's runtime as the server wires it: the {@link ClusterNode} (leases, partition schedulers, who owns
 * what), the {@link ClusterRouting} the HTTP/WS edge serves from, and the meters aggregated over the partition
 * schedulers (one gauge each, not one per partition). Owner context only.
 */
final class ClusterParts {

  final ClusterCoordinator coordinator;
  final ClusterNode node;
  final ClusterRouting routing;
  final ClusterMetrics clusterMetrics;
  /** The node's callback deliveries: one lane per partition it serves, one set of host queues and breakers. */
  final DeliveryService deliveries;
  /** The API's view of every partition's deliveries. */
  final ClusterDeliveries deliveriesApi;

  /**
   * @param address this node's base URL (what others route to)
   * @param nodeId  this node's id
   */
  ClusterParts(Vertx vertx, Context owner, ServerConfig cfg, ClusterCoordinator coordinator, String nodeId,
      String address, LongSupplier clock, SchedulerOptions options, Metrics metrics, WorkerExecutor codec,
      DeliveryService deliveries) {
    this.coordinator = coordinator;
    this.deliveries = deliveries;
    // each open partition scheduler's delivery lane (owner context only); the lane of partition p is that of
    // node.local(p)
    java.util.Map<Scheduler, DeliveryLane> opened = new java.util.IdentityHashMap<>();
    ClusterOptions c = cfg.cluster();
    this.clusterMetrics = new ClusterMetrics(metrics.registry());
    ClusterRouting[] routingBox = new ClusterRouting[1];
    PartitionFactory factory = new PartitionFactory() {
      @Override
      public Scheduler open(int partition, TimerStore store) {
        Scheduler s = new Scheduler(vertx, owner, new MeteredStore(store, metrics), clock, options, metrics);
        // its deliveries: recorded in the partition's fenced store, live while this node serves it with s
        DeliveryLane lane = new DeliveryLane(partition, store, () -> node.local(partition) == s);
        opened.put(s, lane);
        s.onDelivery(d -> deliveries.accept(d, lane));
        return s;
      }

      @Override
      public void closed(int partition, Scheduler scheduler) {
        opened.remove(scheduler);
      }

      @Override
      public void recovered(int partition, Scheduler scheduler) {
        DeliveryLane lane = opened.get(scheduler);
        if (lane != null) {
          deliveries.recover(lane).onFailure(e -> System.getLogger(ClusterParts.class.getName()).log(
              System.Logger.Level.WARNING, "loading the pending deliveries of partition " + partition + " failed"
                  + " (they are attempted when the partition is served again): " + e));
        }
        // the cluster's paused topics, as routing knows them, apply to the partition's new scheduler too
        if (routingBox[0] != null) {
          routingBox[0].topics().refresh();
        }
      }
    };
    LeaseKeeper keeper = new LeaseKeeper(vertx, coordinator, nodeId, address, c.partitions(), c.leaseMs(),
        io.tickwheel.server.cluster.MonotonicClock.SYSTEM, factory, clusterMetrics);
    this.node = new ClusterNode(coordinator, keeper);
    this.routing = new ClusterRouting(vertx, coordinator, node, cfg.token(), RouteOptions.defaults(),
        metrics.registry(), codec, clock);
    routingBox[0] = routing;
    this.deliveriesApi = new ClusterDeliveries(node, coordinator::partitionReader, p -> {
      Scheduler s = node.local(p);
      return s == null ? null : opened.get(s);
    }, deliveries, routing.forwarder());
    metrics.pendingGauge(() -> sum(Scheduler::pending));
    metrics.pausedGauges(() -> sum(Scheduler::pausedTimers), () -> {
      var all = node.keeper().schedulers();
      return all.isEmpty() ? 0 : all.get(0).pausedTopics();
    });
  }

  private long sum(java.util.function.ToLongFunction<Scheduler> f) {
    long n = 0;
    for (Scheduler s : node.keeper().schedulers()) {
      n += f.applyAsLong(s);
    }
    return n;
  }

  /** Joins and starts keeping leases and routing. */
  Future<Void> start() {
    coordinator.onBroadcast(routing::onBroadcast);
    routing.start();
    return node.start();
  }

  /** {@code /health} in a cluster: the node, the partitions it serves, the timers pending in them. */
  JsonObject health(long uptimeMs, int subscribers) {
    long fired = sum(Scheduler::publishedTotal);
    return new JsonObject().put("status", "up").put("store", "redis").put("node", node.localNodeId())
        .put("partitions", node.partitions()).put("partitionsOwned", node.owned()).put("pending", sum(Scheduler::pending))
        .put("firedTotal", fired).put("subscribers", subscribers).put("uptimeMs", uptimeMs);
  }

  /** SIGTERM and stop: hands every partition over, leaves, stops routing. */
  Future<Void> shutdown() {
    return node.shutdown().eventually(routing::close);
  }
}
