package io.tickwheel.server.dispatch;

import io.tickwheel.core.callback.CallbackUrl;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * POSTs one attempt with Vert.x's pooled {@link HttpClient}, every timeout set:
 * <ul>
 *   <li>connect: {@code min(timeoutMs, connectTimeoutMs)};</li>
 *   <li>idle: the request fails when nothing arrives for {@code timeoutMs};</li>
 *   <li>overall: a Vert.x timer of {@code timeoutMs} from the start resets the request (closing its connection)
 *       whatever arrived, so a receiver that trickles one byte every few seconds is cut off too.</li>
 * </ul>
 * Redirects are never followed (a 3xx is an answer like any other). The request goes to the address the guard
 * checked ({@code server}), with the URL's host as {@code Host} header and TLS SNI (and certificate check). The answer
 * is read to its end (its bytes discarded) so the connection can be reused. Thread safe; futures complete on the
 * caller's context.
 */
final class DeliveryClient {

  private final Vertx vertx;
  private final HttpClient client;
  private final int connectTimeoutMs;

  public DeliveryClient(Vertx vertx, DeliveryOptions opts) {
    this.vertx = vertx;
    this.connectTimeoutMs = opts.connectTimeoutMs();
    HttpClientOptions o = new HttpClientOptions()
        .setKeepAlive(true)
        .setMaxRedirects(0)
        .setForceSni(true)
        .setVerifyHost(true)
        .setConnectTimeout(opts.connectTimeoutMs())
        .setIdleTimeout(60)
        .setIdleTimeoutUnit(TimeUnit.SECONDS)
        .setDecompressionSupported(false);
    // connections spread over a few event loops, so the receivers' I/O does not all run on the owner loop (the
    // scheduler's); results still come back on the caller's context
    PoolOptions pool = new PoolOptions()
        .setHttp1MaxSize(opts.perHostConcurrency())
        .setMaxWaitQueueSize(opts.perHostConcurrency())
        .setEventLoopSize(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())));
    this.client = vertx.httpClientBuilder().with(o).with(pool).build();
  }

  /**
   * Sends {@code body} to {@code url} at {@code address}.
   *
   * @param url       the callback URL as {@link CallbackUrl} took it apart (its host is the {@code Host} header and the
   *                  TLS server name, its target the request's)
   * @param headers   extra headers (the signature ones)
   * @param timeoutMs the attempt's whole budget, ms
   * @return never failed: the result says what happened
   */
  public Future<AttemptResult> post(CallbackUrl url, InetAddress address, Map<String, String> headers, Buffer body,
      int timeoutMs, long startNanos) {
    boolean https = url.scheme().equals("https");
    int port = url.port();
    long remaining = Math.max(1, timeoutMs - (System.nanoTime() - startNanos) / 1_000_000);
    RequestOptions ro = new RequestOptions()
        .setMethod(HttpMethod.POST)
        .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
        .setHost(url.host())
        .setPort(port)
        .setSsl(https)
        .setURI(url.target())
        .setFollowRedirects(false)
        .setConnectTimeout(Math.min(remaining, connectTimeoutMs))
        .setIdleTimeout(remaining);
    Promise<AttemptResult> done = Promise.promise();
    HttpClientRequest[] req = new HttpClientRequest[1];
    long deadline = vertx.setTimer(remaining, id -> {
      if (done.tryComplete(result(0, null, AttemptResult.TIMEOUT, startNanos)) && req[0] != null) {
        req[0].reset(0, new java.util.concurrent.TimeoutException("attempt deadline"));
      }
    });
    client.request(ro).compose(r -> {
      req[0] = r;
      if (done.future().isComplete()) {
        r.reset();
        return Future.failedFuture("deadline passed");
      }
      headers.forEach(r::putHeader);
      r.putHeader("content-type", "application/json");
      r.putHeader("user-agent", "tickwheel-webhooks");
      return r.send(body);
    }).compose(resp -> {
      int status = resp.statusCode();
      String retryAfter = resp.getHeader("retry-after");
      resp.handler(b -> { });
      return resp.end().map(v -> result(status, retryAfter, null, startNanos));
    }).onComplete(ar -> {
      vertx.cancelTimer(deadline);
      if (ar.succeeded()) {
        done.tryComplete(ar.result());
      } else {
        boolean timeout = ar.cause() instanceof java.util.concurrent.TimeoutException
            || String.valueOf(ar.cause().getMessage()).toLowerCase(java.util.Locale.ROOT).contains("timeout")
            || String.valueOf(ar.cause().getMessage()).contains("timed out");
        done.tryComplete(result(0, null, timeout ? AttemptResult.TIMEOUT : AttemptResult.CONNECTION, startNanos));
      }
    });
    return done.future();
  }

  private static AttemptResult result(int status, String retryAfter, String error, long startNanos) {
    return new AttemptResult(status, retryAfter, error, (System.nanoTime() - startNanos) / 1_000_000);
  }

  /** Closes the pool. */
  public Future<Void> close() {
    return client.close();
  }
}
