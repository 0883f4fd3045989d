package io.tickwheel.store.redis.coordination.impl;

import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisUris;
import io.tickwheel.store.redis.impl.RedisLink;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The coordinator's subscriber connection: {@code SUBSCRIBE}s to the cluster's channel on one Redis node and hands
 * every message to a consumer. A subscribed connection can run nothing else, so it is apart from the command link.
 * On a Redis Cluster a {@code PUBLISH} on any node reaches subscribers on every node, so it connects to one endpoint
 * at a time, the next one after each failure. When the connection ends it reconnects with exponential backoff and
 * subscribes again; messages published meanwhile are lost (broadcasts are hints).
 *
 * <p>Thread safe. The consumer runs on an event-loop thread of the Vert.x instance.
 */
public final class BroadcastSubscriber {

  private static final System.Logger LOG = System.getLogger(BroadcastSubscriber.class.getName());

  private final Vertx vertx;
  private final RedisStoreOptions options;
  private final String channel;
  private final Consumer<String> consumer;
  private final List<String> endpoints = new ArrayList<>();
  private int next; // guarded by this
  private Redis client; // guarded by this
  private RedisConnection conn; // guarded by this
  private boolean closed; // guarded by this

  public BroadcastSubscriber(Vertx vertx, RedisStoreOptions options, String channel, Consumer<String> consumer) {
    this.vertx = vertx;
    this.options = options;
    this.channel = channel;
    this.consumer = consumer;
    endpoints.add(options.getConnectionString());
    endpoints.addAll(options.getClusterEndpoints());
  }

  /** Connects and subscribes; fails with {@link StoreUnavailableException} when no endpoint takes the subscription. */
  public Future<Void> start() {
    Promise<Void> p = Promise.promise();
    attempt(0, endpoints.size(), p);
    return p.future();
  }

  private void attempt(int tried, int max, Promise<Void> p) {
    connect().onComplete(ar -> {
      if (ar.succeeded()) {
        p.tryComplete();
      } else if (tried + 1 < max) {
        attempt(tried + 1, max, p);
      } else {
        p.tryFail(new StoreUnavailableException("cannot subscribe to the cluster channel: "
            + RedisUris.mask(String.valueOf(ar.cause().getMessage())), null, false));
      }
    });
  }

  /** One connection attempt to the next endpoint: connect, subscribe, all within connect + command timeout. */
  private Future<Void> connect() {
    Redis c;
    String endpoint;
    synchronized (this) {
      if (closed) {
        return Future.failedFuture("closed");
      }
      endpoint = endpoints.get(next++ % endpoints.size());
      if (client != null) {
        client.close();
      }
      client = c = Redis.createClient(vertx, new RedisOptions().setType(RedisClientType.STANDALONE)
          .setConnectionString(endpoint).setMaxPoolSize(1).setNetClientOptions(RedisLink.netOptions(options)));
    }
    Promise<Void> done = Promise.promise();
    long bound = options.getConnectTimeoutMs() + options.getCommandTimeoutMs();
    long timer = vertx.setTimer(bound, id -> done.tryFail("no subscription within " + bound + " ms"));
    c.connect().compose(rc -> {
      rc.handler(this::onMessage);
      rc.exceptionHandler(e -> lost(rc, e.toString()));
      rc.endHandler(v -> lost(rc, "connection closed"));
      return rc.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).map(rc);
    }).onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (ar.succeeded() && done.tryComplete()) {
        boolean keep;
        synchronized (this) {
          keep = !closed;
          if (keep) {
            conn = ar.result();
          }
        }
        if (!keep) {
          ar.result().close();
        }
      } else if (ar.succeeded()) {
        ar.result().close();
      } else {
        done.tryFail(ar.cause());
      }
    });
    return done.future();
  }

  private void onMessage(Response r) {
    if (r != null && r.size() == 3 && "message".equals(r.get(0).toString())) {
      try {
        consumer.accept(r.get(2).toString());
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "broadcast handler failed", e);
      }
    }
  }

  private void lost(RedisConnection rc, String why) {
    synchronized (this) {
      if (conn != rc || closed) {
        return;
      }
      conn = null;
    }
    LOG.log(System.Logger.Level.WARNING, "cluster channel subscription lost ({0}); subscribing again", why);
    rc.close();
    retry(options.getReconnectBackoffMs());
  }

  private void retry(long delay) {
    vertx.setTimer(delay, id -> connect().onFailure(e -> {
      synchronized (this) {
        if (closed) {
          return;
        }
      }
      retry(Math.min(delay * 2, options.getMaxReconnectBackoffMs()));
    }));
  }

  /** Whether the subscription is up right now. */
  public synchronized boolean subscribed() {
    return conn != null;
  }

  /** Ends the subscription; idempotent. */
  public Future<Void> close() {
    RedisConnection c;
    Redis cl;
    synchronized (this) {
      if (closed) {
        return Future.succeededFuture();
      }
      closed = true;
      c = conn;
      cl = client;
      conn = null;
      client = null;
    }
    Future<Void> f = c == null ? Future.succeededFuture() : c.close().otherwiseEmpty();
    return f.eventually(() -> cl == null ? Future.succeededFuture() : cl.close().otherwiseEmpty());
  }
}
