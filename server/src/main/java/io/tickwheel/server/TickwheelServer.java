package io.tickwheel.server;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.http.ClusterApi;
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
import io.tickwheel.server.push.FiringHub;
import io.tickwheel.server.push.PushOptions;
import io.tickwheel.server.route.LocalTimers;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.vertx.core.Future;
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

  /** A server that opens the store {@code cfg} names and reads the system clock. */
  public TickwheelServer(ServerConfig cfg) {
    this(cfg, null, System::currentTimeMillis, null);
  }

  /**
   * @param givenStore       a store to use instead of opening one (tests), or {@code null}; closed on stop
   * @param clock            epoch ms
   * @param schedulerOptions scheduler options, or {@code null} for those derived from {@code cfg}
   */
  public TickwheelServer(ServerConfig cfg, TimerStore givenStore, LongSupplier clock, SchedulerOptions schedulerOptions) {
    this.cfg = cfg;
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
          ClusterApi.singleNode(() -> cfg.url(port), clock), new WebhookSecretApi(this::webhookSecret));
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

  @Override
  public Future<?> stop() {
    return cleanup();
  }

  private Future<Void> cleanup() {
    // subscribers first, so WebSocket clients get close 1001 and SSE streams end cleanly rather than
    // seeing their connection dropped by the HTTP server's close; the hub ignores later publishes
    if (wheelStream != null) {
      wheelStream.closeAll();
    }
    Future<Void> subs = hub != null ? hub.close().otherwiseEmpty() : Future.succeededFuture();
    return subs
        .compose(v -> http != null ? http.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> scheduler != null ? scheduler.stop() : Future.<Void>succeededFuture())
        .compose(v -> codec != null ? codec.close().otherwiseEmpty() : Future.<Void>succeededFuture())
        .compose(v -> {
          TimerStore s = store != null ? store : givenStore;
          return s != null ? s.close().otherwiseEmpty() : Future.<Void>succeededFuture();
        });
  }

  /** The HTTP routes (after start): what the served OpenAPI document must list. */
  public Router router() {
    return router;
  }

  /** The port the server listens on (after start), -1 before. */
  public int actualPort() {
    return port;
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
