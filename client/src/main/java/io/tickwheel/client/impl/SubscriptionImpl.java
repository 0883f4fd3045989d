package io.tickwheel.client.impl;

import io.tickwheel.client.Firing;
import io.tickwheel.client.Subscription;
import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A subscription on a WebSocket of its own. Where it resumes: the cursor of the last delivered firing if the server
 * sends cursors, else its seq; before any firing, the position it started from (the {@code from} given, or the
 * {@code cursor}, else {@code seq}, of the server's {@code subscribed} answer for a live-only start); so it resumes
 * on any node of a cluster. A firing whose seq is not after the
 * last delivered one is dropped (single node: one seq per store; skipped for firings that name a
 * {@code partition}, whose seqs are per partition and resume by cursor). Every close other than {@link #close()}
 * leads to a reconnect after the backoff; an {@code error} answer to the subscribe (e.g. {@code from} after the
 * latest seq while the server is still behind) closes the socket and retries the same way; a gap notice
 * ({@code error} with code {@code gap}: firings trimmed before they could be replayed) is logged and the retained
 * firings that follow it are delivered. It pings every half of
 * {@code idleTimeoutMs} so an idle subscription stays open and a dead peer is noticed.
 *
 * <p>Volatile fields are read from any thread; everything else runs on the client's context.
 */
final class SubscriptionImpl implements Subscription {
  private static final System.Logger LOG = System.getLogger(SubscriptionImpl.class.getName());
  private static final String PING = new JsonObject().put("op", "ping").encode();

  private final Vertx vertx;
  private final Context context;
  private final WebSocketClient wsClient;
  private final WebSocketConnectOptions connectOptions;
  private final Endpoints endpoints;
  private final List<String> topics;
  private final Handler<Firing> handler;
  private final ReconnectBackoff backoff;
  private final long pingMs;
  private final Promise<Void> subscribed = Promise.promise();

  private volatile long lastSeq = -1;
  private volatile String lastCursor;
  private volatile long reconnects;
  private boolean everConnected;
  private WebSocket ws;
  private long pingTimer = -1;
  private long retryTimer = -1;
  private boolean closed;

  SubscriptionImpl(Vertx vertx, Context context, WebSocketClient wsClient, Endpoints endpoints,
      WebSocketConnectOptions connectOptions,
      TickwheelClientOptions o, List<String> topics, Object from, Handler<Firing> handler) {
    if (topics == null || topics.isEmpty()) {
      throw new IllegalArgumentException("topics must name at least one topic (\"*\" for all), was " + topics);
    }
    if (from != null && !(from instanceof Long || from instanceof Integer || from instanceof String)) {
      throw new IllegalArgumentException("from must be null, a Long seq or a String cursor, was "
          + from.getClass().getName());
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    this.vertx = vertx;
    this.context = context;
    this.wsClient = wsClient;
    this.connectOptions = connectOptions;
    this.endpoints = endpoints;
    this.topics = List.copyOf(topics);
    this.handler = handler;
    this.backoff = new ReconnectBackoff(o.getReconnectInitialBackoffMs(), o.getReconnectMaxBackoffMs());
    this.pingMs = Math.max(50, o.getIdleTimeoutMs() / 2);
    if (from instanceof String cursor) {
      this.lastCursor = cursor;
    } else if (from != null) {
      this.lastSeq = ((Number) from).longValue();
    }
  }

  /** Opens the first connection (on the client's context). */
  void start() {
    context.runOnContext(v -> connect());
  }

  private void connect() {
    if (closed) {
      return;
    }
    endpoints.connect(wsClient, connectOptions).onComplete(ar -> {
      if (ar.failed()) {
        LOG.log(System.Logger.Level.DEBUG, "subscription connect failed: " + ar.cause().getMessage());
        retryLater();
        return;
      }
      WebSocket socket = ar.result();
      if (closed) {
        socket.close();
        return;
      }
      if (everConnected) {
        reconnects++;
      }
      everConnected = true;
      ws = socket;
      socket.textMessageHandler(text -> onText(socket, text));
      socket.closeHandler(v -> onClosed(socket));
      socket.exceptionHandler(t -> LOG.log(System.Logger.Level.DEBUG, "subscription WebSocket error", t));
      JsonObject sub = new JsonObject().put("op", "subscribe").put("topics", new JsonArray(topics));
      if (lastCursor != null) {
        sub.put("from", lastCursor);
      } else if (lastSeq >= 0) {
        sub.put("from", lastSeq);
      }
      socket.writeTextMessage(sub.encode());
      pingTimer = vertx.setPeriodic(pingMs, t -> {
        if (!socket.isClosed()) {
          socket.writeTextMessage(PING);
        }
      });
    });
  }

  private void onText(WebSocket socket, String text) {
    if (closed || socket != ws) {
      return;
    }
    JsonObject m;
    try {
      m = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      LOG.log(System.Logger.Level.WARNING, "not a JSON object from the server: " + Answers.shorten(text));
      return;
    }
    String type = m.getString("type");
    if ("fired".equals(type)) {
      deliver(m);
    } else if ("subscribed".equals(type)) {
      backoff.reset();
      if (lastSeq < 0 && lastCursor == null) {
        // a live start: a resume continues after the server's position at that time (a cluster sends no seq)
        String cursor = m.getString("cursor");
        if (cursor != null) {
          lastCursor = cursor;
        } else {
          lastSeq = m.getLong("seq", 0L);
        }
      }
      subscribed.tryComplete();
    } else if ("error".equals(type) && "gap".equals(m.getString("code"))) {
      // firings trimmed before they could be replayed; what is retained follows on this socket
      LOG.log(System.Logger.Level.WARNING, "firings trimmed before they could be delivered: " + Answers.shorten(text));
    } else if ("error".equals(type)) {
      LOG.log(System.Logger.Level.WARNING, "subscribe refused, retrying: " + Answers.shorten(text));
      socket.close();
    } else if ("gap".equals(type)) {
      LOG.log(System.Logger.Level.WARNING, "firings trimmed before they could be delivered: " + Answers.shorten(text));
    }
  }

  private void deliver(JsonObject m) {
    long seq = m.getLong("seq", -1L);
    boolean partitioned = m.containsKey("partition");
    if (!partitioned && seq >= 0 && seq <= lastSeq) {
      return; // delivered before a reconnect
    }
    if (!partitioned) {
      lastSeq = seq;
    }
    String cursor = m.getString("cursor");
    if (cursor != null) {
      lastCursor = cursor;
    }
    try {
      handler.handle(Firing.fromJson(m));
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "subscription handler failed on firing seq " + seq, e);
    }
  }

  private void onClosed(WebSocket socket) {
    if (socket != ws) {
      return;
    }
    ws = null;
    if (pingTimer >= 0) {
      vertx.cancelTimer(pingTimer);
      pingTimer = -1;
    }
    retryLater();
  }

  private void retryLater() {
    if (closed || retryTimer >= 0) {
      return;
    }
    retryTimer = vertx.setTimer(backoff.next(), t -> {
      retryTimer = -1;
      connect();
    });
  }

  @Override
  public Future<Void> subscribed() {
    return subscribed.future();
  }

  @Override
  public long lastSeq() {
    return lastSeq;
  }

  @Override
  public String lastCursor() {
    return lastCursor;
  }

  @Override
  public long reconnects() {
    return reconnects;
  }

  @Override
  public Future<Void> close() {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> {
      if (closed) {
        done.complete();
        return;
      }
      closed = true;
      subscribed.tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED,
          "the subscription was closed", false));
      if (pingTimer >= 0) {
        vertx.cancelTimer(pingTimer);
      }
      if (retryTimer >= 0) {
        vertx.cancelTimer(retryTimer);
      }
      WebSocket s = ws;
      ws = null;
      if (s == null) {
        done.complete();
      } else {
        s.close().onComplete(ar -> done.complete());
      }
    });
    return done.future();
  }
}
