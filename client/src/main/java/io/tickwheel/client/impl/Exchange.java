package io.tickwheel.client.impl;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP request and its whole answer (status and body) within a deadline, for every HTTP call of the client.
 *
 * <p>Vert.x's request options bound only parts of an exchange: the connect timeout covers getting a connection
 * (waiting for a pooled one included) and the idle timeout covers the wait for the response's head, but nothing
 * bounds the body once the head has come, and a request waiting for a pooled connection waits forever without a
 * connect timeout. Here both are set to the deadline's time and a timer at the deadline fails the exchange with a
 * {@link TimeoutException} and resets the request (its connection is closed, never handed to the next request), so
 * a call never waits past {@code timeoutMs} whatever part stalls.
 *
 * <p>Thread safe: callable from any thread; the future completes on a Vert.x thread, not necessarily the caller's
 * context.
 */
final class Exchange {

  /** An HTTP answer: its status and its whole body. */
  record Answer(int status, Buffer body) {}

  private Exchange() {}

  /** Whether {@code failure} is a deadline passing (this class's or a Vert.x timeout), not a lost connection. */
  static boolean timedOut(Throwable failure) {
    return failure instanceof TimeoutException
        || String.valueOf(failure.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("timeout");
  }

  /**
   * Sends {@code request} (its URI: {@code path} on the endpoint in use, {@link Endpoints#request}) with {@code body}
   * (none if null) and gathers the answer.
   *
   * @param timeoutMs from this call to the answer's last byte, milliseconds ({@code > 0})
   * @param onConnected run (on a Vert.x thread) once a connection is had, just before the request is written: from
   *     then on the request may reach the server; a failure before it means nothing was sent
   * @return the answer; or a {@link TimeoutException} past the deadline, or the connection's failure
   */
  static Future<Answer> send(Vertx vertx, HttpClientAgent http, Endpoints endpoints, RequestOptions request,
      String path, Buffer body, long timeoutMs, Runnable onConnected) {
    return send(vertx, http, endpoints, null, request, path, body, timeoutMs, onConnected);
  }

  /**
   * As {@link #send(Vertx, HttpClientAgent, Endpoints, RequestOptions, String, Buffer, long, Runnable)}, to
   * {@code base} (a partition's owner) instead of the endpoint in use when it is not {@code null}.
   */
  static Future<Answer> send(Vertx vertx, HttpClientAgent http, Endpoints endpoints, String base,
      RequestOptions request, String path, Buffer body, long timeoutMs, Runnable onConnected) {
    Promise<Answer> answer = Promise.promise();
    HttpClientRequest[] obtained = new HttpClientRequest[1];
    long timer = vertx.setTimer(timeoutMs, id -> {
      if (answer.tryFail(new TimeoutException(request.getMethod() + " " + path + ": no answer within "
          + timeoutMs + " ms"))) {
        HttpClientRequest req;
        synchronized (obtained) {
          req = obtained[0];
        }
        if (req != null) {
          req.reset();
        }
      }
    });
    endpoints.request(http, request.setConnectTimeout(timeoutMs).setIdleTimeout(timeoutMs), base, path).compose(req -> {
      synchronized (obtained) {
        obtained[0] = req;
      }
      if (answer.future().isComplete()) {
        req.reset();
        return Future.failedFuture(new TimeoutException("past the deadline"));
      }
      onConnected.run();
      return body == null ? req.send() : req.send(body);
    }).compose(resp -> resp.body().map(buf -> new Answer(resp.statusCode(), buf))).onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (ar.succeeded()) {
        answer.tryComplete(ar.result());
      } else {
        answer.tryFail(ar.cause());
      }
    });
    return answer.future();
  }
}
