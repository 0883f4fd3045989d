package io.tickwheel.server;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.cluster.ClusterCoordinator;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.server.callback.GuardedResolver;
import io.tickwheel.server.delivery.DeliveryOptions;
import io.tickwheel.server.delivery.DeliveryService;
import io.tickwheel.server.http.DeliveriesApi;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.tickwheel.server.http.ClusterApi;
import io.tickwheel.server.http.ErrorResponses;
import io.tickwheel.server.http.OriginCheck;
import io.tickwheel.server.http.Routes;
import io.tickwheel.server.http.TimersApi;
import io.tickwheel.server.http.TopicsApi;
import io.tickwheel.server.http.WebhookSecretApi;
import io.tickwheel.server.http.WheelStream;
import io.tickwheel.server.http.WheelView;
import io.tickwheel.server.http.WsCommandHandler;
import io.tickwheel.server.metrics.MeteredStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.push.ClusterFiringFeed;
import io.tickwheel.server.push.FiringHub;
import io.tickwheel.server.push.PushOptions;
import io.tickwheel.server.route.LocalTimers;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.security.SecureRandom;
import java.util.function.LongSupplier;

/**
 * The server as one verticle: its context is the <em>owner</em> of the wheel, the scheduler, the firing hub and
 * the HTTP server, so every handler runs on that one event loop and nothing is shared across threads.
 *
 * <p>Start: open the store → listen (so {@code /health} answers 503 {@code recovering}) → recover every stored
 * timer into the wheel → ready ({@link #start()} completes; Main then prints the listening line).
 * Stop: close the wheel streams and the firing hub (subscribers get close 1001) → stop accepting connections →
 * stop the scheduler (waiting for a firing batch in flight) → close the store (flushing it).
 */
