package io.tickwheel.server;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.store.TimerExport;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.dispatch.GuardedResolver;
import io.tickwheel.server.cluster.ClusterMetrics;
import io.tickwheel.server.cluster.ClusterNode;
import io.tickwheel.server.cluster.LeaseKeeper;
import io.tickwheel.server.cluster.MonotonicClock;
import io.tickwheel.server.cluster.Ownership;
import io.tickwheel.server.cluster.PartitionFactory;
import io.tickwheel.server.cluster.SoleOwner;
import io.tickwheel.server.dispatch.Deliveries;
import io.tickwheel.server.dispatch.DeliveryLane;
import io.tickwheel.server.dispatch.DeliveryOptions;
import io.tickwheel.server.dispatch.DeliveryService;
import io.tickwheel.server.http.DeliveriesApi;
import io.tickwheel.server.http.ExportApi;
import io.tickwheel.server.http.FiringPushApi;
import io.tickwheel.server.http.ImportApi;
import io.tickwheel.server.http.InternalApi;
import io.tickwheel.server.http.NodeStatus;
import io.tickwheel.server.http.OriginCheck;
import io.tickwheel.server.http.Replies;
import io.tickwheel.server.http.Routes;
import io.tickwheel.server.http.TimersApi;
import io.tickwheel.server.http.TopicsApi;
import io.tickwheel.server.http.WebhookSecretApi;
import io.tickwheel.server.http.WheelStream;
import io.tickwheel.server.http.WheelView;
import io.tickwheel.server.http.WsCommandHandler;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.tickwheel.server.metrics.MeteredStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.push.ClusterFiringFeed;
import io.tickwheel.server.push.ClusterFiringSink;
import io.tickwheel.server.push.FiringFeed;
import io.tickwheel.server.push.FiringHub;
import io.tickwheel.server.push.FiringPusher;
import io.tickwheel.server.push.FiringSink;
import io.tickwheel.server.push.PushOptions;
import io.tickwheel.server.push.StoreFiringFeed;
import io.tickwheel.server.route.ClusterDeliveries;
import io.tickwheel.server.route.ClusterRouting;
import io.tickwheel.server.route.LocalTimers;
import io.tickwheel.server.route.RouteOptions;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.security.Tokens;
import io.vertx.core.net.TrustOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * A node, wired: the same parts whatever it stands on. A single node is a cluster of one.
 *
 * <ul>
 *   <li>{@link Ownership} says which partitions the node serves: {@link SoleOwner} (a single node: partition 0, the
 *       whole store, for good) or {@link ClusterNode} (leases on the coordinator's partitions). It hands each
 *       partition it comes to serve to the one {@link PartitionFactory} here: a {@link Scheduler} over the
 *       partition's metered store, a {@link DeliveryLane} of the node's {@link DeliveryService}, and the node's
 *       {@link FiringSink}, which every scheduler hands its recorded firings to.</li>
 *   <li>The {@link FiringHub} serves the node's subscribers from a {@link FiringFeed}: the store's log on a single
 *       node (the sink is the hub), every partition's log in a cluster ({@link ClusterFiringFeed}; the sink
 *       {@link ClusterFiringSink} also broadcasts to the other nodes).</li>
 *   <li>The edge serves {@link Timers}: the scheduler itself on a single node ({@link LocalTimers}), routed to the
 *       partition's owner in a cluster ({@link ClusterRouting}).</li>
 * </ul>
 *
 * Built on the server's context once it listens (a cluster node's id and address name its port); owner context only.
 */
final class Node {

  private static final System.Logger LOG = System.getLogger(Node.class.getName());

  final Ownership ownership;
  final FiringHub hub;
  final DeliveryService deliveries;
  final WheelStream wheelStream;
  final Router router;
  /** A cluster node's routing; {@code null} on a single node. */
  private final ClusterRouting routing;
  private final ClusterCoordinator coordinator;
  private final Promise<Void> joined = Promise.promise();
  /** A cluster node's push of its firings to the other nodes; {@code null} on a single node. */
  private final FiringPusher pusher;
  private final long tickMs;
  /** Each open scheduler's delivery lane (the lane of partition p is that of {@code ownership.local(p)}). */
  private final Map<Scheduler, DeliveryLane> lanes = new IdentityHashMap<>();

