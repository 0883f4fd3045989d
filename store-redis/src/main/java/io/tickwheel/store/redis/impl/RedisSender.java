package io.tickwheel.store.redis.impl;

import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreFaultException;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How the parts of one Redis store send their commands: over the store's {@link RedisLink}, writes behind the
 * fence of a partition store (each write script's fenced twin, checking the lease's epoch in the same script) or
 * refused for a reader or a closed partition handle. Shared by the parts of one store; thread safe.
 */
public final class RedisSender {

  private final RedisLink link;
  /** The partition's lease hash when writes are fenced, else {@code null}. */
  private final String leaseKey;
  private final int partition;
  private final long epoch;
  private final boolean readOnly;
  /** Whether {@link #close()} closes the link (false for a partition store on the coordinator's shared link). */
  private final boolean ownsLink;
  private volatile boolean closed;

  /** A single node's store: its own link, no fence. */
  public RedisSender(RedisLink link) {
    this(link, null, -1, 0, false, true);
  }

  /**
   * @param leaseKey the partition's lease hash (writes are fenced by {@code epoch}), or {@code null}: not fenced
   * @param readOnly whether every write fails with {@link StoreFaultException}
   * @param ownsLink whether {@link #close()} closes {@code link}
   */
  public RedisSender(RedisLink link, String leaseKey, int partition, long epoch, boolean readOnly,
      boolean ownsLink) {
    this.link = link;
    this.leaseKey = leaseKey;
    this.partition = partition;
    this.epoch = epoch;
    this.readOnly = readOnly;
    this.ownsLink = ownsLink;
  }

  /** The store's name: {@code redis}, or {@code redis-partition-P}. */
  public String name() {
    return leaseKey == null ? "redis" : "redis-partition-" + partition;
  }

  /** The link the commands go over. */
  public RedisLink link() {
    return link;
  }

  /** Whether writes are fenced (a partition store). */
  boolean fenced() {
    return leaseKey != null;
  }

  /** Whether every write is refused (a partition reader). */
  boolean readOnly() {
    return readOnly;
  }

  /** Ends this handle: closes the link when it owns it. Idempotent. */
  public Future<Void> close() {
    closed = true;
    return ownsLink ? link.close() : Future.succeededFuture();
  }

  /** A read-only script ({@code PAGE}), refused on a closed partition handle. */
  <T> Future<T> readScript(Script script, List<String> keys, List<?> args, Function<Response, T> map) {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    return link.eval(partition, script, keys, args, map);
  }

  // ---------------------------------------------------------------- sending, with the fence of a partition store

  /**
   * A write script: {@code plain} on a single node; on a partition store its {@link Script#fencedTwin() fenced twin},
   * checking the lease's epoch in the same script, or, for a script that can be a {@link Script#multiName() section}, through the link's
   * {@link WriteGroup}, which sends the writes of every partition of the turn together, each behind its own fence as
   * strict as the twin's.
   */
  <T> Future<T> writeScript(Script plain, List<String> keys, List<?> args, Function<Response, T> map) {
    Future<T> refused = refuseWrite();
    if (refused != null) {
      return refused;
    }
    if (leaseKey == null) {
      return link.eval(partition, plain, keys, args, map);
    }
    if (plain.multiName() != null) {
      return link.writes().add(plain, partition, epoch, keys, leaseKey, args).compose(r -> {
        try {
          return Future.succeededFuture(map.apply(r));
        } catch (RuntimeException e) {
          // Redis ran the call (applied) but its reply does not decode
          return Future.failedFuture(e instanceof StoreException ? e
              : new StoreFaultException(link.where() + " answered " + plain.file() + " unexpectedly: " + e, e, true));
        }
      });
    }
    List<String> k = new ArrayList<>(keys.size() + 1);
    k.addAll(keys);
    k.add(leaseKey);
    List<Object> a = new ArrayList<>(args.size() + 1);
    a.addAll(args);
    a.add(Long.toString(epoch));
    return link.eval(partition, plain.fencedTwin(), k, a, map).recover(e -> Future.failedFuture(
        e instanceof ScriptRefusal r && r.code().equals(Script.FENCED_CODE)
            ? new StoreFencedException(partition, epoch) : e));
  }

  /** A failed future if this handle may not write now (closed, or a reader), else {@code null}. */
  <T> Future<T> refuseWrite() {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    if (readOnly) {
      return Future.failedFuture(new StoreFaultException("partition " + partition
          + " reader: writes are not allowed", null, false));
    }
    return null;
  }

  <T> Future<T> read(Request request, Function<Response, T> map) {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    return link.read(partition, request, map);
  }

  // ---------------------------------------------------------------- the link's calls, behind this partition's writes
  // (no closed or reader check: the callers decide; see RedisLink, and WriteGroup "Order")

  /** {@link RedisLink#read}, after the writes this partition's stores queued in the group. */
  <T> Future<T> linkRead(Request request, Function<Response, T> map) {
    return link.read(partition, request, map);
  }

  /** {@link RedisLink#write}, after the writes this partition's stores queued in the group. */
  <T> Future<T> linkWrite(Request request, Function<Response, T> map) {
    return link.write(partition, request, map);
  }

  /** {@link RedisLink#eval}, after the writes this partition's stores queued in the group. */
  <T> Future<T> linkEval(Script script, List<String> keys, List<?> args, Function<Response, T> map) {
    return link.eval(partition, script, keys, args, map);
  }

  /** {@link RedisLink#transaction}, after the writes this partition's stores queued in the group. */
  <T> Future<T> linkTransaction(List<Request> commands, String what, Function<Response, T> map) {
    return link.transaction(partition, commands, what, map);
  }


  /**
   * Sends {@code plain} (as {@link #writeScript}) again and again while its reply {@code {removed, more, tail}} says
   * there is more to do ({@code more} = 1): each call's work stays bounded and other clients run in between. Completes
   * on the caller's context with {@code {sum of removed, the last call's tail}} (what the script says of what it left),
   * or fails with the first failed call.
   */
  Future<long[]> writeScriptUntilDone(Script plain, List<String> keys, List<?> args) {
    Context ctx = Vertx.currentContext();
    Promise<long[]> done = Promise.promise();
    repeat(plain, keys, args, 0, done);
    return onContext(ctx, done.future());
  }

  private void repeat(Script plain, List<String> keys, List<?> args, long removed, Promise<long[]> done) {
    writeScript(plain, keys, args, r -> new long[] {r.get(0).toLong(), r.get(1).toLong(), r.get(2).toLong()})
        .onComplete(ar -> {
          if (ar.failed()) {
            done.fail(ar.cause());
          } else if (ar.result()[1] == 1) {
            repeat(plain, keys, args, removed + ar.result()[0], done);
          } else {
            done.complete(new long[] {removed + ar.result()[0], ar.result()[2]});
          }
        });
  }

  /** {@code f}, completing on {@code ctx} when there is one. */
  public static <T> Future<T> onContext(Context ctx, Future<T> f) {
    if (ctx == null) {
      return f;
    }
    Promise<T> p = Promise.promise();
    f.onComplete(ar -> deliver(ctx, p, ar));
    return p.future();
  }

  private static <T> void deliver(Context ctx, Promise<T> p, AsyncResult<T> ar) {
    if (Vertx.currentContext() == ctx) {
      p.handle(ar);
    } else {
      ctx.runOnContext(v -> p.handle(ar));
    }
  }
}
