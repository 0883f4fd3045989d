package io.tickwheel.client.impl;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The endpoint in use, out of the options' list, and the move to the next one when a connection to it cannot be
 * made. Every part of the client (command WebSocket, subscriptions, batch posts, reads) asks for the current endpoint
 * when it connects and reports a failed connection; the first report about the endpoint in use moves everyone on,
 * later reports about an endpoint already left change nothing (so ten requests failing together skip one node, not
 * ten). Thread safe.
 */
final class Endpoints {

  private final List<String> urls;
  private final AtomicInteger current = new AtomicInteger();

  Endpoints(List<String> urls) {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no endpoint");
    }
    this.urls = List.copyOf(urls);
  }

  /** The base URL in use ({@code http[s]://HOST:PORT}). */
  String current() {
    return urls.get(current.get());
  }

  /** The WebSocket URL of {@code base}. */
  static String ws(String base) {
    return base.replaceFirst("^http", "ws") + "/v1/ws";
  }

  /** The trust options of {@code o}'s trusted certificates, or {@code null} for the JVM's trust store. */
  static io.vertx.core.net.TrustOptions trust(io.tickwheel.client.TickwheelClientOptions o) {
    return o.getTrustedCertificates() == null ? null
        : new io.vertx.core.net.PemTrustOptions().addCertPath(o.getTrustedCertificates().toString());
  }

  /** Whether the endpoints are {@code https} (all are, or none). */
  boolean tls() {
    return urls.get(0).startsWith("https:");
  }

  /** A connection to {@code base} could not be made: the next endpoint is used, if {@code base} is still in use. */
  void failed(String base) {
    int i = current.get();
    if (urls.get(i).equals(base)) {
      current.compareAndSet(i, (i + 1) % urls.size());
    }
  }

  /**
   * Opens a WebSocket to the current endpoint's {@code /v1/ws} with {@code template}'s other settings; a failed
   * connect moves to the next endpoint ({@link #failed}).
   */
  io.vertx.core.Future<io.vertx.core.http.WebSocket> connect(io.vertx.core.http.WebSocketClient client,
      io.vertx.core.http.WebSocketConnectOptions template) {
    String base = current();
    return client.connect(new io.vertx.core.http.WebSocketConnectOptions(template).setAbsoluteURI(ws(base)))
        .onFailure(t -> failed(base));
  }

  /**
   * Sends {@code request} (its URI: {@code path} on the current endpoint) once a connection is had; no connection
   * moves to the next endpoint. A request that got a connection is not tried elsewhere.
   */
  io.vertx.core.Future<io.vertx.core.http.HttpClientRequest> request(io.vertx.core.http.HttpClientAgent http,
      io.vertx.core.http.RequestOptions request, String path) {
    String base = current();
    return http.request(request.setAbsoluteURI(base + path)).onFailure(t -> failed(base));
  }

  /**
   * Sends {@code request} to {@code path} on {@code base} (a partition's owner, {@link PartitionMap}), or on the
   * endpoint in use when {@code base} is {@code null} ({@link #request}). A failure to reach an owner is the caller's
   * to report to the map; it does not move the endpoint in use.
   */
  io.vertx.core.Future<io.vertx.core.http.HttpClientRequest> request(io.vertx.core.http.HttpClientAgent http,
      io.vertx.core.http.RequestOptions request, String base, String path) {
    return base == null ? request(http, request, path) : http.request(request.setAbsoluteURI(base + path));
  }

  /** How many endpoints there are. */
  int size() {
    return urls.size();
  }
}
