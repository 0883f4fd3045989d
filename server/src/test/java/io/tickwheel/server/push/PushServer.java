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
import java.util.function.Supplier;

/**
 * A real HTTP server for the push tests: a verticle that owns a {@link MemoryTimerStore} (whose firing reads the
 * hub sees complete a few turns late, see {@link AsyncReadStore}) and a {@link FiringHub},
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
  /** The store as the hub sees it. */
  volatile AsyncReadStore reads;
  volatile FiringHub hub;
  volatile Context context;
  volatile int port;

  private PushServer(Vertx vertx) {
    this.vertx = vertx;
  }

  static PushServer start(Vertx vertx, PushOptions options) {
    return start(vertx, options, FiringHub.SSE_HEARTBEAT_MS, new HttpServerOptions(), 0);
  }

  /**
   * @param seededFirings firings recorded in the store before the hub is created (a restarted server's log)
   */
  static PushServer start(Vertx vertx, PushOptions options, long heartbeatMs, HttpServerOptions serverOptions,
      int seededFirings) {
    PushServer s = new PushServer(vertx);
    await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        s.context = context;
        if (seededFirings > 0) {
          s.fireOnContext(false, null, repeat(seededFirings, "seeded"));
        }
        s.reads = new AsyncReadStore(s.store, context);
        s.hub = new FiringHub(vertx, s.reads, options, s.registry, heartbeatMs);
        Router router = Router.router(vertx);
        router.get("/v1/events").handler(s.hub::handleSse);
        HttpServer server = vertx.createHttpServer(serverOptions.setHost("127.0.0.1").setPort(0))
            .requestHandler(router)
            .webSocketHandler(ws -> {
              if ("/v1/ws".equals(ws.path())) {
                s.hub.handleWebSocket(ws, channelOf(ws));
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

  /** As {@link #fire(String...)}, every timer with {@code payload} (JSON text). */
  List<Firing> fireWithPayload(String payload, String... topics) {
    return call(() -> fireOnContext(true, payload, topics));
  }

  /** Records {@code n} firings of {@code topic} and publishes them. */
  List<Firing> fire(int n, String topic) {
    return fire(repeat(n, topic));
  }

  /**
   * Records and (if {@code publish}) publishes on the current (server) context; completes at once with the
   * memory store.
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

  /**
   * Publishes {@code perTurn} firings per event-loop turn of the server, {@code turns} times, cycling through
   * {@code topics}, every {@code periodMs} (0: in consecutive turns). Waits until all are published.
   *
   * @return how many of the turns happened while some subscriber was replaying the log
   */
  int publishOverTurns(int turns, int perTurn, long periodMs, String payload, String... topics) {
    return await(startPublishing(turns, perTurn, periodMs, false, payload, topics));
  }

  /**
   * As {@link #publishOverTurns}, without waiting; with {@code onceReplaying} the first turn waits (checking every
   * event-loop turn, so it cannot miss it) until some subscriber replays the log.
   */
  Future<Integer> startPublishing(int turns, int perTurn, long periodMs, boolean onceReplaying, String payload,
      String... topics) {
    Promise<Integer> done = Promise.promise();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
    int[] state = new int[2]; // turns done, turns during a replay
    Runnable[] step = new Runnable[1];
    step[0] = () -> {
      if (onceReplaying && state[0] == 0 && hub.replaying() == 0) {
        if (System.nanoTime() > deadline) {
          done.fail(new AssertionError("no subscriber started replaying within " + TIMEOUT_S + " s"));
        } else {
          context.runOnContext(v -> step[0].run());
        }
        return;
      }
      if (hub.replaying() > 0) {
        state[1]++;
      }
      String[] batch = new String[perTurn];
      for (int i = 0; i < perTurn; i++) {
        batch[i] = topics[(state[0] * perTurn + i) % topics.length];
      }
      fireOnContext(true, payload, batch).onFailure(done::tryFail);
      if (++state[0] == turns) {
        done.tryComplete(state[1]);
      } else if (periodMs > 0) {
        vertx.setTimer(periodMs, id -> step[0].run());
      } else {
        context.runOnContext(v -> step[0].run());
      }
    };
    context.runOnContext(v -> step[0].run());
    return done.future();
  }

  /** The latest seq in the store. */
  long lastSeq() {
    return call(store::lastSeq);
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

  /** The Netty channel of a socket from {@code HttpServer.webSocketHandler} (as the server's routes pass it). */
  static io.netty.channel.Channel channelOf(io.vertx.core.http.ServerWebSocket ws) {
    return ((io.vertx.core.http.impl.WebSocketImplBase<?>) ws).channelHandlerContext().channel();
  }


}
