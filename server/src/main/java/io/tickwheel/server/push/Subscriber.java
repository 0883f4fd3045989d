package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One subscriber's ordered stream of firings, whatever its transport: replay from the firing log(s), switch to live
 * firings without a gap or a duplicate, bounded queues, slow-consumer cut-off. Subclasses put it on a socket.
 *
 * <h2>Stream</h2>
 * A stream starts either live ({@link #startLive}: only firings published from now on) or from a position
 * ({@link #startReplay}). {@code pos[p]} is the highest seq of partition {@code p} the stream has accounted for
 * (delivered, or passed over as another topic's); the stream only ever moves forward, so every firing goes out at
 * most once and in seq order per partition. A single node has one partition.
 *
 * <h2>Replay</h2>
 * A replay first takes a <em>target</em>: the hub's latest seq of every partition, and from then on buffers the live
 * firings published (at most {@code maxQueuedPerSubscriber} and {@link FiringHub#MAX_QUEUED_BYTES_PER_SUBSCRIBER}).
 * It reads each partition that is behind its target, in partition order, in batches
 * ({@code read(p, pos[p], replayBatch)}, one batch per event-loop turn, the next one only once its queue has
 * drained, so a slow reader only slows its own replay), up to the target and no further. Firings are published only
 * after the log recorded them, so everything up to the target is in the log and everything after it is in the
 * buffer: once every partition reached its target the stream goes live with the buffered firings it has not
 * accounted for. If the buffer overflows it is dropped and a new target taken: the replay simply reads further.
 * A replay never closes a subscriber for being slow.
 *
 * <h2>Cursors</h2>
 * A live firing carries the hub's cursor (its position in every partition at publish), shared by every subscriber:
 * each has accounted for everything up to it. A replayed firing, and in a cluster a buffered one, carries the
 * subscriber's own {@code pos}. In a cluster a subscriber may resume from a cursor of another node that is ahead of
 * this node's feed; it then goes live only once the hub has published up to its position in every partition (the
 * feed is asked to catch up), so that the shared cursors it gets never lie behind what it was given.
 *
 * <h2>Gaps</h2>
 * If the log no longer holds the firings right after {@code pos[p]} (trimmed by retention), the subscriber is
 * sent a gap notice ({@link #gapNotice}) naming the missing seq range (and partition), then what is retained.
 *
 * <h2>Live</h2>
 * A live firing is written at once if the socket's write queue has room, else queued; a subscriber with
 * {@code maxQueuedPerSubscriber} messages (or {@link FiringHub#MAX_QUEUED_BYTES_PER_SUBSCRIBER}) already queued
 * is closed as too slow ({@link #closeSlowTransport}). The queue is flushed by the socket's drain handler.
 * Replies (pong, subscribed, errors) go through the same queue, so they keep their place among the firings.
 *
 * <p>Not thread safe: everything runs on the hub's owner context.
 */
abstract class Subscriber {

  enum State { IDLE, REPLAYING, LIVE, CLOSED }

  final FiringHub hub;
  final PushMetrics.Transport meters;
  /** What this subscriber receives; owned by the subclass's protocol, read by the stream and the index. */
  final TopicFilter topics = new TopicFilter();
  /** Whether the hub lists it (set and cleared by the hub). */
  boolean attached;

  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private long queuedBytes;
  private final ArrayDeque<EncodedFiring> liveBuffer = new ArrayDeque<>();
  private long bufferedBytes;

  private State state = State.IDLE;
  /** Per partition, the highest seq accounted for. */
  private long[] pos;
  /** Per partition, the seq a replay reads up to. */
  private long[] target;
  /** The topic-filter stamp of replayed firings (cluster): the hub's stamp when the target was taken. */
  private long replayStamp;
  /** Bumped whenever the stream starts, stops or closes: a store read of an older stream is ignored. */
  private int stream;
  private boolean reading;
  private boolean waitingForFeed;
  /** The cursors of {@link #pos} for replayed and buffered firings (cluster; made on first use). */
  private CursorEncoder cursors;

  /** How long a replayed subscriber waits before it looks again whether the feed reached its position, ms. */
  static final long FEED_WAIT_MS = 50;

  Subscriber(FiringHub hub, PushMetrics.Transport meters) {
    this.hub = hub;
    this.meters = meters;
  }

  // ---- transport, implemented by the subclass ----

  /** Whether the socket is closed (or the response ended). */
  abstract boolean transportClosed();

  /** Whether the socket's own write queue is full (a closed one counts as full). */
  abstract boolean transportFull();

  abstract void writeFiring(EncodedFiring e);

  /** Writes a reply or notice built by the subclass ({@link #gapNotice}, protocol replies). */
  abstract void writeControl(Object message);

  /** The size in bytes of a control message, for the byte bound. */
  abstract int controlSize(Object message);

  /** A notice that firings {@code fromSeq..toSeq} of {@code partition} were trimmed before this subscriber could get them. */
  abstract Object gapNotice(int partition, long fromSeq, long toSeq);

  /**
   * Keeps an idle connection alive (the hub calls it every heartbeat period): writes only if nothing waits. Both
   * transports override it; a transport without a heartbeat writes nothing.
   */
  void heartbeat() {}

  /** Closes the socket of a subscriber that could not keep up (state is already {@link State#CLOSED}). */
  abstract void closeSlowTransport();

  /** Tells the client the firing log could not be read and closes the socket (state is already closed). */
  abstract void closeFailedTransport(Throwable cause);

  /** Closes the socket because the server is stopping; completes once closed (bounded by the hub). */
  abstract Future<Void> closeShutdownTransport();

  // ---- stream ----

  final State state() {
    return state;
  }

  /** Starts a stream of the firings published from now on, after {@code after} (a seq per partition). */
  final void startLive(long[] after) {
    restart(State.LIVE, after);
  }

  /** Starts a stream that replays the retained firings after {@code after} (a seq per partition), then goes live. */
  final void startReplay(long[] after) {
    restart(State.REPLAYING, after);
    retarget();
    pump();
  }

  /** Stops the stream (nothing subscribed any more); what is queued still goes out. */
  final void stop() {
    restart(State.IDLE, pos);
  }

  private void restart(State next, long[] after) {
    if (state == State.CLOSED) {
      return;
    }
    stream++;
    state = next;
    pos = after == null ? hub.latestSeqs() : after.clone();
    reading = false;
    waitingForFeed = false;
    liveBuffer.clear();
    bufferedBytes = 0;
  }

  /** Takes the hub's position now as the replay's target; what is published from now on is buffered. */
  private void retarget() {
    target = hub.latestSeqs();
    replayStamp = hub.stamp();
  }

  /**
   * A published firing whose topic this subscriber is listed under. O(1), never blocks, never waits for a write.
   *
   * @return false if the subscriber had to be closed (too slow)
   */
  final boolean offer(EncodedFiring e) {
    if (state == State.IDLE || state == State.CLOSED || e.seq <= pos[e.partition]
        || !topics.matches(e.topic, e.stamp)) {
      return state != State.CLOSED;
    }
    if (state == State.LIVE) {
      pos[e.partition] = e.seq;
      return send(e);
    }
    if (liveBuffer.size() >= hub.options.maxQueuedPerSubscriber()
        || bufferedBytes + e.size() > FiringHub.MAX_QUEUED_BYTES_PER_SUBSCRIBER) {
      liveBuffer.clear();
      bufferedBytes = 0;
      hub.replayBufferOverflows++;
      retarget(); // the dropped firings are in the log now: read up to here instead
    }
    liveBuffer.add(e);
    bufferedBytes += e.size();
    return true;
  }

  /**
   * Sends a reply or notice in order with the firings.
   *
   * @return false if the subscriber had to be closed (too slow)
   */
  final boolean sendControl(Object message) {
    return send(message);
  }

  /** Whether messages wait beyond the socket's write queue, or that queue is full. */
  final boolean backlogged() {
    return !queue.isEmpty() || transportFull();
  }

  /** Writes {@code message} only if nothing is waiting and the socket has room (heartbeats). */
  final void sendIfIdle(Object message) {
    if (state != State.CLOSED && queue.isEmpty() && !transportClosed() && !transportFull()) {
      writeControl(message);
    }
  }

  private boolean send(Object item) {
    if (state == State.CLOSED) {
      return false;
    }
    if (transportClosed()) {
      return true; // the close handler detaches it
    }
    if (queue.isEmpty() && !transportFull()) {
      write(item);
      return true;
    }
    int size = sizeOf(item);
    if (queue.size() >= hub.options.maxQueuedPerSubscriber()
        || queuedBytes + size > FiringHub.MAX_QUEUED_BYTES_PER_SUBSCRIBER) {
      closeSlow();
      return false;
    }
    queue.add(item);
    queuedBytes += size;
    return true;
  }

  /** Queues without the bound: replay batches, which are only read once the queue is empty. */
  private void enqueue(Object item) {
    queue.add(item);
    queuedBytes += sizeOf(item);
  }

  private void write(Object item) {
    if (item instanceof EncodedFiring e) {
      writeFiring(e);
      meters.delivered.increment();
    } else {
      writeControl(item);
    }
  }

  private int sizeOf(Object item) {
    return item instanceof EncodedFiring e ? e.size() : controlSize(item);
  }

  /** Writes what the socket takes of the queue, then goes on replaying if it was. The drain handler calls it. */
  final void flush() {
    while (!queue.isEmpty() && state != State.CLOSED && !transportClosed() && !transportFull()) {
      Object item = queue.poll();
      queuedBytes -= sizeOf(item);
      write(item);
    }
    pump();
  }

  private void pump() {
    if (state != State.REPLAYING || reading || waitingForFeed || !queue.isEmpty() || transportClosed()
        || transportFull()) {
      return;
    }
    int p = behind();
    if (p < 0) {
      if (feedBehind()) {
        waitForFeed();
      } else {
        goLive();
      }
      return;
    }
    reading = true;
    int s = stream;
    hub.onOwner(() -> {
      if (s == stream) {
        // the target as the read is issued: a short batch says the log held nothing more up to it, not to a
        // target taken later (an overflow while the read is in flight)
        long upTo = target[p];
        hub.feed.read(p, pos[p], hub.options.replayBatch()).onComplete(ar -> onBatch(s, p, upTo, ar));
      }
    });
  }

  /** The first partition still behind its target, or -1. */
  private int behind() {
    for (int p = 0; p < pos.length; p++) {
      if (pos[p] < target[p]) {
        return p;
      }
    }
    return -1;
  }

  /** Whether the hub has not published up to this subscriber's position in some partition (cluster). */
  private boolean feedBehind() {
    for (int p = 0; p < pos.length; p++) {
      if (hub.latestSeq(p) < pos[p]) {
        return true;
      }
    }
    return false;
  }

  private void waitForFeed() {
    waitingForFeed = true;
    hub.feed.catchUp();
    int s = stream;
    hub.vertx.setTimer(FEED_WAIT_MS, id -> {
      if (s == stream) {
        waitingForFeed = false;
        pump();
      }
    });
  }

  private void onBatch(int s, int p, long upTo, AsyncResult<List<Firing>> ar) {
    if (s != stream || state != State.REPLAYING) {
      return;
    }
    reading = false;
    if (ar.failed()) {
      terminate();
      closeFailedTransport(ar.cause());
      return;
    }
    List<Firing> batch = ar.result();
    boolean clustered = hub.feed.clustered();
    for (Firing f : batch) {
      if (f.seq() <= pos[p]) {
        continue;
      }
      if (f.seq() > upTo) {
        if (pos[p] < upTo) { // all of pos+1..target was trimmed
          meters.gaps.increment();
          enqueue(gapNotice(p, pos[p] + 1, upTo));
          pos[p] = upTo;
        }
        break;
      }
      if (f.seq() > pos[p] + 1) {
        meters.gaps.increment();
        enqueue(gapNotice(p, pos[p] + 1, f.seq() - 1));
      }
      pos[p] = f.seq();
      long stamp = clustered ? replayStamp : f.seq();
      if (topics.matches(f.topic(), stamp)) {
        enqueue(clustered ? EncodedFiring.of(f, p, true, cursor(), stamp) : EncodedFiring.single(f));
        meters.replayed.increment();
      }
    }
    if (batch.size() < hub.options.replayBatch() || batch.get(batch.size() - 1).seq() > upTo) {
      // the log holds nothing more up to the target (what follows it comes live)
      pos[p] = Math.max(pos[p], upTo);
    }
    flush();
  }

  /** The cursor of {@link #pos} now (cluster). */
  private String cursor() {
    if (cursors == null) {
      cursors = new CursorEncoder();
    }
    return cursors.encode(pos);
  }

  private void goLive() {
    state = State.LIVE;
    boolean clustered = hub.feed.clustered();
    while (!liveBuffer.isEmpty()) {
      EncodedFiring e = liveBuffer.poll();
      if (e.seq > pos[e.partition] && topics.matches(e.topic, e.stamp)) {
        pos[e.partition] = e.seq;
        if (!send(clustered ? e.withCursor(cursor()) : e)) {
          return;
        }
      }
    }
    bufferedBytes = 0;
  }

  // ---- ending ----

  /** The socket closed (close handler): forget everything. */
  final void transportEnded() {
    terminate();
  }

  /** Closes a subscriber that cannot keep up. */
  private void closeSlow() {
    terminate();
    meters.slowCloses.increment();
    closeSlowTransport();
  }

  /** Closes it because the server stops. */
  final Future<Void> shutdown() {
    if (state == State.CLOSED) {
      return Future.succeededFuture();
    }
    terminate();
    return closeShutdownTransport();
  }

  /** Marks it closed, drops what it holds, and has the hub unlist it. Idempotent. */
  final void terminate() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    stream++;
    queue.clear();
    queuedBytes = 0;
    liveBuffer.clear();
    bufferedBytes = 0;
    hub.detach(this);
  }
}
