package io.tickwheel.server.push;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A real HTTP server for the push tests: a verticle that owns a {@link MemoryTimerStore} and a {@link FiringHub},
 * mounts {@code /v1/ws} through {@code webSocketHandler} and {@code /v1/events} through a {@link Router}, and
 * listens on a free loopback port. Firings are produced the way the server does it: timers are put, settled with
 * {@code recordFirings}, and each recorded firing is published, all on the server's context.
 *
 * <p>The helper methods block the calling (test) thread; never call them on a Vert.x thread.
 */
final class PushServer {

  static final long TIMEOUT_S = 20;

  final Vertx vertx;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final MemoryTimerStore store = new MemoryTimerStore();
  private final AtomicLong ids = new AtomicLong();
  volatile FiringHub hub;
  volatile Context context;
  volatile int port;

  private PushServer(Vertx vertx) {
    this.vertx = vertx;
  }

  static PushServer start(Vertx vertx, PushOptions options) {
    return start(vertx, options, FiringHub.SSE_HEARTBEAT_MS, new HttpServerOptions());
  }

  static PushServer start(Vertx vertx, PushOptions options, long heartbeatMs, HttpServerOptions serverOptions) {
    PushServer s = new PushServer(vertx);
    await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        s.context = context;
        s.hub = new FiringHub(vertx, s.store, options, s.registry, heartbeatMs);
        Router router = Router.router(vertx);
        router.get("/v1/events").handler(s.hub::handleSse);
        HttpServer server = vertx.createHttpServer(serverOptions.setHost("127.0.0.1").setPort(0))
            .requestHandler(router)
            .webSocketHandler(ws -> {
              if ("/v1/ws".equals(ws.path())) {
                s.hub.handleWebSocket(ws);
              } else {
                ws.close((short) 1008, "no such endpoint");
              }
            });
        return server.listen().onSuccess(h -> s.port = h.actualPort());
      }
    }));
    return s;
  }

  /** Runs {@code action} on the server's context and waits for its future. */
  <T> T call(Supplier<Future<T>> action) {
    Promise<T> p = Promise.promise();
    context.runOnContext(v -> {
      try {
        action.get().onComplete(p);
      } catch (RuntimeException e) {
        p.fail(e);
      }
    });
    return await(p.future());
  }

  /** Records one firing per topic (in order) and publishes them, in one turn of the server's context. */
  List<Firing> fire(String... topics) {
    return call(() -> fireOnContext(true, null, topics));
  }

  /** Records {@code n} firings of {@code topic} and publishes them. */
  List<Firing> fire(int n, String topic) {
    return fire(repeat(n, topic));
  }

  /** Records firings in the log without publishing them: history from before anyone subscribed. */
  List<Firing> record(String... topics) {
    return call(() -> fireOnContext(false, null, topics));
  }

  List<Firing> record(int n, String topic) {
    return record(repeat(n, topic));
  }

  /**
   * Records and publishes on the current (server) context; completes at once with the memory store.
   *
   * @param payload JSON text or {@code null}
   */
  Future<List<Firing>> fireOnContext(boolean publish, String payload, String... topics) {
    long now = System.currentTimeMillis();
    List<Timer> timers = new ArrayList<>(topics.length);
    List<FiringRequest> requests = new ArrayList<>(topics.length);
    for (String topic : topics) {
      String id = "t" + ids.incrementAndGet();
      timers.add(new Timer(id, topic, Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, payload, now, now, 0, 0));
      requests.add(new FiringRequest(id, 0, 0, true, now, now, null));
    }
    return store.putAll(timers)
        .compose(v -> store.recordFirings(requests))
        .map(results -> {
          List<Firing> out = new ArrayList<>(results.size());
          for (FiringResult r : results) {
            out.add(r.firing());
            if (publish) {
              hub.publish(r.firing());
            }
          }
          return out;
        });
  }

  /** Trims the log to its newest {@code keep} firings. */
  long trimTo(long keep) {
    return call(() -> store.trimFirings(new Retention(keep, Long.MAX_VALUE / 2), System.currentTimeMillis()));
  }

  int subscribers() {
    return hub.subscribers();
  }

  double counter(String name, String transport) {
    Counter c = registry.find(name).tag("transport", transport).counter();
    return c == null ? Double.NaN : c.count();
  }

  double gauge(String name, String transport) {
    Gauge g = registry.find(name).tag("transport", transport).gauge();
    return g == null ? Double.NaN : g.value();
  }

  static String[] repeat(int n, String topic) {
    String[] out = new String[n];
    java.util.Arrays.fill(out, topic);
    return out;
  }

  static <T> T await(Future<T> f) {
    try {
      return f.await(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no result within " + TIMEOUT_S + " s", e);
    }
  }

  /** Waits until {@code condition} holds, polling; fails after {@code ms}. */
  static void eventually(long ms, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + ms + " ms: " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
