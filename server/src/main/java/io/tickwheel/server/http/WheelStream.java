package io.tickwheel.server.http;

import io.tickwheel.server.wire.SseFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code GET /v1/wheel/stream}: Server-Sent Events, one {@code event: wheel} every {@value #PERIOD_MS} ms with the
 * {@link WheelView#snapshotWithStats} JSON. The periodic timer runs only while someone listens. A viewer whose
 * connection cannot keep up skips frames (never buffers without bound); at most {@value #MAX_VIEWERS} viewers.
 *
 * <p>Owner context only.
 */
public final class WheelStream {

  static final long PERIOD_MS = 250;
  static final int MAX_VIEWERS = 256;

  private final Vertx vertx;
  private final WheelView view;
  private final Set<HttpServerResponse> viewers = new LinkedHashSet<>();
  private long timerId = -1;

  public WheelStream(Vertx vertx, WheelView view) {
    this.vertx = vertx;
    this.view = view;
  }

  /** Starts streaming to this request. */
  public void handle(RoutingContext rc) {
    if (viewers.size() >= MAX_VIEWERS) {
      ErrorResponses.send(rc, new ApiException(429, "resource_exhausted",
          "too many wheel stream viewers (" + MAX_VIEWERS + ")", null));
      return;
    }
    HttpServerResponse res = rc.response();
    res.setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, SseFormat.CONTENT_TYPE)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    viewers.add(res);
    res.closeHandler(v -> remove(res));
    res.exceptionHandler(e -> remove(res));
    res.write(SseFormat.retry(1000));
    send(res, frame());
    if (timerId < 0) {
      timerId = vertx.setPeriodic(PERIOD_MS, id -> broadcast());
    }
  }

  /** Ends every stream (shutdown). */
  public void closeAll() {
    for (HttpServerResponse r : Set.copyOf(viewers)) {
      remove(r);
      if (!r.ended()) {
        r.end();
      }
    }
  }

  private void broadcast() {
    if (viewers.isEmpty()) {
      stopTimer();
      return;
    }
    Buffer frame = frame();
    for (HttpServerResponse r : Set.copyOf(viewers)) {
      send(r, frame);
    }
  }

  private Buffer frame() {
    return SseFormat.event(null, "wheel", view.snapshotWithStats(viewers.size()).encode());
  }

  private static void send(HttpServerResponse r, Buffer frame) {
    if (!r.ended() && !r.writeQueueFull()) {
      r.write(frame);
    }
  }

  private void remove(HttpServerResponse r) {
    viewers.remove(r);
    if (viewers.isEmpty()) {
      stopTimer();
    }
  }

  private void stopTimer() {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
      timerId = -1;
    }
  }
}
