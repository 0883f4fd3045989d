package io.tickwheel.server.route;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.cluster.PartitionOwners;
import io.tickwheel.server.http.OriginCheck;
import io.tickwheel.server.http.Routes;
import io.tickwheel.server.http.TimersApi;
import io.tickwheel.server.http.TopicsApi;
import io.tickwheel.server.http.WheelStream;
import io.tickwheel.server.http.WheelView;
import io.tickwheel.server.http.WebhookSecretApi;
import io.tickwheel.server.http.WsCommandHandler;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.push.FiringHub;
import io.tickwheel.server.push.PushOptions;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Several in-process cluster nodes over one {@link MemoryCoordinator}, each on its own event loop with its own HTTP
 * server on a loopback port: real partition {@link Scheduler}s over fenced partition stores (leases acquired from the
 * coordinator), a {@link RoutedTimers} with a real {@link Forwarder}, and the real router. Partition {@code p} is
 * served by node {@code p % nodes}. The ownership each node sees is a {@link FixtureOwners} the test may change (to
 * make a node believe another owns a partition). A test fixture: the product's cluster runtime (leases, membership) is
 * the server's cluster mode.
 */
final class ClusterFixture implements AutoCloseable {

  final Vertx vertx;
  final MemoryCoordinator coordinator;
  final int partitions;
  final List<Node> nodes = new ArrayList<>();
  private final List<String> deployments = new ArrayList<>();

  /** Who serves what, as one node sees it. Owner context only. */
  static final class FixtureOwners implements PartitionOwners {
    final String nodeId;
    final Scheduler[] local;
    final String[] owner;

    FixtureOwners(String nodeId, int partitions) {
      this.nodeId = nodeId;
      this.local = new Scheduler[partitions];
      this.owner = new String[partitions];
    }

    @Override
    public int partitions() {
      return local.length;
    }

    @Override
    public int partitionOf(String id) {
      return Partitions.of(id, local.length);
    }

    @Override
    public String localNodeId() {
      return nodeId;
    }

    @Override
    public Scheduler local(int p) {
      return local[p];
    }

    @Override
    public String ownerAddress(int p) {
      return owner[p];
    }

    /** What {@link #ownerRefused} does (a test may set it: a view read again). */
    java.util.function.IntConsumer onRefused = p -> { };
    /** The partitions {@link #ownerRefused} was told of, in order. */
    final List<Integer> refused = new ArrayList<>();

    @Override
    public void ownerRefused(int p) {
      refused.add(p);
      onRefused.accept(p);
    }
  }

  /** One node: its verticle, ownership view, meters. */
  final class Node extends VerticleBase {
    final int index;
    final String id;
    final FixtureOwners owners;
    final Metrics metrics = new Metrics();
    RouteMetrics routeMetrics;
    ClusterRouting routing;
    final RouteOptions routeOptions;
    final List<Scheduler> schedulers = new ArrayList<>();
    final List<TimerStore> stores = new ArrayList<>();
    RoutedTimers timers;
    Forwarder forwarder;
    HttpServer http;
    FiringHub hub;
    WorkerExecutor codec;
    WebClient client;
    int port;
    /** Set by a test: the node answers as a node that is not ready (recovering) does. */
    volatile boolean recovering;

    Node(int index, RouteOptions routeOptions) {
      this.index = index;
      this.id = "node-" + index;
      this.owners = new FixtureOwners(id, partitions);
      this.routeOptions = routeOptions;
    }

    String url() {
      return "http://127.0.0.1:" + port;
    }

