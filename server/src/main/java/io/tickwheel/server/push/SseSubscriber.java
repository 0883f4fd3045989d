package io.tickwheel.server.push;

import io.tickwheel.server.wire.PushNotices;
import io.tickwheel.server.wire.SseFormat;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * A {@code GET /v1/events} subscriber: one {@link Subscriber} stream written as Server-Sent Events.
 *
 * <ul>
 *   <li>each firing: {@code id: <seq>}, {@code event: fired}, {@code data: <firing JSON>};</li>
 *   <li>a gap notice: {@code event: gap}, {@code data: {"type":"error","code":"gap",…,"from":a,"to":b}}, without an
 *       id (the client's last event id stays the last firing's);</li>
 *   <li>a comment {@code : connected …} first, then a comment heartbeat whenever the stream was idle for a while;</li>
 *   <li>too slow: {@code event: error} ({@code "code":"slow_consumer"}), then the response ends; if the client does
 *       not even read that within {@link #END_GRACE_MS}, its connection is closed.</li>
 * </ul>
 *
 * <p>Not thread safe: owner context only.
 */
final class SseSubscriber extends Subscriber {

  /** How long an ended response may take to reach a client before its connection is closed, ms. */
  static final long END_GRACE_MS = 5_000;

  static final Buffer HEARTBEAT = SseFormat.comment("heartbeat");

  private final RoutingContext rc;
  private final HttpServerResponse response;

  SseSubscriber(FiringHub hub, RoutingContext rc) {
    super(hub, hub.metrics.sse);
    this.rc = rc;
    this.response = rc.response();
  }

  /** Sends the headers and starts the stream the request asks for. */
  void start(SseRequest request, long[] from) {
    response.setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, SseFormat.CONTENT_TYPE)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .putHeader("X-Accel-Buffering", "no");
    response.drainHandler(v -> flush());
    response.closeHandler(v -> transportEnded());
    response.exceptionHandler(t -> FiringHub.LOG.log(System.Logger.Level.DEBUG, "SSE subscriber error", t));
    long since = from == null ? hub.stamp() : hub.feed.clustered() ? 0 : from[0];
    topics.add(request.topics(), since);
    hub.reindex(this);
    if (!sendControl(SseFormat.comment("connected, topics " + topics.sorted() + ", latest "
        + (hub.feed.clustered() ? "cursor " + hub.latestCursor() : "seq " + hub.latestSeq())))) {
      return;
    }
    if (from == null) {
      startLive(null);
    } else {
      startReplay(from);
    }
  }

  /** A comment if the stream has nothing waiting (called by the hub's heartbeat timer). */
  @Override
  void heartbeat() {
    sendIfIdle(HEARTBEAT);
  }

  @Override
  boolean transportClosed() {
    return response.ended() || response.closed();
  }

  @Override
  boolean transportFull() {
    try {
      return response.writeQueueFull();
    } catch (IllegalStateException ended) {
      return true;
    }
  }

  @Override
  void writeFiring(EncodedFiring e) {
    response.write(e.sseFrame());
  }

  @Override
  void writeControl(Object message) {
    response.write((Buffer) message);
  }

  @Override
  int controlSize(Object message) {
    return ((Buffer) message).length();
  }

  @Override
  Object gapNotice(int partition, long fromSeq, long toSeq) {
    return SseFormat.event(null, PushNotices.GAP, hub.feed.clustered()
        ? PushNotices.gap(partition, fromSeq, toSeq) : PushNotices.gap(fromSeq, toSeq));
  }

  @Override
  void closeSlowTransport() {
    end(SseFormat.event(null, "error", PushNotices.error("slow_consumer", null,
        "subscriber too slow, reconnect with Last-Event-ID to resume")));
  }

  @Override
  void closeFailedTransport(Throwable cause) {
    FiringHub.LOG.log(System.Logger.Level.WARNING, "Replay failed, ending SSE subscriber", cause);
    end(SseFormat.event(null, "error", PushNotices.error("unavailable", null,
        "the firing log could not be read: " + cause.getMessage() + "; reconnect to resume")));
  }

  @Override
  Future<Void> closeShutdownTransport() {
    return end(null);
  }

  /**
   * Ends the response (after {@code last}, if any); closes the connection if the end has not reached the client
   * within {@link #END_GRACE_MS}, so a client that stopped reading cannot hold it forever.
   */
  private Future<Void> end(Buffer last) {
    if (transportClosed()) {
      return Future.succeededFuture();
    }
    Promise<Void> done = Promise.promise();
    Future<Void> ended = last == null ? response.end() : response.end(last);
    long timer = hub.vertx.setTimer(END_GRACE_MS, id -> {
      if (!ended.isComplete()) {
        if (rc.request().version() == HttpVersion.HTTP_2) {
          response.reset(); // this stream only, not the other streams of the connection
        } else {
          rc.request().connection().close();
        }
      }
      done.tryComplete();
    });
    ended.onComplete(ar -> {
      hub.vertx.cancelTimer(timer);
      done.tryComplete();
    });
    return done.future();
  }
}
