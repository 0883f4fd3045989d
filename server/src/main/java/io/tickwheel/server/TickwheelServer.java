package io.tickwheel.server;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.cluster.ClusterNode;
import io.tickwheel.server.cluster.SoleOwner;
import io.tickwheel.server.dispatch.DeliveryOptions;
import io.tickwheel.server.dispatch.DeliveryService;
import io.tickwheel.server.http.HttpEdge;
import io.tickwheel.server.http.OriginCheck;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.security.FilePoll;
import io.tickwheel.server.security.TlsMaterial;
import io.tickwheel.server.security.TlsReload;
import io.tickwheel.server.security.Tokens;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.security.SecureRandom;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The server as one verticle: its context is the <em>owner</em> of the node (its schedulers, the firing hub, the
 * delivery service) and of the HTTP server, so every handler runs on that one event loop and nothing is shared
 * across threads. A single node and a cluster node start the same way; what they stand on differs (a store, or a
 * cluster coordinator), and so who owns the partitions ({@link Node}).
 *
 * <p>Start: read the TLS and tokens files → open the store (or the coordinator) → the webhook secret → listen
 * (answering 503 until the routes are in) → build the {@link Node} and open its routes ({@code /health} answers 503 {@code recovering} until it serves) →
 * start it: a single node recovers its pending deliveries and timers, a cluster node joins and keeps leases →
 * ready ({@link #start()} completes; Main then prints the listening line). From listening on, the TLS and tokens
 * files are re-read when they change ({@link TlsReload}, {@link Tokens#watch}).
 * Stop: stop serving (a single node stops its scheduler, waiting for a firing batch in flight; a cluster node hands
 * its partitions over and leaves) → close the wheel streams and the firing hub (subscribers get close 1001) → stop
 * accepting connections → stop the deliveries → close the store or coordinator (flushing it).
 */
public final class TickwheelServer extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(TickwheelServer.class.getName());

  /** Threads that decode and encode batch bodies off the owner loop (JSON work in parallel with the wheel). */
  static final int CODEC_THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  private final ServerConfig cfg;
  private final TimerStore givenStore;
  private final ClusterCoordinator givenCoordinator;
  private final LongSupplier clock;
  private final SchedulerOptions schedulerOptions;
  private final Metrics metrics;
  private DeliveryOptions deliveryOptions = DeliveryOptions.defaults();

  /** A single node's store (not metered), or {@code null}. */
  private TimerStore store;
  /** A cluster node's coordinator, or {@code null}. */
  private ClusterCoordinator coordinator;
  private HttpServer http;
  private WorkerExecutor codec;
  private Node node;
  private Future<Void> stopped;
  private volatile int port = -1;
  private volatile WebhookSecret webhookSecret;
  private TlsMaterial tls;
  private Tokens tokens;
  private TlsReload tlsReload;
  private io.vertx.core.net.PemTrustOptions trust;

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
   * servers on one {@link io.tickwheel.core.coordination.memory.MemoryCoordinator}); not closed on stop.
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

  /** The scheduler options {@code cfg} asks for (no window with {@code --store memory}: its timers are on the heap). */
  public static SchedulerOptions optionsFrom(ServerConfig cfg) {
    return SchedulerOptions.defaults(cfg.tickMs())
        .withWindowMs(cfg.store().equals("memory") ? 0 : cfg.windowMs())
        .withMaxPending(cfg.maxPending())
        .withMisfireThresholdMs(cfg.misfireThresholdMs())
        .withRetention(new Retention(cfg.logRetentionCount(), cfg.logRetentionMs()),
            SchedulerOptions.DEFAULT_TRIM_INTERVAL_MS);
  }

  @Override
  public Future<?> start() {
    long startedAt = clock.getAsLong();
    OriginCheck origins = new OriginCheck(cfg.allowedOrigins());
    HttpGate gate = new HttpGate();
    return loadEdge().compose(v -> open()).compose(v -> keptWebhookSecret()).compose(secret -> {
      webhookSecret = secret;
      return vertx.fileSystem().readFile("openapi.yaml").otherwise(e -> Buffer.buffer("openapi: 3.0.3\n"));
    }).compose(openapi -> {
      http = HttpEdge.create(vertx, cfg, tls, gate);
      return http.listen().map(server -> {
        port = server.actualPort();
        if (tls != null) {
          tlsReload = TlsReload.watch(vertx, server, cfg.tls(), tls, FilePoll.DEFAULT_PERIOD_MS);
        }
        tokens.watch(vertx, FilePoll.DEFAULT_PERIOD_MS);
        origins.own(cfg.url(port));
        codec = vertx.createSharedWorkerExecutor("tickwheel-codec-" + System.identityHashCode(this), CODEC_THREADS);
        node = new Node(vertx, context, cfg, store, coordinator, port, clock, schedulerOptions, deliveryOptions,
            webhookSecret, metrics, codec, origins, openapi, startedAt, tokens, trust);
        gate.open(node.router);
        return node;
      });
    }).compose(Node::start).onSuccess(v -> {
      if (coordinator != null) {
        LOG.log(System.Logger.Level.INFO, "joined the cluster as " + node.ownership.localNodeId() + " ("
            + cfg.cluster().partitions() + " partitions, lease " + cfg.cluster().leaseMs() + " ms)");
      }
    }).recover(e -> cleanup().transform(v -> Future.failedFuture(e)));
  }

  /**
   * Reads the TLS files and the tokens file (on a worker): what the command line checked may have changed since. A
   * file that no longer checks out fails the start with a {@link ConfigException} naming its flag.
   */
  private Future<Void> loadEdge() {
    return vertx.executeBlocking(() -> {
      if (cfg.tls().enabled()) {
        try {
          tls = TlsMaterial.load(cfg.tls().cert(), cfg.tls().key(), java.time.Instant.now());
        } catch (TlsMaterial.Invalid e) {
          throw new ConfigException(e.getMessage());
        }
      }
      if (cfg.tls().ca() != null) {
        try {
          trust = TlsMaterial.trust(cfg.tls().ca());
        } catch (TlsMaterial.Invalid e) {
          throw new ConfigException(e.getMessage());
        }
      }
      try {
        tokens = Tokens.load(cfg.token(), cfg.tokensFile());
      } catch (io.tickwheel.server.security.TokenTable.Invalid e) {
        throw new ConfigException("--tokens-file " + cfg.tokensFile() + " " + e.getMessage());
      }
      return null;
    });
  }

  /** Opens what the node stands on: the coordinator ({@code --cluster}) or the store. */
  private Future<Void> open() {
    if (cfg.cluster().enabled()) {
      Future<ClusterCoordinator> c = givenCoordinator != null ? Future.succeededFuture(givenCoordinator)
          : StoreFactory.openCoordinator(vertx, cfg);
      return c.map(opened -> {
        coordinator = opened;
        return null;
      });
    }
    Future<TimerStore> s = givenStore != null ? Future.succeededFuture(givenStore) : StoreFactory.open(vertx, cfg);
    return s.map(opened -> {
      store = opened;
      return null;
    });
  }

  /**
   * The configured secret, or the one the store (or the cluster's coordinator) keeps, storing a new 32-byte one at
   * first start. A stored text that is not a secret fails the start, saying so (without the text).
   */
  private Future<WebhookSecret> keptWebhookSecret() {
    if (cfg.webhooks().secret() != null) {
      return Future.succeededFuture(cfg.webhooks().secret());
    }
    Function<String, Future<String>> kept = coordinator != null ? coordinator::webhookSecret : store::webhookSecret;
    String where = coordinator != null ? "cluster's store" : store.name() + " store";
    return kept.apply(WebhookSecret.generate(new SecureRandom()).text()).map(text -> {
      try {
        return WebhookSecret.parse(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the webhook secret kept in the " + where + " is not valid ("
            + e.getMessage() + "); start with --webhook-secret", e);
      }
    });
  }

  /** The key callbacks are signed with (after start; {@code null} before). */
  public WebhookSecret webhookSecret() {
    return webhookSecret;
  }

  /** This node's cluster runtime (cluster mode, after start), or {@code null}. */
  public ClusterNode clusterNode() {
    Node n = node;
    return n != null && n.ownership instanceof ClusterNode c ? c : null;
  }

  @Override
  public Future<?> stop() {
    return cleanup();
  }

  /** Stops everything once (a second call gets the first one's future). */
  private Future<Void> cleanup() {
    if (stopped == null) {
      Node n = node;
      Future<Void> served = n != null ? n.shutdown() : Future.succeededFuture();
      stopped = served.compose(v -> onOwner(() -> closeAll(n)));
    }
    return stopped;
  }

  /** Runs {@code body} on this verticle's context (futures of other components may complete elsewhere). */
  private Future<Void> onOwner(Supplier<Future<Void>> body) {
    if (Vertx.currentContext() == context) {
      return body.get();
    }
    Promise<Void> p = Promise.promise();
    context.runOnContext(x -> body.get().onComplete(p));
    return p.future();
  }

  private Future<Void> closeAll(Node n) {
    if (tlsReload != null) {
      tlsReload.stop();
    }
    if (tokens != null) {
      tokens.stop();
    }
    // subscribers first, so WebSocket clients get close 1001 and SSE streams end cleanly rather than
    // seeing their connection dropped by the HTTP server's close; the hub ignores later publishes
    if (n != null) {
      n.wheelStream.closeAll();
    }
    Future<Void> subs = n != null ? n.hub.close().otherwiseEmpty() : Future.succeededFuture();
    return subs
        .compose(v -> http != null ? http.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> n != null ? n.deliveries.stop() : Future.<Void>succeededFuture())
        .compose(v -> codec != null ? codec.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> {
          if (coordinator != null) {
            return givenCoordinator == null ? coordinator.close().otherwiseEmpty() : Future.<Void>succeededFuture();
          }
          TimerStore s = store != null ? store : givenStore;
          return s != null ? s.close().otherwiseEmpty() : Future.<Void>succeededFuture();
        })
        .onComplete(ar -> metrics.close());
  }

  /** The HTTP routes (after start): what the served OpenAPI document must list. */
  public Router router() {
    Node n = node;
    return n != null ? n.router : null;
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
    Node n = node;
    return n != null ? n.deliveries : null;
  }

  /** A single node's scheduler (after start); {@code null} on a cluster node (its partitions have their own). */
  public Scheduler scheduler() {
    Node n = node;
    return n != null && n.ownership instanceof SoleOwner sole ? sole.scheduler() : null;
  }

  /** The meters (after start). */
  public Metrics metrics() {
    return metrics;
  }
}
