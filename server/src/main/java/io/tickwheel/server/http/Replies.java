package io.tickwheel.server.http;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Success answers, and the settling of a handler's outcome future: what every handler shares. A refusal is answered
 * through {@link OutcomeMapping} and {@link ErrorResponses}; a failed future is a bug, answered 500 by the router's
 * failure handler.
 *
 * <p>Stateless, thread safe (each call on its request's context).
 */
public final class Replies {

  private Replies() {}

  /** Answers {@code status} with a JSON body. */
  public static void json(RoutingContext rc, int status, Buffer body) {
    rc.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body);
  }

  /** Answers {@code status} with timer {@code t} as the API shows it ({@link TimerJson#append}). */
  static void timer(RoutingContext rc, int status, Timer t) {
    StringBuilder sb = new StringBuilder(192 + (t.payload() == null ? 0 : t.payload().length()));
    json(rc, status, Buffer.buffer(TimerJson.append(sb, t).toString()));
  }

  /** Answers a write: {@code onSuccess} with a success, else the refusal's error. */
  static void write(RoutingContext rc, Future<WriteOutcome> f, Consumer<WriteOutcome> onSuccess) {
    settle(rc, f, o -> {
      if (o instanceof Refusal r) {
        rc.fail(OutcomeMapping.error(r));
      } else {
        onSuccess.accept(o);
      }
    });
  }

  /** Answers a read: {@code onSuccess} with a success, else the refusal's error. */
  static void read(RoutingContext rc, Future<ReadOutcome> f, Consumer<ReadOutcome> onSuccess) {
    settle(rc, f, o -> {
      if (o instanceof Refusal r) {
        rc.fail(OutcomeMapping.error(r));
      } else {
        onSuccess.accept(o);
      }
    });
  }

  /** Runs {@code then} with the result, or fails the route (a bug: mapped to 500 by the failure handler). */
  static <T> void settle(RoutingContext rc, Future<T> f, Consumer<T> then) {
    f.onComplete(ar -> {
      if (ar.failed()) {
        rc.fail(ar.cause());
        return;
      }
      try {
        then.accept(ar.result());
      } catch (RuntimeException e) {
        rc.fail(e);
      }
    });
  }

  /** The largest body whose JSON is decoded and encoded on the owner rather than on the codec workers, bytes. */
  static final int INLINE_JSON_BYTES = 16 * 1024;

  /**
   * {@code work} (JSON decoding or encoding) on the owner when {@code inline}, else on the {@code codec} workers; its
   * exception fails the future. A 10,000-timer batch costs tens of milliseconds of JSON work, which must not delay the
   * owner's firing turns; a small one (a client's or a forwarding node's gathered calls: a few dozen timers) would
   * cost more in two thread hops than in its JSON.
   */
  static <T> Future<T> json(WorkerExecutor codec, boolean inline, Callable<T> work) {
    if (!inline) {
      return codec.executeBlocking(work, false);
    }
    try {
      return Future.succeededFuture(work.call());
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
  }
}