public final class TickwheelServer extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(TickwheelServer.class.getName());

  /** Threads that decode and encode batch bodies off the owner loop (JSON work in parallel with the wheel). */
  static final int CODEC_THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  private final ServerConfig cfg;
  private final TimerStore givenStore;
  private final LongSupplier clock;
  private final SchedulerOptions schedulerOptions;

  private TimerStore store;
  private final Metrics metrics;
  private Scheduler scheduler;
  private WheelStream wheelStream;
  private FiringHub hub;
  private HttpServer http;
  private Router router;
  private WorkerExecutor codec;
  private volatile int port = -1;
  private volatile WebhookSecret webhookSecret;
  private DeliveryService deliveries;
  private DeliveryOptions deliveryOptions = DeliveryOptions.defaults();
  private final ClusterCoordinator givenCoordinator;
  private ClusterParts cluster;
  private ClusterCoordinator coordinator;

  /** A server that opens the store {@code cfg} names and reads the system clock. */
  public TickwheelServer(ServerConfig cfg) {
    this(cfg, (TimerStore) null, io.tickwheel.server.scheduler.FineClock.SYSTEM, null);
  }

  /**
   * @param givenStore       a store to use instead of opening one (tests), or {@code null}; closed on stop
   * @param clock            epoch ms
   * @param schedulerOptions scheduler options, or {@code null} for those derived from {@code cfg}
   */
  public TickwheelServer(ServerConfig cfg, TimerStore givenStore, LongSupplier clock, SchedulerOptions schedulerOptions) {
    this(cfg, givenStore, null, clock, schedulerOptions);
  }

  /**
   * A cluster node ({@code cfg.cluster().enabled()}) on a coordinator given in code (in-process clusters: several
   * servers on one {@link io.tickwheel.core.cluster.memory.MemoryCoordinator}); not closed on stop.
   */
  public TickwheelServer(ServerConfig cfg, ClusterCoordinator coordinator, LongSupplier clock,
      SchedulerOptions schedulerOptions) {
    this(cfg, null, coordinator, clock, schedulerOptions);
  }

  private TickwheelServer(ServerConfig cfg, TimerStore givenStore, ClusterCoordinator givenCoordinator,
      LongSupplier clock, SchedulerOptions schedulerOptions) {
    this.cfg = cfg;
    this.givenCoordinator = givenCoordinator;
    this.givenStore = givenStore;
    this.clock = clock;
    this.schedulerOptions = schedulerOptions != null ? schedulerOptions : optionsFrom(cfg);
    // Built here, on the deploying thread: loading the meter classes is slow and must not hold the event loop.
    this.metrics = new Metrics();
    warmUp();
  }

  /**
   * Initializes, on the calling (deploying) thread, classes whose first use is slow and would otherwise stall the
   * event loop: Netty's pooled allocator registers a JDK Flight Recorder event the first time it allocates a chunk,
   * which loads JFR's metadata (seconds on a loaded machine).
   */
  static void warmUp() {
    for (String c : new String[] {"io.netty.buffer.AllocateChunkEvent", "io.netty.buffer.FreeChunkEvent",
        "io.netty.buffer.ReallocateBufferEvent", "io.netty.buffer.AllocateBufferEvent", "io.netty.buffer.FreeBufferEvent"}) {
      try {
        Class.forName(c, true, TickwheelServer.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        // another Netty version: nothing to warm up
      }
    }
  }

  /** The scheduler options {@code cfg} asks for. */
  public static SchedulerOptions optionsFrom(ServerConfig cfg) {
    return SchedulerOptions.defaults(cfg.tickMs())
        .withMaxPending(cfg.maxPending())
        .withMisfireThresholdMs(cfg.misfireThresholdMs())
        .withRetention(new Retention(cfg.logRetentionCount(), cfg.logRetentionMs()),
            SchedulerOptions.DEFAULT_TRIM_INTERVAL_MS);
  }

  @Override
  public Future<?> start() {
    if (cfg.cluster().enabled()) {
      return startCluster();
    }
    long startedAt = clock.getAsLong();
    Future<TimerStore> opened = givenStore != null ? Future.succeededFuture(givenStore) : StoreFactory.open(vertx, cfg);
    OriginCheck origins = new OriginCheck(cfg.allowedOrigins());
    return opened.compose(raw -> {
      store = new MeteredStore(raw, metrics);
      scheduler = new Scheduler(vertx, context, store, clock, schedulerOptions, metrics);
      metrics.pendingGauge(scheduler::pending);
      metrics.pausedGauges(scheduler::pausedTimers, scheduler::pausedTopics);
      hub = new FiringHub(vertx, store, PushOptions.defaults(), metrics.registry());
      FiringHub h = hub;
      metrics.subscribersGauge(h::subscribers);
      scheduler.onFiring(h::publish);
      return webhookSecret(store);
    }).compose(secret -> {
      webhookSecret = secret;
      deliveries = new DeliveryService(vertx, context, store, clock, deliveryOptions,
          GuardedResolver.of(vertx, cfg.webhooks().policy()), new WebhookSigner(secret),
          new DeliveryMetrics(metrics.registry()), () -> java.util.concurrent.ThreadLocalRandom.current().nextDouble(),
          true);
      scheduler.onDelivery(deliveries::accept);
      return vertx.fileSystem().readFile("openapi.yaml").otherwise(e -> Buffer.buffer("openapi: 3.0.3\n"));
    }).compose(openapi -> {
      // calendar and callback fields on: every store persists Timer.extras (cron, zone, DST policies, endAt, jitter,
      // paused, callback); literal callback hosts are checked against the configured address policy
      TimerParser parser = new TimerParser(Limits.defaults(cfg.tickMs()), true, cfg.webhooks().policy());
      codec = vertx.createSharedWorkerExecutor("tickwheel-codec-" + System.identityHashCode(this), CODEC_THREADS);
      Timers local = new LocalTimers(scheduler);
      TimersApi timers = new TimersApi(local, parser, codec);
      hub.useCommands(new WsCommandHandler(local, parser));
      WheelView view = new WheelView(scheduler, metrics, hub::subscribers);
      wheelStream = new WheelStream(vertx, view);
      Routes.Deps deps = new Routes.Deps(vertx, scheduler, metrics, timers, new TopicsApi(local), view, wheelStream, cfg.token(),
          cfg.allowedOrigins(), origins, hub::handleWebSocket, hub::handleSse, hub::subscribers, openapi, startedAt,
          ClusterApi.singleNode(() -> cfg.url(port), clock), new WebhookSecretApi(this::webhookSecret),
          new DeliveriesApi(io.tickwheel.server.delivery.Deliveries.of(deliveries)));
      http = vertx.createHttpServer(new HttpServerOptions()
              .setHost(cfg.host())
              .setPort(cfg.port())
              .setIdleTimeout(0)
              .setMaxWebSocketMessageSize(64 * 1024))
          .requestHandler(router = Routes.router(deps));
      return http.listen();
    }).compose(server -> {
      port = server.actualPort();
      origins.own(cfg.url(port));
      // pending deliveries first: the scheduler's recovery starts firing, and new deliveries come from it
      return deliveries.recover();
    }).compose(nd -> {
      LOG.log(System.Logger.Level.INFO, "recovered " + nd + " pending deliveries");
      return scheduler.recover();
    }).onSuccess(n -> LOG.log(System.Logger.Level.INFO, "recovered " + n + " timers from the " + store.name() + " store"))
        .recover(e -> cleanup().transform(v -> Future.failedFuture(e)));
  }

  /**
   * The configured secret, or the one the store keeps (storing a new 32-byte one at first start). A stored text
   * that is not a secret fails the start, saying so (without the text).
   */
  private static Future<WebhookSecret> webhookSecret(ServerConfig cfg, TimerStore store) {
    if (cfg.webhooks().secret() != null) {
      return Future.succeededFuture(cfg.webhooks().secret());
    }
    return store.webhookSecret(WebhookSecret.generate(new SecureRandom()).text()).map(text -> {
      try {
        return WebhookSecret.parse(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the webhook secret kept in the " + store.name() + " store is not valid ("
            + e.getMessage() + "); start with --webhook-secret", e);
      }
    });
  }

  private Future<WebhookSecret> webhookSecret(TimerStore s) {
    return webhookSecret(cfg, s);
  }

  /** The key callbacks are signed with (after start; {@code null} before). */
  public WebhookSecret webhookSecret() {
    return webhookSecret;
  }

  /**
   * A cluster node: open the coordinator → listen (answering 503 until the routes are built) → build the node (its id
   * and address need the port) and the routed edge → join (the coordinator refuses a store a single node uses, or
   * another partition count) → keep leases: partitions are served as they are acquired.
   */
  private Future<?> startCluster() {
    long startedAt = clock.getAsLong();
    OriginCheck origins = new OriginCheck(cfg.allowedOrigins());
    Future<ClusterCoordinator> opened = givenCoordinator != null ? Future.succeededFuture(givenCoordinator)
        : StoreFactory.openCoordinator(vertx, cfg);
    Router[] ready = new Router[1];
    Promise<Void> joined = Promise.promise(); // the firing hub's feed reads the partitions once the node joined
    return opened.compose(c -> {
      coordinator = c;
      return cfg.webhooks().secret() != null ? Future.succeededFuture(cfg.webhooks().secret())
          : c.webhookSecret(WebhookSecret.generate(new SecureRandom()).text()).map(WebhookSecret::parse);
    }).compose(secret -> {
      webhookSecret = secret;
      http = vertx.createHttpServer(new HttpServerOptions()
              .setHost(cfg.host())
              .setPort(cfg.port())
              .setIdleTimeout(0)
              .setMaxWebSocketMessageSize(64 * 1024))
          .requestHandler(req -> {
            if (ready[0] != null) {
              ready[0].handle(req);
            } else {
              req.response().setStatusCode(503).putHeader("Retry-After", "1").end();
            }
          });
      return http.listen();
    }).compose(server -> {
      port = server.actualPort();
      origins.own(cfg.url(port));
      return vertx.fileSystem().readFile("openapi.yaml").otherwise(e -> Buffer.buffer("openapi: 3.0.3\n"));
    }).compose(openapi -> {
      String address = cfg.cluster().advertise() != null ? cfg.cluster().advertise() : cfg.url(port);
      String nodeId = cfg.cluster().nodeIdFor(port);
      codec = vertx.createSharedWorkerExecutor("tickwheel-codec-" + System.identityHashCode(this), CODEC_THREADS);
      // one delivery service for the node: each partition it serves is a lane of it (records in that partition's
      // fenced store, ids msg_<partition>_<seq>), so hosts' caps and breakers are per node, not per partition
      deliveries = new DeliveryService(vertx, context, null, clock, deliveryOptions,
          GuardedResolver.of(vertx, cfg.webhooks().policy()), new WebhookSigner(webhookSecret),
          new DeliveryMetrics(metrics.registry()), () -> java.util.concurrent.ThreadLocalRandom.current().nextDouble(),
          true);
      cluster = new ClusterParts(vertx, context, cfg, coordinator, nodeId, address, clock, schedulerOptions, metrics,
          codec, deliveries);
      // The node's own scheduler holds no timer in a cluster (the partitions' schedulers do): it backs the /v1
      // recovery gate and the wheel view's clock. The firing streams are the cluster-wide hub: its feed publishes the
      // firings the owners broadcast (FiringBroadcast) and reads a partition's log (whoever owns it) after a gap.
      store = new MeteredStore(new io.tickwheel.core.store.memory.MemoryTimerStore(), metrics);
      scheduler = new Scheduler(vertx, context, store, clock, schedulerOptions, metrics);
      ClusterFiringFeed feed = new ClusterFiringFeed(vertx, coordinator, cfg.cluster().partitions(), joined.future());
      coordinator.onBroadcast(feed::onBroadcast);
      hub = new FiringHub(vertx, feed, PushOptions.defaults(), metrics.registry());
      FiringHub h = hub;
      metrics.subscribersGauge(h::subscribers);
      TimerParser parser = new TimerParser(Limits.defaults(cfg.tickMs()), true, cfg.webhooks().policy());
      Timers timers = cluster.routing.timers();
      hub.useCommands(new WsCommandHandler(timers, parser));
      ClusterParts parts = cluster;      // the wheel shown: every partition this node serves, as one
      WheelView view = new WheelView(scheduler, () -> parts.node.keeper().schedulers(), metrics, hub::subscribers);
      wheelStream = new WheelStream(vertx, view);
      Routes.Deps deps = new Routes.Deps(vertx, scheduler, metrics, new TimersApi(timers, parser, codec),
          new TopicsApi(timers), view, wheelStream, cfg.token(), cfg.allowedOrigins(), origins, hub::handleWebSocket,
          hub::handleSse, hub::subscribers, openapi, startedAt,
          rc -> ErrorResponses.json(rc, 200, cluster.node.describe().toBuffer()),
          new WebhookSecretApi(this::webhookSecret), new DeliveriesApi(cluster.deliveriesApi));
      router = Routes.router(deps);
      router.get("/health").order(-1).handler(rc -> ErrorResponses.json(rc, 200,
          cluster.health(clock.getAsLong() - startedAt, hub.subscribers()).toBuffer()));
      return scheduler.recover();
    }).compose(n -> cluster.start()).onSuccess(v -> {
      joined.tryComplete();
      ready[0] = router;
      LOG.log(System.Logger.Level.INFO, "joined the cluster as " + cluster.node.localNodeId() + " ("
          + cfg.cluster().partitions() + " partitions, lease " + cfg.cluster().leaseMs() + " ms)");
    }).recover(e -> {
      joined.tryFail(e);
      return cleanup().transform(v -> Future.failedFuture(e));
    });
  }

  /** This node's cluster runtime (cluster mode, after start), or {@code null}. */
  public io.tickwheel.server.cluster.ClusterNode clusterNode() {
    return cluster != null ? cluster.node : null;
  }

  @Override
  public Future<?> stop() {
    return cleanup();
  }

  private Future<Void> cleanup() {
    if (cluster != null) {
      // hand the partitions over first (stop their schedulers, release the leases, leave), then close the rest
      ClusterParts c = cluster;
      cluster = null;
      return c.shutdown().otherwiseEmpty().compose(v -> onOwner(this::cleanupLocal))
          .compose(v -> givenCoordinator == null ? coordinator.close().otherwiseEmpty() : Future.succeededFuture());
    }
    if (coordinator != null && givenCoordinator == null) {
      ClusterCoordinator c = coordinator;
      coordinator = null;
      return cleanupLocal().compose(v -> c.close().otherwiseEmpty());
    }
    return cleanupLocal();
  }

  /** Runs {@code body} on this verticle's context (futures of other components may complete elsewhere). */
  private Future<Void> onOwner(java.util.function.Supplier<Future<Void>> body) {
    if (io.vertx.core.Vertx.currentContext() == context) {
      return body.get();
    }
    io.vertx.core.Promise<Void> p = io.vertx.core.Promise.promise();
    context.runOnContext(x -> body.get().onComplete(p));
    return p.future();
  }

  private Future<Void> cleanupLocal() {
    // subscribers first, so WebSocket clients get close 1001 and SSE streams end cleanly rather than
    // seeing their connection dropped by the HTTP server's close; the hub ignores later publishes
    if (wheelStream != null) {
      wheelStream.closeAll();
    }
    Future<Void> subs = hub != null ? hub.close().otherwiseEmpty() : Future.succeededFuture();
    return subs
        .compose(v -> http != null ? http.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> scheduler != null ? scheduler.stop() : Future.<Void>succeededFuture())
        .compose(v -> deliveries != null ? deliveries.stop() : Future.<Void>succeededFuture())
        .compose(v -> codec != null ? codec.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> {
          TimerStore s = store != null ? store : givenStore;
          return s != null ? s.close().otherwiseEmpty() : Future.<Void>succeededFuture();
        })
        .onComplete(ar -> metrics.close());
  }

  /** The HTTP routes (after start): what the served OpenAPI document must list. */
  public Router router() {
    return router;
  }

  /** The port the server listens on (after start), -1 before. */
  public int actualPort() {
    return port;
  }

  /** Delivery limits to use instead of the defaults (tests); call before deploying. */
  public TickwheelServer withDeliveryOptions(DeliveryOptions o) {
    this.deliveryOptions = o;
    return this;
  }

  /** The callback delivery service (after start). */
  public DeliveryService deliveries() {
    return deliveries;
  }

  /** The scheduler (after start). */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** The meters (after start). */
  public Metrics metrics() {
    return metrics;
  }
}
