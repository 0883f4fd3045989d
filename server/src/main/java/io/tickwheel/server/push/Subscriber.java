package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One subscriber's ordered stream of firings, whatever its transport: replay from the firing log, switch to live
 * firings without a gap or a duplicate, bounded queues, slow-consumer cut-off. Subclasses put it on a socket.
 *
 * <h2>Stream</h2>
 * A stream starts either live ({@link #startLive}: only firings published from now on) or from a seq
 * ({@link #startReplay}). {@code cursor} is the highest seq the stream has accounted for (delivered, or passed
 * over as another topic's); the stream only ever moves forward, so every firing goes out at most once and in seq
 * order.
 *
 * <h2>Replay</h2>
 * While replaying, the subscriber reads the store in batches ({@code readFirings(cursor, replayBatch)}, one batch
 * per event-loop turn, the next one only once its queue has drained, so a slow reader only slows its own replay).
 * Live firings published meanwhile are buffered (at most {@code maxQueuedPerSubscriber} and
 * {@link FiringHub#MAX_QUEUED_BYTES_PER_SUBSCRIBER}). When a batch comes back short the log is exhausted: the
 * stream goes live with the buffered firings newer than {@code cursor} (older ones were replayed already).
 * Firings are published only after the store recorded them, so whatever was published before the buffering
 * started is in the log, and the short batch read after it covers it. If the buffer overflows it is dropped and
 * the replay simply goes on reading: only a short batch <em>issued after the last overflow</em> ends the replay.
 * A replay never closes a subscriber for being slow.
 *
 * <h2>Gaps</h2>
 * If the log no longer holds the firings right after {@code cursor} (trimmed by retention), the subscriber is
 * sent a gap notice ({@link #gapNotice}) naming the missing seq range, then what is retained.
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
  private long cursor;
  /** Bumped whenever the stream starts, stops or closes: a store read of an older stream is ignored. */
  private int stream;
  private boolean reading;
  private boolean caughtUp;
  private int overflows;
  private int overflowsAtLastRead;

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

  /** A notice that firings {@code fromSeq..toSeq} were trimmed before this subscriber could get them. */
  abstract Object gapNotice(long fromSeq, long toSeq);

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

  /** Starts a stream of the firings published from now on, after {@code afterSeq}. */
  final void startLive(long afterSeq) {
    restart(State.LIVE, afterSeq);
  }

  /** Starts a stream that replays the retained firings after {@code afterSeq}, then goes live. */
  final void startReplay(long afterSeq) {
    restart(State.REPLAYING, afterSeq);
    pump();
  }

  /** Stops the stream (nothing subscribed any more); what is queued still goes out. */
  final void stop() {
    restart(State.IDLE, cursor);
  }

  private void restart(State next, long afterSeq) {
    if (state == State.CLOSED) {
      return;
    }
    stream++;
    state = next;
    cursor = afterSeq;
    reading = false;
    caughtUp = false;
    liveBuffer.clear();
    bufferedBytes = 0;
  }

  /**
   * A published firing whose topic this subscriber is listed under. O(1), never blocks, never waits for a write.
   *
   * @return false if the subscriber had to be closed (too slow)
   */
  final boolean offer(EncodedFiring e) {
    if (e.seq <= cursor || !topics.matches(e.topic, e.seq)) {
      return state != State.CLOSED;
    }
    switch (state) {
      case LIVE:
        cursor = e.seq;
        return send(e);
      case REPLAYING:
        if (liveBuffer.size() >= hub.options.maxQueuedPerSubscriber()
            || bufferedBytes + e.size() > FiringHub.MAX_QUEUED_BYTES_PER_SUBSCRIBER) {
          liveBuffer.clear();
          bufferedBytes = 0;
          overflows++;
          hub.replayBufferOverflows++;
        }
        liveBuffer.add(e);
        bufferedBytes += e.size();
        return true;
      default:
        return state != State.CLOSED;
    }
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
    if (state != State.REPLAYING || reading || !queue.isEmpty() || transportClosed() || transportFull()) {
      return;
    }
    if (caughtUp && overflowsAtLastRead == overflows) {
      goLive();
      return;
    }
    reading = true;
    int s = stream;
    hub.onOwner(() -> {
      if (s == stream) {
        int overflowsAtIssue = overflows;
        hub.store.readFirings(cursor, hub.options.replayBatch()).onComplete(ar -> onBatch(s, overflowsAtIssue, ar));
      }
    });
  }

  private void onBatch(int s, int overflowsAtIssue, AsyncResult<List<Firing>> ar) {
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
    for (Firing f : batch) {
      if (f.seq() <= cursor) {
        continue;
      }
      if (f.seq() > cursor + 1) {
        meters.gaps.increment();
        enqueue(gapNotice(cursor + 1, f.seq() - 1));
      }
      cursor = f.seq();
      if (topics.matches(f.topic(), f.seq())) {
        enqueue(EncodedFiring.of(f));
        meters.replayed.increment();
      }
    }
    caughtUp = batch.size() < hub.options.replayBatch();
    overflowsAtLastRead = overflowsAtIssue;
    flush();
  }

  private void goLive() {
    state = State.LIVE;
    while (!liveBuffer.isEmpty()) {
      EncodedFiring e = liveBuffer.poll();
      if (e.seq > cursor && topics.matches(e.topic, e.seq)) {
        cursor = e.seq;
        if (!send(e)) {
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
