package io.tickwheel.server.push;

import io.micrometer.core.instrument.MeterRegistry;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.core.store.FiringLog;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Pushes firings to subscribers over WebSocket ({@code /v1/ws}) and Server-Sent Events ({@code GET /v1/events}),
 * as the contract's "Firings", "WebSocket" and {@code /v1/events} sections describe. See the package
 * documentation for the wire protocol.
 *
 * <h2>Thread model</h2>
 * Everything runs on one <em>owner</em> context: the event-loop context the hub is created on (the server
 * verticle's). {@link #publish}, {@link #handleWebSocket(ServerWebSocket, io.netty.channel.Channel)}, {@link #handleSse} and {@link #close} must be called
 * there, and the sockets handed over must belong to it (an HTTP server listening from that verticle); a call from
 * another thread throws {@link IllegalStateException}. {@link #subscribers()} may be called from any thread.
 * Store reads complete on the owner context (the {@link FiringLog} contract).
 *
 * <h2>Ordering and delivery</h2>
 * {@link #publish} must be called in strictly increasing seq order (per partition), after the log recorded the firing. Each
 * subscriber receives the firings of its topics in seq order, each at most once; one that resumes with
 * {@code from} gets every retained firing after it, then the live ones, exactly once (see {@link Subscriber}).
 * Firings already trimmed from the log are announced with a gap notice.
 *
 * <h2>Cost and bounds</h2>
 * A publish visits only the subscribers of the firing's topic plus the all-topics ones (a {@link TopicIndex}),
 * builds the firing's JSON text once for all of them, and never blocks or waits for a write. Per subscriber at
 * most {@link PushOptions#maxQueuedPerSubscriber} messages and {@link #MAX_QUEUED_BYTES_PER_SUBSCRIBER} wait
 * beyond the socket's own write queue, and as much again of live firings while it replays; a subscriber over
 * that is closed (WebSocket close code 1013, reason {@value WsSubscriber#SLOW_REASON}; SSE: an error event and the
 * end of the response). A replaying subscriber holds at most one batch ({@link PushOptions#replayBatch}) read from
 * the store, and reads the next only when it has written the last. At most {@link #MAX_TOPICS_PER_SUBSCRIBER}
 * topics per subscriber.
 *
 * <h2>Close codes (WebSocket)</h2>
 * 1013 too slow (resume with {@code from}); 1009 client message over {@link PushOptions#maxWsFrameBytes} (or one
 * frame over the HTTP server's {@code maxWebSocketFrameSize}); 1002/1007 malformed frame; 1001 the hub is closing;
 * 1011 the firing log could not be read during a replay.
 *
 * <h2>Metrics</h2>
 * See {@link PushMetrics}: subscribers by transport, firings delivered, firings replayed, slow-consumer closes,
 * gaps.
 */
public final class FiringHub {

  /** The most topics one subscriber (socket or event stream) may have. */
  public static final int MAX_TOPICS_PER_SUBSCRIBER = 1024;
  /** The most bytes (approximately: JSON characters) that may wait for one subscriber, and be buffered for it while it replays. */
  public static final long MAX_QUEUED_BYTES_PER_SUBSCRIBER = 8L << 20;
  /** How often an idle event stream gets a comment, and an idle WebSocket a ping, ms (by default). */
  public static final long SSE_HEARTBEAT_MS = 15_000;
  /** How long {@link #close()} waits for subscribers to close, ms. */
  static final long CLOSE_GRACE_MS = 3_000;

  static final System.Logger LOG = System.getLogger(FiringHub.class.getName());

  final Vertx vertx;
  final FiringFeed feed;
  final PushOptions options;
  final PushMetrics metrics;

  private final Context owner;
  private final Thread ownerThread;
  private final TopicIndex index = new TopicIndex();
  private final Set<Subscriber> all = new LinkedHashSet<>();
  private final Future<Void> ready;
  private final long heartbeatTimer;

  /** Executes WebSocket write commands; until {@link #useCommands} they answer 503. */
  WsCommands commands = (op, message) -> Future.succeededFuture(new WsCommands.Result(503, null,
      ErrorBody.detail("unavailable", "write commands are not served by this hub", null)));

  /** Per partition, the last seq published, or of the log when the hub started if greater. */
  private final long[] latest;
  /** Per partition, the last seq published (publish order check). */
  private final long[] lastPublished;
  /** Cluster: counts publishes, from 1 (the topic-filter stamp of a live firing). */
  private long stamp = 1;
  private boolean publishing;
  /** The cursors of {@link #latest} (cluster), re-encoded only where a publish moved it. */
  private final CursorEncoder cursors = new CursorEncoder();
  private final List<Subscriber> deferredDetach = new ArrayList<>();
  private Future<Void> closed;
  /** How often a replaying subscriber's live buffer overflowed (it then re-reads the log); for tests and debugging. */
  long replayBufferOverflows;

  /**
   * Creates the hub on the current context, which becomes its owner.
   *
   * @param registry where the push meters are registered (removed again by {@link #close()})
   * @throws IllegalStateException if not called on an event-loop context
   */
  public FiringHub(Vertx vertx, FiringLog store, PushOptions options, MeterRegistry registry) {
    this(vertx, new StoreFiringFeed(store), options, registry, SSE_HEARTBEAT_MS);
  }

  /**
   * A hub serving {@code feed} (a cluster node's: {@link ClusterFiringFeed}, which it then attaches, so the feed
   * starts publishing into it). Created on the owner context, like the store one.
   */
  public FiringHub(Vertx vertx, FiringFeed feed, PushOptions options, MeterRegistry registry) {
    this(vertx, feed, options, registry, SSE_HEARTBEAT_MS);
  }

  /**
   * As {@link #FiringHub(Vertx, FiringLog, PushOptions, MeterRegistry)}, with another heartbeat period: idle event
   * streams get a comment and idle WebSockets a ping every {@code heartbeatMs} (below the server's idle timeout).
   */
  public FiringHub(Vertx vertx, FiringLog store, PushOptions options, MeterRegistry registry, long heartbeatMs) {
    this(vertx, new StoreFiringFeed(store), options, registry, heartbeatMs);
  }

  /** As {@link #FiringHub(Vertx, FiringFeed, PushOptions, MeterRegistry)}, with another heartbeat period. */
  public FiringHub(Vertx vertx, FiringFeed feed, PushOptions options, MeterRegistry registry, long heartbeatMs) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.feed = Objects.requireNonNull(feed, "feed");
    this.latest = new long[feed.partitions()];
    this.lastPublished = new long[feed.partitions()];
    this.options = Objects.requireNonNull(options, "options");
    Context ctx = Vertx.currentContext();
    if (ctx == null || !ctx.isEventLoopContext()) {
      throw new IllegalStateException("FiringHub must be created on its owner event-loop context (the server "
          + "verticle's), was created on thread " + Thread.currentThread().getName());
    }
    this.owner = ctx;
    this.ownerThread = Thread.currentThread();
    this.metrics = new PushMetrics(Objects.requireNonNull(registry, "registry"));
    this.ready = feed.ends()
        .<Void>map(ends -> {
          for (int p = 0; p < latest.length && p < ends.length; p++) {
            latest[p] = Math.max(latest[p], ends[p]);
          }
          return null;
        })
        .recover(t -> {
          LOG.log(System.Logger.Level.WARNING, "Could not read the firing log's last seq; subscribers are told "
              + "the last published seq instead", t);
          return Future.succeededFuture();
        })
        .onSuccess(v -> {
          if (closed == null) {
            feed.attach(this);
          }
        });
    this.heartbeatTimer = vertx.setPeriodic(heartbeatMs, id -> {
      for (Subscriber s : List.copyOf(all)) { // a failing write may detach one
        s.heartbeat();
      }
    });
  }

  /**
   * Delivers a recorded firing to the subscribers of its topic. O(matching subscribers); never blocks, never
   * waits for a socket: a subscriber that cannot take it is closed as too slow. Ignored once the hub is closed.
   *
   * @param f a firing the store has recorded, with a seq greater than any published before
   * @throws IllegalArgumentException if {@code f.seq()} is not greater than the previous one
   */
  public void publish(Firing f) {
    publish(0, f);
  }

  /**
   * Delivers a recorded firing of partition {@code partition} (always 0 on a single node) to the subscribers of its
   * topic, as {@link #publish(Firing)}. In a cluster the firing carries {@code partition} and the cursor of the
   * hub's position in every partition after it (built once, O(partitions), only if someone receives it).
   *
   * @throws IllegalArgumentException if {@code f.seq()} is not greater than the partition's previous one, or the
   *                                  partition is out of range
   */
  public void publish(int partition, Firing f) {
    publishOrSkip(partition, f);
  }

  /**
   * Moves the hub's position in {@code partition} to {@code seq} without delivering the firings up to it: a cluster
   * feed with nobody subscribed does not read them. A subscription made afterwards starts there (live) or replays
   * from its cursor through the feed's reads, as always. No-op unless {@code seq} is past the partition's position.
   */
  public void skipTo(int partition, long seq) {
    checkOwner("skipTo");
    if (partition < 0 || partition >= latest.length || seq <= lastPublished[partition]) {
      return;
    }
    lastPublished[partition] = seq;
    latest[partition] = Math.max(latest[partition], seq);
    stamp++;
  }

  private void publishOrSkip(int partition, Firing f) {
    checkOwner("publish");
    if (partition < 0 || partition >= latest.length) {
      throw new IllegalArgumentException("partition " + partition + " is not in 0.." + (latest.length - 1));
    }
    if (f.seq() <= lastPublished[partition]) {
      throw new IllegalArgumentException("publish must follow seq order: seq " + f.seq()
          + " after " + lastPublished[partition] + " in partition " + partition);
    }
    lastPublished[partition] = f.seq();
    latest[partition] = Math.max(latest[partition], f.seq());
    stamp++;
    if (closed != null) {
      return;
    }
    Set<Subscriber> named = index.topic(f.topic());
    Set<Subscriber> wildcard = index.wildcard();
    if (named.isEmpty() && wildcard.isEmpty()) {
      return;
    }
    EncodedFiring e = feed.clustered()
        ? EncodedFiring.of(f, partition, true, cursors.encode(latest), stamp)
        : EncodedFiring.single(f);
    publishing = true;
    try {
      for (Subscriber s : named) {
        s.offer(e);
      }
      for (Subscriber s : wildcard) {
        s.offer(e);
      }
    } finally {
      publishing = false;
    }
    if (!deferredDetach.isEmpty()) {
      for (Subscriber s : deferredDetach) {
        detach(s);
      }
      deferredDetach.clear();
    }
  }

  /** Where the WebSocket write commands ({@code schedule}, {@code put}, {@code touch}, {@code cancel}) go. Owner context. */
  public void useCommands(WsCommands c) {
    checkOwner("useCommands");
    this.commands = Objects.requireNonNull(c, "commands");
  }

  /**
   * Serves one {@code /v1/ws} connection (already authenticated and Origin-checked) until it closes. The socket must
   * belong to the owner context. With its Netty {@code channel} the subscriber's messages are gathered per event-loop
   * task into one write ({@link WsTextFrames}); with {@code null} they go through Vert.x one by one.
   */
  public void handleWebSocket(ServerWebSocket ws, io.netty.channel.Channel channel) {
    handleWebSocket(ws, channel, null);
  }

  /**
   * As {@link #handleWebSocket(ServerWebSocket, io.netty.channel.Channel)}, each write command first passing
   * {@code gate} ({@code null}: none).
   */
  public void handleWebSocket(ServerWebSocket ws, io.netty.channel.Channel channel, WsCommands.Gate gate) {
    checkOwner("handleWebSocket");
    if (closed != null) {
      ws.close(WsSubscriber.CLOSE_GOING_AWAY, "server shutting down");
      return;
    }
    if (ws.isClosed()) {
      return; // gone already: no close event would ever detach it
    }
    WsSubscriber s = new WsSubscriber(this, ws, channel, gate);
    attach(s);
    s.start();
    if (!ready.isComplete()) {
      ws.pause();
      ready.onComplete(v -> ws.resume());
    }
  }

  /**
   * Serves one {@code GET /v1/events} request (already authenticated): 400 {@code invalid_argument} for a bad
   * {@code topic}, {@code from} or {@code Last-Event-ID}, else a {@code text/event-stream} until the client goes
   * or the hub closes.
   */
  public void handleSse(RoutingContext rc) {
    checkOwner("handleSse");
    if (closed != null) {
      rc.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(ErrorBody.encode("unavailable", "the server is shutting down", null));
      return;
    }
    if (ready.isComplete()) {
      startSse(rc);
    } else {
      ready.onComplete(v -> startSse(rc));
    }
  }

  private void startSse(RoutingContext rc) {
    if (rc.response().closed() || rc.response().ended()) {
      return;
    }
    SseRequest request;
    long[] from;
    try {
      request = SseRequest.parse(rc);
      from = request.from() == null ? null : parseFrom(request.fromField(), request.from());
    } catch (ValidationException e) {
      rc.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(ErrorBody.encode("invalid_argument", e.getMessage(), e.field()));
      return;
    }
    SseSubscriber s = new SseSubscriber(this, rc);
    attach(s);
    s.start(request, from);
  }

  /** How many subscribers are connected, both transports. Thread safe. */
  public int subscribers() {
    return metrics.ws.subscribers.get() + metrics.sse.subscribers.get();
  }

  /**
   * Closes every subscriber (WebSocket close 1001, SSE end of response), refuses new ones, stops the heartbeat
   * and removes the meters. Completes once all are closed, or after {@link #CLOSE_GRACE_MS} at most.
   * Idempotent.
   */
  public Future<Void> close() {
    checkOwner("close");
    if (closed != null) {
      return closed;
    }
    vertx.cancelTimer(heartbeatTimer);
    feed.close();
    List<Future<Void>> closing = new ArrayList<>(all.size());
    for (Subscriber s : new ArrayList<>(all)) {
      closing.add(s.shutdown());
    }
    Promise<Void> done = Promise.promise();
    long timer = vertx.setTimer(CLOSE_GRACE_MS, id -> done.tryComplete());
    Future.join(closing).onComplete(ar -> {
      vertx.cancelTimer(timer);
      done.tryComplete();
    });
    closed = done.future().onComplete(ar -> metrics.unregister());
    return closed;
  }

  // ---- package-private: used by subscribers and tests ----

  /** The latest seq a new subscriber is told about: the last published, or the store's at start (single node). */
  long latestSeq() {
    return latest[0];
  }

  /** Partition {@code p}'s latest seq: the last published, or its log's at start. */
  long latestSeq(int p) {
    return latest[p];
  }

  /** A copy of every partition's latest seq. */
  long[] latestSeqs() {
    return latest.clone();
  }

  /** The cursor of the hub's position now: where a subscriber that starts live now resumes from. */
  String latestCursor() {
    return feed.clustered() ? cursors.encode(latest) : FiringCursor.single(latest[0]);
  }

  /**
   * The topic-filter stamp now (see {@link TopicFilter}): a topic added now matches firings with a greater stamp.
   * The latest seq on a single node, the publish count in a cluster.
   */
  long stamp() {
    return feed.clustered() ? stamp : latest[0];
  }

  /**
   * Parses a {@code from} cursor (or, on a single node, seq) given in {@code field}.
   *
   * @throws ValidationException naming the field: malformed, of another partition count, or (single node) after
   *                             the latest seq
   */
  long[] parseFrom(String field, String value) {
    long[] pos = FiringCursor.parse(field, value, latest.length, !feed.clustered());
    if (!feed.clustered() && pos[0] > latest[0]) {
      throw new ValidationException(field, field + " " + value + " is after the latest firing seq " + latest[0]);
    }
    return pos;
  }

  /** Runs {@code r} on the owner context in a later turn. */
  void onOwner(Runnable r) {
    owner.runOnContext(v -> r.run());
  }

  /** Lists {@code s} under its current topics. */
  void reindex(Subscriber s) {
    if (s.attached) {
      index.update(s, s.topics);
      feed.interestChanged();
    }
  }

  /** Whether a subscriber takes every topic. Owner context. */
  boolean wantsAllTopics() {
    return !index.wildcard().isEmpty();
  }

  /** The named topics some subscriber takes (a copy). Owner context. */
  java.util.Set<String> wantedTopics() {
    return index.named();
  }

  /** Unlists {@code s} (deferred to the end of a publish in progress). Idempotent. */
  void detach(Subscriber s) {
    if (!s.attached) {
      return;
    }
    if (publishing) {
      deferredDetach.add(s);
      return;
    }
    s.attached = false;
    index.remove(s);
    all.remove(s);
    s.meters.subscribers.decrementAndGet();
    feed.interestChanged();
  }

  /** How many subscribers are replaying the log now (tests). */
  int replaying() {
    int n = 0;
    for (Subscriber s : all) {
      if (s.state() == Subscriber.State.REPLAYING) {
        n++;
      }
    }
    return n;
  }

  private void attach(Subscriber s) {
    s.attached = true;
    all.add(s);
    s.meters.subscribers.incrementAndGet();
  }

  private void checkOwner(String method) {
    if (Thread.currentThread() != ownerThread) {
      throw new IllegalStateException("FiringHub." + method + " must be called on its owner context (thread "
          + ownerThread.getName() + "), was called on " + Thread.currentThread().getName());
    }
  }

}
