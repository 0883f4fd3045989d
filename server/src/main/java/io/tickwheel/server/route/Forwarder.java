package io.tickwheel.server.route;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * Sends {@link InternalCall}s to the node that owns a partition (JSON, to {@link InternalCodec#PATH}, named by
 * {@link InternalCodec#NODE_HEADER}, with an admin token; over TLS for an {@code https://} owner, verified against
 * {@link RouteOptions#trust()}): over one WebSocket per owner, many calls in flight on it ({@link CallSockets}), or
 * as {@code POST}s over pooled HTTP/1.1 keep-alive connections (a large call, an owner that takes no call socket). At
 * most {@link RouteOptions#maxInFlight()} at once, each given up after {@link RouteOptions#timeoutMs()} (a
 * {@code POST} is then reset).
 *
 * <p>Owner context only (the in-flight count is not synchronized); futures complete there. A future fails only with
 * {@link Failure} (not routed: full, unreachable, timed out), never otherwise.
 */
final class Forwarder {

  /** The owner's answer: status, body (whole), and its {@code Retry-After} seconds (0 for none). */
  public record Answer(int status, Buffer body, int retryAfter) {}

  /** Why a call was not answered by the owner. */
  public static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The meter outcome: {@code full}, {@code timeout} or {@code unreachable}. */
    public final String outcome;
    /** Whether the owner may have applied it (the request was sent, the answer did not come). */
    public final boolean mayHaveApplied;

    Failure(String outcome, String message, boolean mayHaveApplied) {
      super(message, null, false, false);
      this.outcome = outcome;
      this.mayHaveApplied = mayHaveApplied;
    }
  }

  private final Vertx vertx;
  private final HttpClientAgent client;
  private final CallSockets sockets;
  private final RouteOptions opts;
  private final String nodeId;
  private final java.util.function.Supplier<String> token;
  private final RouteMetrics metrics;
  private int inFlight;

  /**
   * @param nodeId this node's id (the {@link InternalCodec#NODE_HEADER} header's value)
   * @param token  an admin token every node takes, asked for each call, or {@code null} for none
   */
  public Forwarder(Vertx vertx, RouteOptions opts, String nodeId, java.util.function.Supplier<String> token,
      RouteMetrics metrics) {
    this.vertx = vertx;
    this.opts = opts;
    this.nodeId = nodeId;
    this.token = token;
    this.metrics = metrics;
    HttpClientOptions o = new HttpClientOptions().setConnectTimeout(opts.connectTimeoutMs())
        .setKeepAlive(true).setTcpNoDelay(true).setVerifyHost(true)
        .setIdleTimeout(60);
    if (opts.trust() != null) {
      o.setTrustOptions(opts.trust());
    }
    this.client = vertx.createHttpClient(o, new PoolOptions().setHttp1MaxSize(opts.poolSize()));
    this.sockets = new CallSockets(vertx, opts, nodeId, token, this::post);
    metrics.transportCounters(sockets);
    metrics.inFlightGauge(() -> inFlight);
  }

  /** The Vert.x instance its client runs on. */
  Vertx vertx() {
    return vertx;
  }

  /** Forwarded calls in flight now. */
  public int inFlight() {
    return inFlight;
  }

  /**
   * Sends a call's {@code body} ({@link InternalCodec#encode}) to the node at {@code base} (its advertised URL, e.g.
   * {@code http://10.0.0.5:8080}): over the node's call socket ({@link CallSockets}), or as a {@code POST}.
   */
  public Future<Answer> send(String base, Buffer body) {
    if (inFlight >= opts.maxInFlight()) {
      return Future.failedFuture(new Failure("full", "this node has its maximum of " + opts.maxInFlight()
          + " forwarded calls in flight", false));
    }
    inFlight++;
    long t0 = System.nanoTime();
    Promise<Answer> done = Promise.promise();
    boolean[] sent = {false};
    long timer = vertx.setTimer(opts.timeoutMs(), id -> done.tryFail(new Failure("timeout", "the owner at " + base
        + " did not answer within " + opts.timeoutMs() + " ms", sent[0])));
    sockets.send(base, body, done, () -> sent[0] = true);
    return done.future().andThen(ar -> {
      vertx.cancelTimer(timer);
      inFlight--;
      metrics.forwarded(System.nanoTime() - t0);
    });
  }

  /** {@link CallSockets.Post}: the call as a {@code POST} to {@code base}. */
  private void post(String base, Buffer body, Promise<Answer> done, Runnable onSent) {
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(base + InternalCodec.PATH)
        .setConnectTimeout(opts.connectTimeoutMs()).setIdleTimeout(opts.timeoutMs())
        .putHeader(InternalCodec.NODE_HEADER, nodeId)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    String t = token == null ? null : token.get();
    if (t != null) {
      ro.putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + t);
    }
    client.request(ro).onComplete(ar -> {
      if (ar.failed()) {
        done.tryFail(new Failure("unreachable", "the owner at " + base + " could not be reached: "
            + ar.cause().getMessage(), false));
        return;
      }
      var req = ar.result();
      done.future().onFailure(e -> req.reset());      // a timeout resets the request (a no-op once answered)
      onSent.run();
      req.send(body).compose(r -> r.body().map(b -> new Answer(r.statusCode(), b, retryAfter(r.getHeader(HttpHeaders.RETRY_AFTER)))))
          .onComplete(a -> {
            if (a.succeeded()) {
              done.tryComplete(a.result());
            } else {
              done.tryFail(new Failure("unreachable", "the owner at " + base + " failed the call: "
                  + a.cause().getMessage(), true));
            }
          });
    });
  }

  private static int retryAfter(String h) {
    if (h == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(h.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Forwarded calls sent so far over a call socket, and as a {@code POST} (tests). */
  long[] transports() {
    return new long[] {sockets.overSocket, sockets.posted};
  }

  /** Closes the connections. */
  public Future<Void> close() {
    return Future.join(sockets.close(), client.close()).mapEmpty();
  }
}
