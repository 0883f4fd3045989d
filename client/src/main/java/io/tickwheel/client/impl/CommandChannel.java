package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The client's one command WebSocket: writes {@link Command}s with fresh refs (pipelined, at most
 * {@code maxInFlight} unanswered, never while the socket's write queue is full), matches {@code result} messages
 * to them by ref in whatever order they come, queues at most {@code maxQueued} beyond that, reconnects with
 * backoff while anything waits, writes retryable in-flight commands again after a disconnect (others fail with
 * {@code connection_lost}), and fails what passes its deadline with {@code timeout} (a sweep every
 * {@link #sweepMs} while anything is pending).
 *
 * <p>A channel to a partition's owner ({@link CommandRouter}) is given an {@code unreachable} hand-off: when a
 * connection to the owner cannot be made, the commands waiting for it (retried ones included) are handed off
 * instead of waiting for a reconnect, and the channel waits until it is given commands again.
 *
 * <p>Not thread safe: every method runs on the client's context.
 */
final class CommandChannel {
  private static final System.Logger LOG = System.getLogger(CommandChannel.class.getName());

  private final Vertx vertx;
  private final Context context;
  private final WebSocketClient wsClient;
  private final WebSocketConnectOptions connectOptions;
  private final Endpoints endpoints;
  private final int maxInFlight;
  private final int maxQueued;
  private final long requestTimeoutMs;
  private final long sweepMs;
  private final ReconnectBackoff backoff;

  private final LinkedHashMap<String, Command> inFlight = new LinkedHashMap<>();
  private final ArrayDeque<Command> queue = new ArrayDeque<>();
  private WebSocket ws;
  private boolean connecting;
  private long reconnectTimer = -1;
  private long sweepTimer = -1;
  private long nextRef;
  private boolean closed;
  private String lastConnectFailure;
  private long connections;
  private final java.util.function.Consumer<List<Command>> unreachable;

  CommandChannel(Vertx vertx, Context context, WebSocketClient wsClient, Endpoints endpoints,
      WebSocketConnectOptions connectOptions,
      TickwheelClientOptions o) {
    this(vertx, context, wsClient, endpoints, connectOptions, o, null);
  }

  /**
   * @param unreachable given the waiting commands (not done, in order) when a connection cannot be made, or
   *     {@code null}: they wait for a reconnect after the backoff
   */
  CommandChannel(Vertx vertx, Context context, WebSocketClient wsClient, Endpoints endpoints,
      WebSocketConnectOptions connectOptions, TickwheelClientOptions o,
      java.util.function.Consumer<List<Command>> unreachable) {
    this.unreachable = unreachable;
    this.vertx = vertx;
    this.context = context;
    this.wsClient = wsClient;
    this.connectOptions = connectOptions;
    this.endpoints = endpoints;
    this.maxInFlight = o.getMaxInFlight();
    this.maxQueued = o.getMaxQueued();
    this.requestTimeoutMs = o.getRequestTimeoutMs();
    this.sweepMs = Math.max(5, Math.min(1_000, requestTimeoutMs / 4));
    this.backoff = new ReconnectBackoff(o.getReconnectInitialBackoffMs(), o.getReconnectMaxBackoffMs());
  }

  /** A deadline {@code requestTimeoutMs} from now, for a new command. */
  long deadline() {
    return System.nanoTime() + requestTimeoutMs * 1_000_000L;
  }

  int inFlight() {
    return inFlight.size();
  }

  int queued() {
    return queue.size();
  }

  /** True when {@code extra} more commands fit in the queue. */
  boolean roomToQueue(int extra) {
    return queue.size() + extra <= maxQueued;
  }

  /** Connections opened so far. */
  long connections() {
    return connections;
  }

  /** Writes {@code c} now if a slot is free, else queues it, else fails it with {@code queue_full}. */
  void submit(Command c) {
    if (closed) {
      c.promise.tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED, "the client is closed", false));
      return;
    }
    if (queue.isEmpty() && canWrite()) {
      write(c);
    } else if (queue.size() >= maxQueued) {
      ensureConnected(); // with maxQueued 0, calls before the connection is open fail, and open it
      c.promise.tryFail(TickwheelException.client(TickwheelException.QUEUE_FULL, "not sent: " + inFlight.size()
          + " commands in flight (maxInFlight " + maxInFlight + ") and " + queue.size() + " queued (maxQueued "
          + maxQueued + ")", false));
      return;
    } else {
      queue.add(c);
      ensureConnected();
    }
    ensureSweep();
  }

  /**
   * Whether a command can be written now. A socket that closed but whose close handler has not run yet cannot (its
   * {@code writeQueueFull} throws): the command queues, and the close handler reconnects for it.
   */
  private boolean canWrite() {
    if (ws == null || inFlight.size() >= maxInFlight || ws.isClosed()) {
      return false;
    }
    try {
      return !ws.writeQueueFull();
    } catch (IllegalStateException closed) {
      return false;
    }
  }

  private void write(Command c) {
    String ref = Long.toString(nextRef++, 36);
    c.written = true;
    inFlight.put(ref, c);
    ws.writeTextMessage(c.frame(ref));
  }

  private void pump() {
    while (!queue.isEmpty() && canWrite()) {
      Command c = queue.poll();
      if (!c.done()) {
        write(c);
      }
    }
  }

  private void ensureConnected() {
    if (ws != null || connecting || closed || reconnectTimer >= 0) {
      return;
    }
    connecting = true;
    endpoints.connect(wsClient, connectOptions).onComplete(ar -> {
      connecting = false;
      if (ar.failed()) {
        lastConnectFailure = String.valueOf(ar.cause().getMessage());
        LOG.log(System.Logger.Level.DEBUG, "command WebSocket connect failed", ar.cause());
        if (unreachable != null && !closed) {
          List<Command> waiting = new ArrayList<>(queue.size());
          for (Command c : queue) {
            if (!c.done()) {
              waiting.add(c);
            }
          }
          queue.clear();
          unreachable.accept(waiting);
          return;
        }
        scheduleReconnect();
        return;
      }
      WebSocket socket = ar.result();
      if (closed) {
        socket.close();
        return;
      }
      connections++;
      lastConnectFailure = null;
      backoff.reset();
      ws = socket;
      socket.textMessageHandler(this::onText);
      socket.drainHandler(v -> pump());
      socket.closeHandler(v -> onClosed(socket));
      socket.exceptionHandler(t -> LOG.log(System.Logger.Level.DEBUG, "command WebSocket error", t));
      pump();
    });
  }

  private void scheduleReconnect() {
    if (closed || reconnectTimer >= 0 || (queue.isEmpty() && inFlight.isEmpty())) {
      return;
    }
    reconnectTimer = vertx.setTimer(backoff.next(), t -> {
      reconnectTimer = -1;
      if (!queue.isEmpty()) {
        ensureConnected();
      }
    });
  }

  private void onText(String text) {
    JsonObject m;
    try {
      m = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      LOG.log(System.Logger.Level.WARNING, "not a JSON object from the server: " + Answers.shorten(text));
      return;
    }
    String type = m.getString("type");
    Object ref = m.getValue("ref");
    if ("result".equals(type) && ref instanceof String r) {
      Command c = inFlight.remove(r);
      if (c != null) { // null: timed out before its answer came
        c.promise.tryComplete(m);
      }
      pump();
    } else if ("error".equals(type) && ref instanceof String r) {
      Command c = inFlight.remove(r);
      if (c != null) {
        c.promise.tryFail(Answers.error(400, m));
      }
      pump();
    } else if ("error".equals(type)) {
      LOG.log(System.Logger.Level.WARNING, "server error on the command WebSocket: " + Answers.shorten(text));
    }
  }

  private void onClosed(WebSocket socket) {
    if (socket != ws) {
      return;
    }
    ws = null;
    if (closed) {
      return;
    }
    long now = System.nanoTime();
    List<Command> retry = new ArrayList<>();
    for (Command c : inFlight.values()) {
      c.written = false;
      if (c.done()) {
        continue;
      }
      if (c.retryable && !c.expired(now)) {
        retry.add(c);
      } else {
        c.promise.tryFail(TickwheelException.client(TickwheelException.CONNECTION_LOST, c.op
            + ": the connection closed before its answer (code " + socket.closeStatusCode() + "); it may have been"
            + " applied", true));
      }
    }
    inFlight.clear();
    for (int i = retry.size() - 1; i >= 0; i--) {
      queue.addFirst(retry.get(i));
    }
    scheduleReconnect();
  }

  private void ensureSweep() {
    if (sweepTimer < 0 && !closed) {
      sweepTimer = vertx.setPeriodic(sweepMs, t -> sweep());
    }
  }

  private void sweep() {
    long now = System.nanoTime();
    for (Iterator<Command> it = queue.iterator(); it.hasNext(); ) {
      Command c = it.next();
      if (c.done()) {
        it.remove();
      } else if (c.expired(now)) {
        it.remove();
        c.promise.tryFail(timeout(c, false));
      }
    }
    for (Iterator<Command> it = inFlight.values().iterator(); it.hasNext(); ) {
      Command c = it.next();
      if (c.expired(now)) {
        it.remove();
        c.promise.tryFail(timeout(c, true));
      }
    }
    if (queue.isEmpty() && inFlight.isEmpty()) {
      vertx.cancelTimer(sweepTimer);
      sweepTimer = -1;
    } else {
      pump();
    }
  }

  private TickwheelException timeout(Command c, boolean written) {
    return TickwheelException.client(TickwheelException.TIMEOUT, c.op + ": no answer within requestTimeoutMs "
        + requestTimeoutMs + (written ? " (written: it may have been applied)" : " (never written)")
        + (lastConnectFailure == null ? "" : "; last connect failure: " + lastConnectFailure), written);
  }

  /** Fails everything pending with {@code client_closed} and closes the socket. */
  Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    if (reconnectTimer >= 0) {
      vertx.cancelTimer(reconnectTimer);
    }
    for (Command c : queue) {
      c.promise.tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED, c.op
          + ": the client was closed before it was written", false));
    }
    queue.clear();
    for (Command c : inFlight.values()) {
      c.promise.tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED, c.op
          + ": the client was closed before its answer; it may have been applied", true));
    }
    inFlight.clear();
    WebSocket s = ws;
    ws = null;
    return s == null ? Future.succeededFuture() : s.close().otherwiseEmpty();
  }
}