  /**
   * @param store       a single node's store (then {@code coordinator} is {@code null}), not metered
   * @param coordinator a cluster node's coordinator (then {@code store} is {@code null})
   * @param port        the port it listens on
   * @param startedAt   when the server started, epoch ms
   * @param tokens      the tokens and their roles
   * @param trust       what other nodes' {@code https://} addresses are verified against, or {@code null}: the JVM's
   */
  Node(Vertx vertx, Context owner, ServerConfig cfg, TimerStore store, ClusterCoordinator coordinator, int port,
      LongSupplier clock, SchedulerOptions options, DeliveryOptions deliveryOptions, WebhookSecret secret,
      Metrics metrics, WorkerExecutor codec, OriginCheck origins, Buffer openapi, long startedAt, Tokens tokens,
      TrustOptions trust) {
    this.coordinator = coordinator;
    this.tickMs = options.tickMs();
    boolean clustered = coordinator != null;
    TimerStore metered = clustered ? null : new MeteredStore(store, metrics);
    // one delivery service for the node: each partition it serves is a lane of it, so hosts' caps and breakers are
    // per node, not per partition (a single node's lane is its store: ids msg_<seq>)
    this.deliveries = new DeliveryService(vertx, owner, metered, clock, deliveryOptions,
        GuardedResolver.of(vertx, cfg.webhooks().policy()), new WebhookSigner(secret),
        new DeliveryMetrics(metrics.registry()), () -> ThreadLocalRandom.current().nextDouble(), true);

    FiringFeed feed = clustered
        ? new ClusterFiringFeed(vertx, coordinator, cfg.cluster().partitions(), joined.future())
        : new StoreFiringFeed(metered);
    this.hub = new FiringHub(vertx, feed, PushOptions.defaults(), metrics.registry(),
        io.tickwheel.server.http.HttpEdge.heartbeatMs(cfg));
    FiringSink sink;
    String address = clustered ? clusterAddress(cfg, port) : null;
    if (clustered) {
      ClusterFiringFeed cf = (ClusterFiringFeed) feed;
      this.pusher = new FiringPusher(vertx, cfg.cluster().nodeIdFor(port), tokens::internalToken, trust);
      cf.enablePush(pusher, address);
      cf.meters(metrics.registry());
      pusher.meters(metrics.registry());
      coordinator.onBroadcast(cf::onBroadcast);
      sink = new ClusterFiringSink(cf, coordinator, owner, pusher);
    } else {
      this.pusher = null;
      sink = hub::publish;
    }

    PartitionFactory partitions = new PartitionFactory() {
      @Override
      public Scheduler open(int p, TimerStore partitionStore) {
        TimerStore m = new MeteredStore(partitionStore, metrics);
        Scheduler s = new Scheduler(vertx, owner, m, clock, options, metrics);
        // its deliveries: recorded in the partition's store, live while this node serves it with s
        DeliveryLane lane = clustered ? new DeliveryLane(p, m, () -> ownership.local(p) == s) : DeliveryLane.single(m);
        lanes.put(s, lane);
        s.onFiring(f -> sink.recorded(p, f));
        s.onDelivery(d -> deliveries.accept(d, lane));
        return s;
      }

      /** Pending deliveries first: the scheduler's recovery starts firing, and new deliveries come from it. */
      @Override
      public Future<?> recover(int p, Scheduler s) {
        System.Logger.Level level = clustered ? System.Logger.Level.DEBUG : System.Logger.Level.INFO;
        String of = clustered ? " of partition " + p : "";
        return deliveries.recover(lanes.get(s)).compose(nd -> {
          LOG.log(level, "recovered " + nd + " pending deliveries" + of);
          return s.recover();
        }).onSuccess(n -> LOG.log(level, "recovered " + n + " timers" + of + " from the " + s.storeName() + " store"));
      }

      @Override
      public void recovered(int p, Scheduler s) {
        if (clustered) {
          // the cluster's paused topics, should a change have been announced while it recovered
          coordinator.pausedTopics().onSuccess(s::applyPausedTopics);
        }
      }

      /** The outcomes of the lane's attempts in flight recorded before the partition's store closes. */
      @Override
      public Future<?> settle(int p, Scheduler s) {
        DeliveryLane lane = lanes.get(s);
        return lane == null ? Future.succeededFuture() : deliveries.settled(lane);
      }

      @Override
      public void closed(int p, Scheduler s) {
        lanes.remove(s);
      }
    };

    Timers timers;
    Deliveries deliveriesApi;
    if (clustered) {
      LeaseKeeper keeper = new LeaseKeeper(vertx, coordinator, cfg.cluster().nodeIdFor(port), address,
          cfg.cluster().partitions(), cfg.cluster().leaseMs(), MonotonicClock.SYSTEM, partitions,
          new ClusterMetrics(metrics.registry()));
      ClusterNode node = new ClusterNode(coordinator, keeper);
      this.ownership = node;
      this.routing = new ClusterRouting(vertx, coordinator, node, tokens::internalToken,
          RouteOptions.defaults().withTrust(trust),
          metrics.registry(), codec, clock);
      timers = routing.timers();
      deliveriesApi = new ClusterDeliveries(node, coordinator::partitionReader, p -> {
        Scheduler s = node.local(p);
        return s == null ? null : lanes.get(s);
      }, deliveries, routing.forwarder());
    } else {
      SoleOwner sole = new SoleOwner(store, partitions, () -> cfg.url(port), clock);
      this.ownership = sole;
      this.routing = null;
      timers = new LocalTimers(sole.scheduler());
      deliveriesApi = Deliveries.of(deliveries);
    }

    metrics.pendingGauge(() -> sum(Scheduler::pending));
    metrics.pausedGauges(() -> sum(Scheduler::pausedTimers), () -> {
      List<Scheduler> all = ownership.schedulers();
      return all.isEmpty() ? 0 : all.get(0).pausedTopics();
    });
    metrics.subscribersGauge(hub::subscribers);

    // calendar and callback fields on: every store persists Timer.extras (cron, zone, DST policies, endAt, jitter,
    // paused, callback); literal callback hosts are checked against the configured address policy
    TimerParser parser = new TimerParser(Limits.defaults(cfg.tickMs()), true, cfg.webhooks().policy());
    hub.useCommands(new WsCommandHandler(timers, parser));
    String storeName = clustered ? "redis" : store.name();
    WheelView view = new WheelView(storeName, tickMs, clock, ownership::schedulers, metrics,
        hub::subscribers);
    this.wheelStream = new WheelStream(vertx, view);
    NodeStatus status = new NodeStatus() {
      @Override
      public boolean ready() {
        return ownership.ready();
      }

      @Override
      public JsonObject health() {
        return Node.this.health(storeName, clock.getAsLong() - startedAt);
      }
    };
    this.router = Routes.router(new Routes.Deps(vertx, status, metrics, new TimersApi(timers, parser, codec),
        new TopicsApi(timers), view, wheelStream, tokens, cfg.allowedOrigins(), origins, hub::handleWebSocket,
        hub::handleSse, openapi, rc -> Replies.json(rc, 200, ownership.describe().toBuffer()),
        new WebhookSecretApi(() -> secret), new DeliveriesApi(deliveriesApi),
        new InternalApi(timers, deliveriesApi, parser, codec), new ExportApi(exportSources(store, coordinator,
            clustered ? cfg.cluster().partitions() : 0)), new ImportApi(timers, parser),
        clustered ? new FiringPushApi((ClusterFiringFeed) feed) : null));
  }

