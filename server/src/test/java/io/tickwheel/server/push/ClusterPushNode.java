package io.tickwheel.server.push;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.server.http.FiringPushApi;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * One cluster node's push side for the in-process cluster tests: a verticle with a {@link ClusterFiringFeed} over a
 * shared coordinator, a {@link FiringHub} serving it, {@code /v1/ws} and {@code /v1/events} on a free loopback port,
 * and (unless told otherwise) the coordinator's broadcasts wired to the feed, as the cluster runtime does.
 *
 * <p>The helper methods block the calling (test) thread; never call them on a Vert.x thread.
 */
final class ClusterPushNode {

  final Vertx vertx;
  volatile ClusterFiringFeed feed;
  /** The broadcasts handed to the feed, in order, each added once the feed handled it. */
  final List<String> broadcasts = new CopyOnWriteArrayList<>();
  volatile FiringHub hub;
  volatile Context context;
  volatile int port;

  private ClusterPushNode(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * @param hints whether the node gets the coordinator's broadcasts (false: every hint is lost, only the periodic
   *              catch-up finds firings)
   */
  static ClusterPushNode start(Vertx vertx, ClusterCoordinator coordinator, int partitions, boolean hints,
      long catchUpMs, PushOptions options) {
    ClusterPushNode n = new ClusterPushNode(vertx);
    PushServer.await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        n.context = context;
        n.feed = new ClusterFiringFeed(vertx, coordinator, partitions, catchUpMs, 64, 4);
        n.hub = new FiringHub(vertx, n.feed, options, new SimpleMeterRegistry(), FiringHub.SSE_HEARTBEAT_MS);
        if (hints) {
          coordinator.onBroadcast(m -> {
            n.feed.onBroadcast(m);
            n.broadcasts.add(m);
          });
        }
        Router router = Router.router(vertx);
        router.get("/v1/events").handler(n.hub::handleSse);
        return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
            .requestHandler(router)
            .webSocketHandler(ws -> n.hub.handleWebSocket(ws, PushServer.channelOf(ws)))
            .listen().onSuccess(h -> n.port = h.actualPort());
      }
    }));
    return n;
  }

  /** This node's pusher and sink (a node started by {@link #startPushing}), else null. */
  volatile FiringPusher pusher;
  volatile ClusterFiringSink sink;
  /** The push WebSockets a node started by {@link #startPushing} accepted. */
  final java.util.concurrent.atomic.AtomicInteger pushSockets = new java.util.concurrent.atomic.AtomicInteger();
  /**
   * While set, a node started by {@link #startPushing} answers each push as the push route does one whose token is no
   * longer an admin token (close 1008, the push not taken); {@link #pushesRefused} counts them.
   */
  volatile boolean pushTokenDemoted;
  final java.util.concurrent.atomic.AtomicInteger pushesRefused = new java.util.concurrent.atomic.AtomicInteger();
  /** While set, a node started by {@link #startPushing} drops every broadcast (it hears of no interest change). */
  volatile boolean deaf;

  /**
   * A node as the cluster runtime wires one: it gets the coordinator's broadcasts, announces its subscribers'
   * interest, takes pushed firings on {@value FiringPush#PATH}, and pushes what it records through {@link #sink} with
   * its {@link #pusher} (as node {@code nodeId}).
   */
  static ClusterPushNode startPushing(Vertx vertx, ClusterCoordinator coordinator, int partitions, String nodeId,
      long catchUpMs) {
    return startPushing(vertx, coordinator, partitions, nodeId, catchUpMs, true);
  }

  /**
   * As {@link #startPushing(Vertx, ClusterCoordinator, int, String, long)}; {@code sockets} false: a node of an earlier
   * version, which takes pushes as {@code POST}s only (its {@value FiringPush#PATH} refuses a WebSocket upgrade with
   * 404, as its router did).
   */
  static ClusterPushNode startPushing(Vertx vertx, ClusterCoordinator coordinator, int partitions, String nodeId,
      long catchUpMs, boolean sockets) {
    ClusterPushNode n = new ClusterPushNode(vertx);
    PushServer.await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        n.context = context;
        Router router = Router.router(vertx);
        router.get("/v1/events").handler(rc -> n.hub.handleSse(rc));
        router.post(FiringPush.PATH).handler(io.vertx.ext.web.handler.BodyHandler.create(false)).handler(rc -> {
          n.feed.onPush(FiringPush.decode(rc.body().buffer(), partitions));
          rc.response().setStatusCode(204).end();
        });
        return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
            .requestHandler(router)
            .webSocketHandshakeHandler(h -> {
              if (h.path().equals(FiringPush.PATH) && !sockets) {
                h.reject(404);
              } else {
                h.accept();
              }
            })
            .webSocketHandler(ws -> {
              if (!ws.path().equals(FiringPush.PATH)) {
                n.hub.handleWebSocket(ws, PushServer.channelOf(ws));
              } else {
                n.pushSockets.incrementAndGet();
                new FiringPushApi(n.feed).serve(ws, () -> {
                  if (n.pushTokenDemoted) {
                    n.pushesRefused.incrementAndGet();
                    return false;
                  }
                  return true;
                });
              }
            })
            .listen().onSuccess(h -> {
              n.port = h.actualPort();
              n.feed = new ClusterFiringFeed(vertx, coordinator, partitions, catchUpMs, 64, 4);
              n.pusher = new FiringPusher(vertx, nodeId);
              n.feed.enablePush(n.pusher, "http://127.0.0.1:" + n.port);
              coordinator.onBroadcast(m -> {
                if (!n.deaf) {
                  n.feed.onBroadcast(m);
                  n.broadcasts.add(m);
                }
              });
              n.sink = new ClusterFiringSink(n.feed, coordinator, context, n.pusher);
              n.hub = new FiringHub(vertx, n.feed, PushOptions.defaults(), new SimpleMeterRegistry(),
                  FiringHub.SSE_HEARTBEAT_MS);
            });
      }
    }));
    return n;
  }

  /** Runs {@code action} on the node's context and waits for its future. */
  <T> T call(Supplier<Future<T>> action) {
    Promise<T> p = Promise.promise();
    context.runOnContext(v -> {
      try {
        action.get().onComplete(p);
      } catch (RuntimeException e) {
        p.fail(e);
      }
    });
    return PushServer.await(p.future());
  }

  WsProbe ws() {
    return WsProbe.connect(vertx, port, new io.vertx.core.http.WebSocketClientOptions());
  }
}
