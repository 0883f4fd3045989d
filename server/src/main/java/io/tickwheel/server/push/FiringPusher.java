package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.cluster.Broadcast;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An owner's side of the cluster stream: the firings this node records are pushed straight to the other nodes, each
 * node getting only the firings of the topics its subscribers want (its {@link Broadcast.Interest}, announced by its
 * {@link ClusterFiringFeed}), plus the stretch of each partition's log they cover, so it knows it has all it wants of
 * that stretch without reading the log.
 *
 * <h2>Per peer</h2>
 * What is recorded in one event-loop task is added to each peer's pending stretches (a partition's stretch grows
 * while what is recorded follows it). At most one push per peer is in flight: a peer with subscribers' topics gets
 * a push as soon as the previous one is written (so pushes batch themselves under load); a peer that wants no
 * firing gets its positions at most every {@value #IDLE_PUSH_MS} ms.
 *
 * <h2>Transport</h2>
 * Each peer gets its pushes as binary messages over one WebSocket to {@value FiringPush#PATH} (the internal route's
 * guards at the upgrade: the {@code X-Tickwheel-Node} header, no {@code Origin}, an admin token; over TLS, verified,
 * to an {@code https://} node), opened when there is something to push and kept open. A message carries at most
 * {@value #MAX_SOCKET_PUSH_CHARS} characters and {@value #MAX_SOCKET_PUSH_BYTES} bytes (the receiver's WebSocket
 * message limit); a push that is larger (one firing with a large payload) goes as a {@code POST} of up to
 * {@value #MAX_PUSH_CHARS} characters instead. A peer that refuses the upgrade with 404 or 405 (a node of an
 * earlier version, during a rolling upgrade) gets {@code POST}s for {@value #POSTS_ONLY_MS} ms (or until it announces
 * another address); then the upgrade is tried again.
 *
 * <h2>Losses</h2>
 * A push that fails (unreachable, refused, not written or not answered within {@value #TIMEOUT_MS} ms) is dropped,
 * its WebSocket closed, and the peer left alone for {@value #RETRY_MS} ms; a peer whose pending firings pass
 * {@value #MAX_PENDING_CHARS} characters loses them. Neither loses a firing: what a peer gets next starts after what
 * it has, and its feed reads the gap from the log (the log is the truth; a push only saves the read). A peer not
 * heard from for {@value #PEER_EXPIRY_MS} ms is forgotten and its WebSocket closed.
 *
 * <p>Owner context only (the one it is created on); not thread safe.
 */
public final class FiringPusher {

  static final System.Logger LOG = System.getLogger(FiringPusher.class.getName());

  /** How often a peer that wants no firing gets its positions at most, ms. */
  public static final long IDLE_PUSH_MS = 250;
  /** Most characters of one {@code POST}ed push (well under the internal route's 1 MiB body limit, even in 2-byte UTF-8). */
  public static final int MAX_PUSH_CHARS = 256 * 1024;
  /** Most bytes of one push over a WebSocket: the receiver's WebSocket message limit ({@code BodyLimit}'s). */
  public static final int MAX_SOCKET_PUSH_BYTES = io.tickwheel.server.wire.BodyLimit.MAX_WEBSOCKET_MESSAGE_BYTES;
  /** Most characters of one push over a WebSocket (room for its bytes in 2-byte UTF-8). */
  public static final int MAX_SOCKET_PUSH_CHARS = MAX_SOCKET_PUSH_BYTES / 2;
  /** Most characters of firings waiting for one peer; beyond, they are dropped (the peer reads the log). */
  public static final long MAX_PENDING_CHARS = 4L << 20;
  /** How long a push may take, ms. */
  public static final long TIMEOUT_MS = 2_000;
  /** How long a peer is left alone after a failed push, ms. */
  public static final long RETRY_MS = 1_000;
  /** How long a peer that refused the push WebSocket gets POSTs only before the upgrade is tried again, ms. */
  public static final long POSTS_ONLY_MS = 60_000;
  /** How long a peer's interest holds without being announced again, ms. */
  public static final long PEER_EXPIRY_MS = 5_000;

  /** A run of one partition's log waiting to be pushed to one peer. */
  private static final class Stretch {
    long after;
    long upTo;
    final List<Long> seqs = new ArrayList<>();
    final List<String> texts = new ArrayList<>();
    long chars;

    Stretch(long after) {
      this.after = after;
      this.upTo = after;
    }
  }

  private final class Peer {
    final String nodeId;
    String address;
    long version = -1;
    boolean all;
    Set<String> topics = Set.of();
    long heardAt;
    /** The lowest interest version any pending firing was chosen by (-1: nothing pending). */
    long pendingVersion = -1;
    final Map<Integer, Stretch> pending = new LinkedHashMap<>();
    long pendingChars;
    boolean inFlight;
    long notBefore;
    long timer = -1;
    /** The open WebSocket to the peer, or null. */
    WebSocket socket;
    /** Whether a WebSocket is being opened (nothing is sent meanwhile). */
    boolean connecting;
    /** Until when (System.nanoTime) the peer gets POSTs only, having refused the WebSocket; 0: not refused. */
    long postsUntil;

    Peer(String nodeId) {
      this.nodeId = nodeId;
      this.notBefore = System.nanoTime();
    }

    boolean wantsFirings() {
      return all || !topics.isEmpty();
    }

    boolean wants(String topic) {
      return all || topics.contains(topic);
    }
  }

  private final Vertx vertx;
  private final String nodeId;
  private final java.util.function.Supplier<String> token;
  private final HttpClientAgent client;
  private final WebSocketClient sockets;
  private final Map<String, Peer> peers = new HashMap<>();
  private boolean closed;

  /** Pushes sent, failed, and firings dropped for a full peer (tests and metrics; owner context writes them). */
  volatile long sent;
  volatile long failed;
  volatile long dropped;
  /** Firings queued for a peer (each peer counts; tests and metrics). */
  volatile long queued;
  /** Of the pushes sent, those sent as a POST (the rest went over a WebSocket; tests and metrics). */
  volatile long posted;
  /** Why the last push or socket that failed did (tests and diagnostics), or {@code null}. */
  volatile Throwable lastFailure;
  /** The close code and reason of the last push socket that closed (tests' failure messages). */
  volatile String lastClose;

  /** A pusher without a token, trusting the JVM's certificate authorities. */
  public FiringPusher(Vertx vertx, String nodeId) {
    this(vertx, nodeId, null, null);
  }

  /**
   * @param nodeId this node's id (the peers ignore their own pushes' echoes by it; {@code X-Tickwheel-Node})
   * @param token  an admin token every node takes, asked for each push, or {@code null} for none
   * @param trust  what {@code https://} peers are verified against, or {@code null}: the JVM's authorities
   */
  public FiringPusher(Vertx vertx, String nodeId, java.util.function.Supplier<String> token,
      io.vertx.core.net.TrustOptions trust) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
    this.token = token;
    HttpClientOptions o = new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setVerifyHost(true)
        .setConnectTimeout((int) TIMEOUT_MS).setIdleTimeout(60);
    if (trust != null) {
      o.setTrustOptions(trust);
    }
    this.client = vertx.createHttpClient(o, new PoolOptions().setHttp1MaxSize(2));
    WebSocketClientOptions w = new WebSocketClientOptions().setTcpNoDelay(true).setVerifyHost(true)
        .setConnectTimeout((int) TIMEOUT_MS).setIdleTimeout(60).setMaxFrameSize(MAX_SOCKET_PUSH_BYTES)
        .setMaxMessageSize(MAX_SOCKET_PUSH_BYTES);
    if (trust != null) {
      w.setTrustOptions(trust);
    }
    this.sockets = vertx.createWebSocketClient(w);
  }

  /** This node's id. */
  public String nodeId() {
    return nodeId;
  }

  /**
   * Another node's announced interest (this node's own is ignored): the latest announcement holds (a node announces
   * in order; one that restarts starts a new run of versions).
   *
   * @return whether the node was not known before (then it may not know this node's interest yet either)
   */
  public boolean onInterest(Broadcast.Interest i) {
    if (closed || i.nodeId().equals(nodeId)) {
      return false;
    }
    Peer peer = peers.get(i.nodeId());
    boolean fresh = peer == null;
    if (fresh) {
      peer = new Peer(i.nodeId());
      peers.put(i.nodeId(), peer);
    }
    peer.heardAt = System.nanoTime();
    if (!Objects.equals(peer.address, i.address())) {
      disconnect(peer);
      peer.postsUntil = 0;
    }
    peer.address = i.address();
    if (i.version() != peer.version) {
      peer.version = i.version();
      peer.all = i.all();
      peer.topics = i.all() ? Set.of() : new HashSet<>(i.topics());
    }
    return fresh;
  }

  /**
   * The firings this node recorded in {@code partition} in one task, in seq order (consecutive seqs, not empty):
   * added to every peer's pending stretch. Call {@link #flush} at the end of the task.
   */
  public void recorded(int partition, List<Firing> firings) {
    if (closed || peers.isEmpty()) {
      return;
    }
    String[] texts = new String[firings.size()];
    long now = System.nanoTime();
    for (Iterator<Peer> it = peers.values().iterator(); it.hasNext(); ) {
      Peer peer = it.next();
      if (now - peer.heardAt > PEER_EXPIRY_MS * 1_000_000) {
        if (peer.timer >= 0) {
          vertx.cancelTimer(peer.timer);
        }
        disconnect(peer);
        it.remove();
        continue;
      }
      add(peer, partition, firings, texts);
    }
  }

  private void add(Peer peer, int partition, List<Firing> firings, String[] texts) {
    long first = firings.get(0).seq();
    Stretch s = peer.pending.get(partition);
    if (s != null && s.upTo != first - 1) {
      // not the run it followed (the partition changed hands and came back): the peer reads what lies between
      peer.pendingChars -= s.chars;
      peer.pending.remove(partition);
      s = null;
    }
    if (s == null) {
      s = new Stretch(first - 1);
      peer.pending.put(partition, s);
    }
    if (peer.pendingVersion < 0) {
      peer.pendingVersion = peer.version;
    }
    for (int i = 0; i < firings.size(); i++) {
      Firing f = firings.get(i);
      if (peer.wants(f.topic())) {
        String t = texts[i];
        if (t == null) {
          t = texts[i] = FiringPush.firingText(f);
        }
        queued++;
        s.seqs.add(f.seq());
        s.texts.add(t);
        s.chars += t.length() + 1;
        peer.pendingChars += t.length() + 1;
      }
    }
    s.upTo = firings.get(firings.size() - 1).seq();
    if (peer.pendingChars > MAX_PENDING_CHARS) {
      for (Stretch x : peer.pending.values()) {
        dropped += x.seqs.size();
      }
      peer.pending.clear();
      peer.pendingChars = 0;
      peer.pendingVersion = -1;
    }
  }

  /** Sends what is pending to every peer that may get a push now; schedules the others. End of a task. */
  public void flush() {
    for (Peer peer : peers.values()) {
      schedule(peer);
    }
  }

  private void schedule(Peer peer) {
    if (closed || peer.inFlight || peer.connecting || peer.pending.isEmpty() || peer.timer >= 0
        || peer.address == null) {
      return;
    }
    long wait = peer.notBefore - System.nanoTime();
    long waitMs = wait > 0 ? wait / 1_000_000 : 0;
    if (waitMs == 0 && peer.wantsFirings()) {
      send(peer);
      return;
    }
    long delay = Math.max(1, Math.max(waitMs, peer.wantsFirings() ? 0 : IDLE_PUSH_MS));
    peer.timer = vertx.setTimer(delay, id -> {
      peer.timer = -1;
      if (peers.get(peer.nodeId) == peer && !peer.inFlight && !closed) {
        send(peer);
      }
    });
  }

  private void send(Peer peer) {
    if (peer.pending.isEmpty()) {
      return;
    }
    if (peer.socket == null && !postsOnly(peer)) {
      connect(peer);
      return;
    }
    int max = peer.socket != null ? MAX_SOCKET_PUSH_CHARS : MAX_PUSH_CHARS;
    StringBuilder body = FiringPush.start(nodeId, peer.pendingVersion);
    boolean any = false;
    for (Iterator<Map.Entry<Integer, Stretch>> it = peer.pending.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Integer, Stretch> e = it.next();
      Stretch s = e.getValue();
      long room = max - body.length() - 64;
      if (s.chars <= room) {
        FiringPush.part(body, !any, e.getKey(), s.after, s.upTo, s.texts);
        peer.pendingChars -= s.chars;
        it.remove();
        any = true;
        continue;
      }
      // what fits of the stretch now (at least one firing in an empty push), the rest in the next push
      int n = 0;
      long chars = 0;
      while (n < s.texts.size() && chars + s.texts.get(n).length() + 1 <= room) {
        chars += s.texts.get(n).length() + 1;
        n++;
      }
      if (n == 0 && !any) {
        chars = s.texts.get(0).length() + 1;
        n = 1;
      }
      if (n > 0) {
        long upTo = s.seqs.get(n - 1);
        FiringPush.part(body, !any, e.getKey(), s.after, upTo, s.texts.subList(0, n));
        s.seqs.subList(0, n).clear();
        s.texts.subList(0, n).clear();
        s.chars -= chars;
        peer.pendingChars -= chars;
        s.after = upTo;
        if (s.after == s.upTo) {
          it.remove();    // all of it went (one firing too large to share a push): no empty stretch is left to send
        }
        any = true;
      }
      break;
    }
    if (peer.pending.isEmpty()) {
      peer.pendingVersion = -1;
    }
    peer.inFlight = true;
    sent++;
    Buffer push = FiringPush.end(body);
    WebSocket ws = peer.socket;
    io.vertx.core.Future<Void> done;
    if (ws != null && push.length() <= MAX_SOCKET_PUSH_BYTES) {
      done = ws.writeBinaryMessage(push).timeout(TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    } else {
      posted++;
      done = post(peer.address, push);
    }
    done.onComplete(ar -> {
      peer.inFlight = false;
      if (ar.failed()) {
        failed++;
        lastFailure = ar.cause();
        peer.notBefore = System.nanoTime() + RETRY_MS * 1_000_000;
        if (peer.socket == ws) {
          disconnect(peer);
        }
        LOG.log(System.Logger.Level.DEBUG, "pushing firings to " + peer.nodeId + " at " + peer.address
            + " failed; it reads them from the log", ar.cause());
      }
      if (peers.get(peer.nodeId) == peer) {
        schedule(peer);
      }
    });
  }

  /** Opens the peer's WebSocket; sends what is pending once it is open, or falls back to POSTs if refused. */
  private void connect(Peer peer) {
    String address = peer.address;
    WebSocketConnectOptions o;
    try {
      o = io.tickwheel.server.route.InternalSocketOptions.of(address, FiringPush.PATH, nodeId, token, TIMEOUT_MS);
    } catch (IllegalArgumentException e) {
      peer.postsUntil = System.nanoTime() + POSTS_ONLY_MS * 1_000_000;    // no URI to open a WebSocket to
      schedule(peer);
      return;
    }
    peer.connecting = true;
    sockets.connect(o).onComplete(ar -> {
      peer.connecting = false;
      boolean live = peers.get(peer.nodeId) == peer && !closed;
      boolean current = live && Objects.equals(peer.address, address);
      if (ar.succeeded()) {
        WebSocket ws = ar.result();
        if (!current) {
          ws.close();    // the peer moved (it is opened again to its new address) or is gone
          if (live) {
            schedule(peer);
          }
          return;
        }
        peer.socket = ws;
        ws.handler(b -> { });    // the receiver sends nothing but its close
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "firing push socket to " + peer.nodeId, e));
        ws.closeHandler(v -> {
          lastClose = ws.closeStatusCode() + " " + ws.closeReason();
          if (peer.socket == ws) {
            peer.socket = null;
          }
        });
      } else if (!current) {
        LOG.log(System.Logger.Level.DEBUG, "the firing push socket to " + peer.nodeId + " at " + address
            + " did not open; the peer moved or is gone", ar.cause());
      } else if (io.tickwheel.server.route.InternalSocketOptions.routeMissing(ar.cause())) {
        peer.postsUntil = System.nanoTime() + POSTS_ONLY_MS * 1_000_000;
      } else {
        failed++;
        lastFailure = ar.cause();
        peer.notBefore = System.nanoTime() + RETRY_MS * 1_000_000;
        LOG.log(System.Logger.Level.DEBUG, "opening the firing push socket to " + peer.nodeId + " at " + address
            + " failed; it reads the firings from the log", ar.cause());
      }
      if (live) {
        schedule(peer);
      }
    });
  }

  private static boolean postsOnly(Peer peer) {
    return peer.postsUntil != 0 && System.nanoTime() - peer.postsUntil < 0;
  }

  private static void disconnect(Peer peer) {
    WebSocket ws = peer.socket;
    peer.socket = null;
    if (ws != null) {
      ws.close();
    }
  }

  private io.vertx.core.Future<Void> post(String base, Buffer body) {
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(base + FiringPush.PATH)
        .setConnectTimeout(TIMEOUT_MS).setIdleTimeout(TIMEOUT_MS)
        .putHeader(io.tickwheel.server.route.InternalCodec.NODE_HEADER, nodeId)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    String t = token == null ? null : token.get();
    if (t != null) {
      ro.putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + t);
    }
    return client.request(ro)
        .compose(req -> req.send(body))
        .compose(r -> r.body().compose(b -> r.statusCode() == 204 ? io.vertx.core.Future.<Void>succeededFuture()
            : io.vertx.core.Future.<Void>failedFuture("answered " + r.statusCode() + ": " + b)))
        .timeout(TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * Registers its meters: {@code tickwheel.cluster.push.requests} ({@code outcome} {@code sent} or {@code failed}),
   * {@code tickwheel.cluster.push.posted} (of those sent, the ones sent as a {@code POST}: to a node that does not
   * take the push WebSocket, or too large for one of its messages), {@code tickwheel.cluster.push.firings} (queued
   * for a node, each node counting) and {@code tickwheel.cluster.push.firings.dropped} (dropped for a node that fell
   * too far behind; it reads them).
   */
  public void meters(io.micrometer.core.instrument.MeterRegistry r) {
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.push.requests", this, x -> x.sent)
        .description("Firing pushes sent to other nodes").tag("outcome", "sent").register(r);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.push.requests", this, x -> x.failed)
        .description("Firing pushes sent to other nodes").tag("outcome", "failed").register(r);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.push.posted", this, x -> x.posted)
        .description("Firing pushes sent as a POST instead of over the push WebSocket").register(r);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.push.firings", this, x -> x.queued)
        .description("Firings queued for other nodes (each node counts)").register(r);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.push.firings.dropped", this,
        x -> x.dropped).description("Firings dropped for a node too far behind (it reads them from the log)")
        .register(r);
  }

  /** The peers it pushes to now (tests). */
  int peers() {
    return peers.size();
  }

  /** Whether peer {@code node} is known to want {@code topic}'s firings (tests). */
  boolean wants(String node, String topic) {
    Peer p = peers.get(node);
    return p != null && p.wants(topic);
  }

  /** Whether nothing is pending for {@code node} and no push to it is in flight (tests); owner context. */
  boolean settled(String node) {
    Peer p = peers.get(node);
    return p != null && p.pending.isEmpty() && !p.inFlight;
  }

  /** What is pending for {@code node} and why it waits (tests' failure messages); owner context. */
  String state(String node) {
    Peer p = peers.get(node);
    if (p == null) {
      return "no peer " + node;
    }
    StringBuilder sb = new StringBuilder("pending");
    for (Map.Entry<Integer, Stretch> e : p.pending.entrySet()) {
      Stretch s = e.getValue();
      sb.append(' ').append(e.getKey()).append(":(").append(s.after).append(',').append(s.upTo).append("] ")
          .append(s.seqs.size()).append(" firings");
    }
    return sb.append("; inFlight ").append(p.inFlight).append(", connecting ").append(p.connecting)
        .append(", timer ").append(p.timer >= 0).append(", socket ")
        .append(p.socket == null ? "none" : p.socket.isClosed() ? "closed" : "open").append(", last close ")
        .append(lastClose).toString();
  }

  /** Stops pushing and closes the connections. */
  public io.vertx.core.Future<Void> close() {
    closed = true;
    for (Peer p : peers.values()) {
      if (p.timer >= 0) {
        vertx.cancelTimer(p.timer);
      }
      disconnect(p);
    }
    peers.clear();
    return io.vertx.core.Future.join(client.close(), sockets.close()).mapEmpty();
  }
}
