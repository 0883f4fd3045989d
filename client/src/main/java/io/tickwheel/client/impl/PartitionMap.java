package io.tickwheel.client.impl;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Which node owns which partition of a cluster, as {@code GET /v1/cluster} says, so the batchers send each timer
 * straight to its owner instead of to a node that forwards it. Only a client given several endpoints routes so
 * ({@link #enabled}); a single node (one partition) is never routed.
 *
 * <p>The map is read from the endpoint in use on first use, again when it is {@value #REFRESH_MS} ms old (read while
 * in use, so an idle client reads nothing), and soon after a request to an owner could not be made ({@link #failed})
 * or was answered 503 ({@link #stale}): partitions changed hands. (A node that no longer owns a partition forwards the
 * call to the new owner, so a stale map costs a hop, not an error.) A call whose owner is not known (not read yet, no live owner, an owner that could not be
 * reached within the last {@value #UNREACHABLE_MS} ms) goes to the endpoint in use, which forwards it: routing saves
 * a hop, it never decides whether a call succeeds. At most one read in flight, and at most one every
 * {@value #MIN_REFRESH_MS} ms.
 *
 * <p>The partition of an id is the server's: MurmurHash3's 32-bit finalizer of the id's {@code String.hashCode()},
 * unsigned, modulo the partition count.
 *
 * <p>Not thread safe: the client's context only.
 */
final class PartitionMap {

  /** Age at which the map is read again while in use, ms. */
  static final long REFRESH_MS = 5_000;
  /** Least time between two reads, ms. */
  static final long MIN_REFRESH_MS = 500;
  /** How long an owner that could not be reached gets no call, ms. */
  static final long UNREACHABLE_MS = 10_000;

  private final Vertx vertx;
  private final Context context;
  private final HttpClientAgent http;
  private final Endpoints endpoints;
  private final String authorization;
  private final long requestTimeoutMs;
  private final boolean enabled;

  /** Per partition, its owner's base URL, or null; null until first read. */
  private String[] owners;
  private long readAtNanos;
  private long lastTryNanos = Long.MIN_VALUE / 2;
  private boolean reading;
  private long readTimer = -1;
  private final Map<String, Long> unreachableUntil = new HashMap<>();
  private boolean closed;
  /** Reads of the map so far (tests). */
  long reads;

  PartitionMap(Vertx vertx, Context context, Endpoints endpoints, String token, long connectTimeoutMs,
      long requestTimeoutMs) {
    this.vertx = vertx;
    this.context = context;
    this.endpoints = endpoints;
    this.enabled = endpoints.size() > 1;
    this.authorization = token == null ? null : "Bearer " + token;
    this.requestTimeoutMs = requestTimeoutMs;
    this.http = enabled ? vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) connectTimeoutMs)
        .setSsl(endpoints.tls()).setIdleTimeout((int) requestTimeoutMs).setIdleTimeoutUnit(TimeUnit.MILLISECONDS),
        new PoolOptions().setHttp1MaxSize(1)) : null;
  }

  /** Whether a map has been read (tests). */
  boolean loaded() {
    return owners != null;
  }

  /** Whether calls are routed to owners (the client was given several endpoints). */
  boolean enabled() {
    return enabled;
  }

  /** The base URL of {@code id}'s owner, or {@code null}: send it to the endpoint in use. */
  String ownerOf(String id) {
    if (!enabled || closed) {
      return null;
    }
    String[] o = owners;
    if (o == null || System.nanoTime() - readAtNanos > REFRESH_MS * 1_000_000) {
      read();
    }
    if (o == null || o.length < 2 || id == null) {
      return null;
    }
    String base = o[partitionOf(id, o.length)];
    if (base != null && !unreachableUntil.isEmpty()) {
      Long until = unreachableUntil.get(base);
      if (until != null) {
        if (System.nanoTime() - until < 0) {
          return null;
        }
        unreachableUntil.remove(base);
      }
    }
    return base;
  }

  /** A request to owner {@code base} could not be made: calls go elsewhere for a while, and the map is read soon. */
  void failed(String base) {
    if (!enabled || base == null) {
      return;
    }
    unreachableUntil.put(base, System.nanoTime() + UNREACHABLE_MS * 1_000_000);
    read();
  }

  /**
   * An owner answered 503 (a partition changing hands, no live owner yet): the map is read again soon. The call's
   * own retry is its caller's.
   */
  void stale() {
    if (enabled && !closed) {
      read();
    }
  }

  /** The partition of {@code id} among {@code partitions}: the server's {@code Partitions.of}. */
  static int partitionOf(String id, int partitions) {
    int h = id.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return Integer.remainderUnsigned(h, partitions);
  }

  private void read() {
    if (reading || readTimer >= 0 || closed) {
      return;
    }
    long waitMs = MIN_REFRESH_MS - (System.nanoTime() - lastTryNanos) / 1_000_000;
    if (waitMs > 0) {
      readTimer = vertx.setTimer(waitMs, id -> {
        readTimer = -1;
        read();
      });
      return;
    }
    reading = true;
    lastTryNanos = System.nanoTime();
    reads++;
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.GET);
    if (authorization != null) {
      ro.putHeader("Authorization", authorization);
    }
    Exchange.send(vertx, http, endpoints, ro, "/v1/cluster", null, requestTimeoutMs, () -> { })
        .onComplete(ar -> BatchPoster.onContext(context, () -> {
          reading = false;
          if (ar.succeeded() && ar.result().status() == 200) {
            try {
              owners = parse(ar.result().body().toJsonObject());
              readAtNanos = System.nanoTime();
            } catch (RuntimeException e) {
              owners = null; // not a map this client reads: calls go to the endpoint in use
              readAtNanos = System.nanoTime();
            }
          }
        }));
  }

  /** Per partition, the owner's address, from a {@code GET /v1/cluster} body. */
  static String[] parse(JsonObject body) {
    int partitions = body.getInteger("partitions");
    Map<String, String> address = new HashMap<>();
    JsonArray nodes = body.getJsonArray("nodes");
    for (int i = 0; i < nodes.size(); i++) {
      JsonObject n = nodes.getJsonObject(i);
      address.put(n.getString("id"), stripSlash(n.getString("address")));
    }
    String[] out = new String[partitions];
    JsonArray owners = body.getJsonArray("owners");
    for (int i = 0; i < owners.size(); i++) {
      JsonObject o = owners.getJsonObject(i);
      int p = o.getInteger("partition");
      if (p >= 0 && p < partitions && o.getString("node") != null) {
        out[p] = address.get(o.getString("node"));
      }
    }
    return out;
  }

  private static String stripSlash(String s) {
    return s != null && s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  io.vertx.core.Future<Void> close() {
    closed = true;
    if (readTimer >= 0) {
      vertx.cancelTimer(readTimer);
    }
    return http == null ? io.vertx.core.Future.succeededFuture() : http.close();
  }
}
