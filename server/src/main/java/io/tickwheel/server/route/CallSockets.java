package io.tickwheel.server.route;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A forwarding node's WebSockets to the owners it calls ({@link CallMessages}): one per owner address, opened by the
 * first call to it (with the internal route's credentials: {@link InternalCodec#NODE_HEADER}, no {@code Origin}, the
 * admin token; over TLS, verified, to an {@code https://} owner) and kept open; its calls share it, many in flight,
 * each answered by id. Calls made while it opens wait for it.
 *
 * <p>What goes as a {@code POST} instead ({@link Post}): a call over {@link CallMessages#MAX_CALL_BYTES}; every call
 * to an owner that refused the upgrade with 404 or 405 (a node of an earlier version, during a rolling upgrade) for
 * {@value #POSTS_ONLY_MS} ms, then the upgrade is tried again; every call to an owner whose socket could not be
 * opened otherwise, for {@value #RETRY_MS} ms (the calls that waited for it included: a {@code POST} gets the
 * owner's answer, or fails as an unreachable owner's call does).
 *
 * <p>Losses: when a socket closes (the owner stopped, the network failed, the token was removed, an answer could not be
 * read), its calls in flight fail as {@code unreachable}, "may have been applied" (they were sent; their answers will
 * not come). A call whose message could not be written (the socket closing under it) goes as a {@code POST}. A call whose caller gave up (its timeout) is forgotten; its answer, if it comes, is dropped.
 *
 * <p>Owner context only (the node's event loop); not thread safe.
 */
final class CallSockets {

  private static final System.Logger LOG = System.getLogger(CallSockets.class.getName());

  /** How long an owner that refused the upgrade gets {@code POST}s only before it is tried again, ms. */
  static final long POSTS_ONLY_MS = 60_000;
  /** How long an owner whose socket failed to open gets {@code POST}s only, ms. */
  static final long RETRY_MS = 1_000;

  /** Sends a call as a {@code POST}; runs {@code onSent} once its request is written. */
  interface Post {
    void post(String base, Buffer body, Promise<Forwarder.Answer> done, Runnable onSent);
  }

  /** A call waiting for its owner's socket to open. */
  private record Queued(Buffer body, Promise<Forwarder.Answer> done, Runnable onSent) {}

  private static final class Owner {
    WebSocket socket;
    boolean connecting;
    /** Until when (System.nanoTime) calls go as POSTs; 0: none. */
    long postsUntil;
    final List<Queued> queued = new ArrayList<>();
    final Map<Long, Promise<Forwarder.Answer>> waiting = new HashMap<>();
  }

  private final WebSocketClient client;
  private final String nodeId;
  private final Supplier<String> token;
  private final int connectTimeoutMs;
  private final Post post;
  private final Map<String, Owner> owners = new HashMap<>();
  private long nextId;
  private boolean closed;

  /** Calls sent over a socket, and as a POST (tests and metrics; owner context writes them). */
  volatile long overSocket;
  volatile long posted;

  CallSockets(Vertx vertx, RouteOptions opts, String nodeId, Supplier<String> token, Post post) {
    this(opts, nodeId, token, post, vertx.createWebSocketClient(clientOptions(opts)));
  }

  /** With the client that opens the sockets (closed by {@link #close}). */
  CallSockets(RouteOptions opts, String nodeId, Supplier<String> token, Post post, WebSocketClient client) {
    this.nodeId = nodeId;
    this.token = token;
    this.connectTimeoutMs = opts.connectTimeoutMs();
    this.post = post;
    this.client = client;
  }

  private static WebSocketClientOptions clientOptions(RouteOptions opts) {
    WebSocketClientOptions o = new WebSocketClientOptions().setTcpNoDelay(true).setVerifyHost(true)
        .setConnectTimeout(opts.connectTimeoutMs()).setIdleTimeout(60)
        .setMaxFrameSize(CallMessages.MAX_CALL_BYTES).setMaxMessageSize(CallMessages.MAX_ANSWER_BYTES);
    if (opts.trust() != null) {
      o.setTrustOptions(opts.trust());
    }
    return o;
  }

  /**
   * Sends call {@code body} to the owner at {@code base}: over its socket (opened if need be), or as a {@code POST}.
   * {@code done} completes with the owner's answer, or fails with a {@link Forwarder.Failure}; when the caller fails it
   * first (a timeout), the call is forgotten. {@code onSent} runs once the call is written.
   */
  void send(String base, Buffer body, Promise<Forwarder.Answer> done, Runnable onSent) {
    Owner owner = closed ? null : owners.computeIfAbsent(base, b -> new Owner());
    if (owner == null || body.length() + CallMessages.CALL_HEAD_BYTES > CallMessages.MAX_CALL_BYTES
        || owner.postsUntil != 0 && System.nanoTime() - owner.postsUntil < 0) {
      posted++;
      post.post(base, body, done, onSent);
      return;
    }
    if (owner.socket != null && owner.socket.isClosed()) {
      lost(base, owner, owner.socket);    // closed, its close not yet handled: its calls fail, this one waits
    }
    if (owner.socket != null) {
      write(base, owner, body, done, onSent);
      return;
    }
    Queued q = new Queued(body, done, onSent);
    owner.queued.add(q);
    done.future().onFailure(e -> owner.queued.remove(q));
    if (!owner.connecting) {
      connect(base, owner);
    }
  }

  private void write(String base, Owner owner, Buffer body, Promise<Forwarder.Answer> done, Runnable onSent) {
    WebSocket ws = owner.socket;
    long id = nextId++;
    owner.waiting.put(id, done);
    done.future().onComplete(ar -> owner.waiting.remove(id));
    overSocket++;
    onSent.run();
    ws.writeBinaryMessage(CallMessages.call(id, body)).onFailure(e -> {
      // not written whole (the socket closed under it, e.g. idle): the owner did not take it, so it goes as a POST
      if (owner.waiting.remove(id) != null && !done.future().isComplete()) {
        overSocket--;
        posted++;
        post.post(base, body, done, onSent);
      }
    });
  }

  private void connect(String base, Owner owner) {
    WebSocketConnectOptions o;
    try {
      o = InternalSocketOptions.of(base, InternalCodec.PATH, nodeId, token, connectTimeoutMs);
    } catch (IllegalArgumentException e) {
      fallBack(base, owner, POSTS_ONLY_MS);    // no URI to open a WebSocket to
      return;
    }
    owner.connecting = true;
    client.connect(o).onComplete(ar -> {
      owner.connecting = false;
      if (ar.failed()) {
        boolean refused = InternalSocketOptions.routeMissing(ar.cause());
        LOG.log(System.Logger.Level.DEBUG, "the call socket to the owner at " + base + " did not open; its calls"
            + " go as POSTs", ar.cause());
        fallBack(base, owner, refused ? POSTS_ONLY_MS : RETRY_MS);
        return;
      }
      WebSocket ws = ar.result();
      if (closed || owners.get(base) != owner) {
        ws.close();
        fallBack(base, owner, RETRY_MS);
        return;
      }
      owner.socket = ws;
      ws.binaryMessageHandler(m -> answered(base, owner, ws, m));
      ws.textMessageHandler(text -> ws.close());
      ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "call socket to " + base, e));
      ws.closeHandler(v -> lost(base, owner, ws));
      List<Queued> ready = new ArrayList<>(owner.queued);
      owner.queued.clear();
      for (Queued q : ready) {
        write(base, owner, q.body(), q.done(), q.onSent());
      }
    });
  }

  /** Calls to {@code owner} go as POSTs for {@code ms}, those waiting for its socket first. */
  private void fallBack(String base, Owner owner, long ms) {
    owner.postsUntil = System.nanoTime() + ms * 1_000_000;
    List<Queued> waiting = new ArrayList<>(owner.queued);
    owner.queued.clear();
    for (Queued q : waiting) {
      if (!q.done().future().isComplete()) {
        posted++;
        post.post(base, q.body(), q.done(), q.onSent());
      }
    }
  }

  private void answered(String base, Owner owner, WebSocket ws, Buffer m) {
    CallMessages.Read read;
    try {
      read = CallMessages.read(m);
    } catch (IllegalArgumentException e) {
      LOG.log(System.Logger.Level.WARNING, "the owner at " + base + " sent an answer that cannot be read ("
          + e.getMessage() + "); its socket is closed");
      ws.close((short) 1007, "unreadable answer");
      return;
    }
    Promise<Forwarder.Answer> done = owner.waiting.remove(read.id());
    if (done != null) {
      done.tryComplete(read.answer());
    }
  }

  /** {@code ws} closed: its calls in flight fail; the next call opens another. */
  private void lost(String base, Owner owner, WebSocket ws) {
    if (owner.socket != ws) {
      return;
    }
    owner.socket = null;
    if (owner.waiting.isEmpty()) {
      return;
    }
    List<Promise<Forwarder.Answer>> lostCalls = new ArrayList<>(owner.waiting.values());
    owner.waiting.clear();
    for (Promise<Forwarder.Answer> p : lostCalls) {
      p.tryFail(new Forwarder.Failure("unreachable", "the connection to the owner at " + base
          + " closed before it answered", true));
    }
  }

  /** Closes every socket; later calls go as POSTs. */
  io.vertx.core.Future<Void> close() {
    closed = true;
    for (Owner o : owners.values()) {
      if (o.socket != null) {
        o.socket.close();
      }
    }
    owners.clear();
    return client.close();
  }
}