  /**
   * What an export reads: a single node's store; in a cluster every partition's data in the shared store, through
   * read-only partition readers (no call to the partitions' owners).
   */
  private static java.util.function.Supplier<List<TimerExport>> exportSources(TimerStore store,
      ClusterCoordinator coordinator, int partitions) {
    if (coordinator == null) {
      return () -> List.of(exporting(store));
    }
    return () -> {
      List<TimerExport> readers = new java.util.ArrayList<>(partitions);
      for (int p = 0; p < partitions; p++) {
        readers.add(exporting(coordinator.partitionReader(p)));
      }
      return readers;
    };
  }

  private static TimerExport exporting(TimerStore s) {
    if (s instanceof TimerExport e) {
      return e;
    }
    throw new io.tickwheel.core.store.StoreFaultException("the " + s.name() + " store does not export", null, false);
  }

  /** A cluster node's address as the other nodes reach it: {@code --advertise}, else its own URL. */
  private static String clusterAddress(ServerConfig cfg, int port) {
    return cfg.cluster().advertise() != null ? cfg.cluster().advertise() : cfg.url(port);
  }

  /**
   * Starts serving: a cluster node starts routing and joins (then keeps leases); a single node recovers its store.
   * Completes once the node serves {@code /v1}.
   */
  Future<Void> start() {
    if (routing != null) {
      coordinator.onBroadcast(routing::onBroadcast);
      routing.start();
    }
    return ownership.start().onComplete(joined);
  }

  /** {@code /health}: the node's figures (a cluster node's: its id and the partitions it serves). */
  private JsonObject health(String storeName, long uptimeMs) {
    JsonObject h = new JsonObject().put("status", "up").put("store", storeName);
    if (coordinator != null) {
      h.put("node", ownership.localNodeId()).put("partitions", ownership.partitions())
          .put("partitionsOwned", ownership.owned());
    }
    h.put("pending", sum(Scheduler::pending)).put("firedTotal", sum(Scheduler::publishedTotal))
        .put("subscribers", hub.subscribers());
    if (coordinator == null) {
      h.put("tickMs", tickMs);
    }
    return h.put("uptimeMs", uptimeMs);
  }

  private long sum(ToLongFunction<Scheduler> f) {
    long n = 0;
    for (Scheduler s : ownership.schedulers()) {
      n += f.applyAsLong(s);
    }
    return n;
  }

  /**
   * Stops serving: a cluster node hands its partitions over and leaves, then stops routing; a single node stops its
   * scheduler (waiting for a firing batch in flight). Failures are ignored.
   */
  Future<Void> shutdown() {
    joined.tryFail("stopped");
    Future<Void> stopped = ownership.shutdown().otherwiseEmpty();
    if (pusher != null) {
      stopped = stopped.eventually(pusher::close);
    }
    return routing == null ? stopped : stopped.eventually(routing::close);
  }
}