    @Override
    public Future<?> start() {
      LongSupplier clock = System::currentTimeMillis;
      return coordinator.join(id, "pending", partitions).compose(n -> {
        List<Future<Long>> recovered = new ArrayList<>();
        for (int p = index; p < partitions; p += nodeCount) {
          int part = p;
          recovered.add(coordinator.acquire(p, id, 3_600_000).compose(lease -> {
            TimerStore store = coordinator.partitionStore(part, lease.epoch());
            Scheduler s = new Scheduler(vertx, context, store, clock, SchedulerOptions.defaults(10), metrics);
            stores.add(store);
            schedulers.add(s);
            owners.local[part] = s;
            return s.recover();
          }));
        }
        return Future.all(recovered);
      }).compose(v -> vertx.fileSystem().readFile("openapi.yaml")).compose(openapi -> {
        TimerParser parser = new TimerParser(Limits.defaults(10), true);
        codec = vertx.createSharedWorkerExecutor("fixture-codec-" + id, 2);
        routing = new ClusterRouting(vertx, coordinator, owners, null, routeOptions, metrics.registry(), codec, clock)
            .start();
        coordinator.onBroadcast(routing::onBroadcast);
        routeMetrics = routing.metrics();
        forwarder = routing.forwarder();
        timers = (RoutedTimers) routing.timers();
        Scheduler first = schedulers.get(0);
        hub = new FiringHub(vertx, stores.get(0), PushOptions.defaults(), metrics.registry());
        hub.useCommands(new WsCommandHandler(timers, parser));
        WheelView view = new WheelView(first, metrics, hub::subscribers);
        io.tickwheel.server.http.NodeStatus status = io.tickwheel.server.http.NodeStatus.of(first, hub::subscribers,
            clock.getAsLong());
        Routes.Deps deps = new Routes.Deps(vertx, new io.tickwheel.server.http.NodeStatus() {
              @Override
              public boolean ready() {
                return !recovering && status.ready();
              }

              @Override
              public io.vertx.core.json.JsonObject health() {
                return status.health();
              }
            }, metrics, new TimersApi(timers, parser, codec), new TopicsApi(timers),
            view, new WheelStream(vertx, view), null, List.of(), new OriginCheck(List.of()), hub::handleWebSocket,
            hub::handleSse, openapi, rc -> rc.response().setStatusCode(501).end(),
            new WebhookSecretApi(() -> null), new io.tickwheel.server.http.DeliveriesApi(null),
            new io.tickwheel.server.http.InternalApi(timers, null, parser, codec),
            new io.tickwheel.server.http.ExportApi(() -> {
              List<io.tickwheel.core.store.TimerExport> readers = new ArrayList<>();
              for (int p = 0; p < partitions; p++) {
                readers.add((io.tickwheel.core.store.TimerExport) coordinator.partitionReader(p));
              }
              return readers;
            }), new io.tickwheel.server.http.ImportApi(timers, parser));
        http = vertx.createHttpServer().requestHandler(Routes.router(deps));
        return http.listen(0, "127.0.0.1");
      }).map(server -> {
        port = server.actualPort();
        client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
        return null;
      });
    }

    @Override
    public Future<?> stop() {
      List<Future<?>> all = new ArrayList<>();
      all.add(hub.close());
      all.add(http.close());
      all.add(routing.close());
      schedulers.forEach(s -> all.add(s.stop()));
      return Future.join(all).eventually(() -> codec.close());
    }

    /** Runs {@code body} on this node's event loop and waits for it. */
    <T> T on(java.util.function.Supplier<Future<T>> body) {
      return TestVertx.on(context, body);
    }
  }

  private final int nodeCount;

  ClusterFixture(int nodeCount, int partitions, RouteOptions routeOptions) {
    this.vertx = TestVertx.create();
    this.nodeCount = nodeCount;
    this.partitions = partitions;
    this.coordinator = new MemoryCoordinator(System::currentTimeMillis, partitions);
    for (int i = 0; i < nodeCount; i++) {
      Node n = new Node(i, routeOptions);
      nodes.add(n);
      deployments.add(TestVertx.await(vertx.deployVerticle(n)));
    }
    for (Node n : nodes) {
      n.on(() -> {
        for (int p = 0; p < partitions; p++) {
          n.owners.owner[p] = nodes.get(p % nodeCount).url();
        }
        return Future.succeededFuture();
      });
    }
  }

  ClusterFixture(int nodeCount, int partitions) {
    this(nodeCount, partitions, RouteOptions.defaults());
  }

  /** The node serving partition {@code p}. */
  Node ownerOf(int p) {
    return nodes.get(p % nodeCount);
  }

  /** An id of partition {@code p} (the first of {@code prefix-0}, {@code prefix-1}, … that falls in it). */
  String idIn(int p, String prefix) {
    for (int i = 0; ; i++) {
      if (Partitions.of(prefix + "-" + i, partitions) == p) {
        return prefix + "-" + i;
      }
    }
  }

  /** The lease of {@code p} now. */
  Lease lease(int p) {
    return TestVertx.await(coordinator.leases()).get(p);
  }

  static Buffer json(String s) {
    return Buffer.buffer(s);
  }

  @Override
  public void close() {
    for (String d : deployments) {
      TestVertx.await(vertx.undeploy(d));
    }
    TestVertx.close(vertx);
  }
}
