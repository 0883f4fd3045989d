package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP side of a batcher ({@link TouchBatcher}, {@link ScheduleBatcher}): Vert.x's HTTP client with keep-alive, one
 * pooled connection per request in flight, the options' connect and idle timeouts and TLS for {@code https}; requests
 * to one path with the request timeout as their idle timeout, JSON, and the bearer token. Thread safe (the client is).
 */
final class BatchPoster {

  private final Vertx vertx;
  private final HttpClientAgent http;
  private final Endpoints endpoints;
  private final String path;
  private final String authorization;
  private final long requestTimeoutMs;

  /** @param maxInFlight requests in flight at most (pooled connections) */
  BatchPoster(Vertx vertx, TickwheelClientOptions o, Endpoints endpoints, String path, int maxInFlight) {
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(o.getConnectTimeoutMs())
        .setIdleTimeout(o.getIdleTimeoutMs()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setSsl(endpoints.tls()).setVerifyHost(true)
        .setTrustOptions(Endpoints.trust(o)), new PoolOptions().setHttp1MaxSize(maxInFlight));
    this.vertx = vertx;
    this.endpoints = endpoints;
    this.path = path;
    this.authorization = o.getToken() == null ? null : "Bearer " + o.getToken();
    this.requestTimeoutMs = o.getRequestTimeoutMs();
  }

  /**
   * POSTs {@code body} to the path on the endpoint in use and gathers the answer, all within the request timeout
   * ({@link Exchange}); no connection moves to the next endpoint.
   *
   * @param onConnected run once a connection is had, just before the request is written (a failure before it means
   *     nothing was sent)
   */
  Future<Exchange.Answer> post(Buffer body, Runnable onConnected) {
    return post(null, body, onConnected);
  }

  /** As {@link #post(Buffer, Runnable)}, to {@code base} (a partition's owner) unless it is {@code null}. */
  Future<Exchange.Answer> post(String base, Buffer body, Runnable onConnected) {
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).putHeader("Content-Type", "application/json");
    if (authorization != null) {
      ro.putHeader("Authorization", authorization);
    }
    return Exchange.send(vertx, http, endpoints, base, ro, path, body, requestTimeoutMs, onConnected);
  }

  Future<Void> close() {
    return http.close();
  }

  /** Runs {@code r} on {@code context}: inline when already there. */
  static void onContext(Context context, Runnable r) {
    if (Vertx.currentContext() == context) {
      r.run();
    } else {
      context.runOnContext(v -> r.run());
    }
  }
}
