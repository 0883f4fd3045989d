package io.tickwheel.store.redis.impl;

import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisUris;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisCluster;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import io.vertx.redis.client.impl.types.ErrorType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The store's one pipelined connection to Redis: sending, per-call timeouts, completion on the caller's context,
 * script loading, error mapping, and reconnection with backoff.
 *
 * <h2>Why one connection</h2>
 * Redis runs commands one at a time, and all of a store's keys share one hash tag, so on a Cluster too they live
 * on one master: more connections would not add server capacity, while one connection gives the ordering
 * guarantee for free (the client writes commands to the socket in call order, Redis answers in order).
 * Commands are pipelined: many can be in flight, so the round-trip time does not cap throughput.
 *
 * <p>Several stores may share one link: the cluster coordinator's membership, leases and all its partition stores go
 * over one (their keys are in many slots; on a Cluster the client routes each command to its slot's master over its
 * own per-master connection). On a Cluster the client itself follows {@code MOVED}/{@code ASK} (refreshing its slot
 * map) and retries {@code TRYAGAIN}/{@code CLUSTERDOWN}, all within this link's per-call timeout; a {@code NOSCRIPT}
 * (script cache flushed, or a replica promoted that never loaded the scripts) reloads the script on every master
 * and retries once.
 *
 * <h2>Failures</h2>
 * Every call is bounded by {@link RedisStoreOptions#getCommandTimeoutMs()}. While disconnected a call fails at
 * once. Reachability problems ({@code LOADING}, {@code BUSY}, {@code CLUSTERDOWN}, …, a connection closed or reset
 * while calls were in flight, timeouts, a full pipeline) become {@link StoreUnavailableException}; other Redis
 * errors {@link StoreFaultException}; calls after {@link #close()} {@link StoreClosedException} (see
 * {@link RedisFailures}). {@code mayHaveApplied} is true for a write that was written to the connection and then
 * lost its answer (connection lost, timeout, closed meanwhile), false for a write refused before it was sent or
 * refused by Redis, and for every read. Messages name the endpoint with its password masked.
 *
 * <h2>Replica acknowledgement</h2>
 * With {@link RedisStoreOptions#getMinReplicasAcked()} {@code n > 0}, a write ({@link #write}, {@link #eval} of a
 * script that {@link Script#writes() writes}, {@link #transaction}; not a {@link #publishMessage}) succeeds only
 * once Redis's {@code WAIT n replicaAckTimeoutMs}, sent on the same connection after it, answered that at least
 * {@code n} replicas have it
 * ({@link ReplicaAcks}). So a success then means: the master applied the write and {@code n} replicas received it.
 * Fewer replicas within the timeout: {@link StoreUnavailableException} naming how many acknowledged, of how many,
 * within how many ms, with {@code mayHaveApplied() == true}: the master applied it and it stays applied (a retry of
 * the write must be safe to repeat, as after any lost answer). A lost connection or a timeout is mapped as above.
 * Cost: on a standalone Redis, writes share {@code WAIT}s (group commit: at most one in Redis at a time, covering
 * every write sent before it), so a lone write pays one more replication round trip and a busy link about one
 * {@code WAIT} per round trip; every call then also passes one dedicated event loop, and in Redis commands sent
 * after a {@code WAIT}, reads too, wait until it answers (up to {@code replicaAckTimeoutMs} when a replica is down).
 * On a Redis Cluster each write is a batch {@code MULTI, write, EXEC, WAIT} to its slot's master, one {@code WAIT}
 * per write. Redis's caveat stays: {@code WAIT} does not make Redis strongly consistent. A failover can still
 * promote a replica that missed a write (one that was not among the {@code n}, or after a failed {@code WAIT}), and
 * a write whose {@code WAIT} timed out remains applied on the master and reaches the replicas later.
 *
 * <p>Thread safe: calls may come from any thread; a call made on a Vert.x context completes on that context.
 */
public final class RedisLink {

  private static final System.Logger LOG = System.getLogger(RedisLink.class.getName());

  /** The most commands in flight on the connection; more fail with {@link StoreUnavailableException}. */
  static final int MAX_IN_FLIGHT = 65_536;

  private final Vertx vertx;
  private final RedisStoreOptions options;
  private final Redis client;
  private final String where;
  private final RedisFailures failures;
  private final long timeoutMs;
  /** Replica acknowledgement of writes ({@code WAIT}), or null when off. */
  private final ReplicaAcks acks;
  private final ConcurrentLinkedQueue<Pending<?>> inFlight = new ConcurrentLinkedQueue<>();
  /**
   * The partition stores' fenced writes gathered per turn; a partition's before its store's other commands, all of
   * them before a command of no partition store.
   */
  private final WriteGroup writes;
  private final long sweeper;

  private volatile RedisConnection conn;
  /** When Redis last answered anything (System.nanoTime). */
  private volatile long lastReplyNanos = System.nanoTime();
  /** Connections being set up, not yet published → whether their socket already ended (guarded by this). */
  private final java.util.Map<RedisConnection, Boolean> unpublished = new java.util.IdentityHashMap<>();
  private volatile String lastError = "not connected yet";
  private volatile boolean closed;
  private boolean reconnecting; // guarded by this

  private RedisLink(Vertx vertx, RedisStoreOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.timeoutMs = options.getCommandTimeoutMs();
    List<String> endpoints = new ArrayList<>();
    endpoints.add(options.getConnectionString());
    endpoints.addAll(options.getClusterEndpoints());
    this.where = (options.isCluster() ? "redis cluster " : "redis ")
        + String.join(",", endpoints.stream().map(RedisUris::mask).toList());
    this.failures = new RedisFailures(where);
    NetClientOptions net = netOptions(options);
    RedisOptions ro = new RedisOptions()
        .setType(options.isCluster() ? RedisClientType.CLUSTER : RedisClientType.STANDALONE)
        .setEndpoints(endpoints)
        .setMaxPoolSize(options.getMaxPoolSize())
        .setMaxPoolWaiting(Math.max(24, options.getMaxPoolSize() * 4))
        .setMaxWaitingHandlers(MAX_IN_FLIGHT)
        .setNetClientOptions(net);
    this.client = Redis.createClient(vertx, ro);
    this.acks = ReplicaAcks.of(vertx, options, where, MAX_IN_FLIGHT);
    this.writes = new WriteGroup(this, options.isCluster());
    long tick = Math.max(5, Math.min(100, timeoutMs / 10));
    this.sweeper = vertx.setPeriodic(tick, id -> sweep());
  }

  /** The socket options of every connection to Redis of {@code options} (timeouts, keep-alive, TLS name check). */
  public static NetClientOptions netOptions(RedisStoreOptions options) {
    NetClientOptions net = options.getNetClientOptions() == null ? new NetClientOptions()
        : new NetClientOptions(options.getNetClientOptions());
    net.setConnectTimeout((int) options.getConnectTimeoutMs()).setTcpKeepAlive(true).setTcpNoDelay(true);
    if (options.getNetClientOptions() == null || net.getHostnameVerificationAlgorithm() == null) {
      net.setHostnameVerificationAlgorithm("HTTPS"); // rediss:// checks the server's name unless told otherwise
    }
    return net;
  }

  /**
   * Connects and loads the scripts; fails with {@link StoreUnavailableException} when Redis cannot be reached,
   * {@link StoreFaultException} when it answers with an error (e.g. data of another format under the prefix).
   *
   * @throws IllegalArgumentException when the options are inconsistent ({@link RedisStoreOptions#validate()})
   */
  public static Future<RedisLink> open(Vertx vertx, RedisStoreOptions options, Function<RedisLink, Future<Void>> init) {
    options.validate();
    RedisLink link = new RedisLink(vertx, options);
    return link.connectOnce()
        .compose(c -> {
          link.publish(c);
          return init.apply(link).map(link);
        })
        .recover(e -> {
          link.shutdown();
          return Future.failedFuture(e);
        });
  }

  /** The masked endpoint description, for messages. */
  public String where() {
    return where;
  }

  /** Whether a connection is up right now. */
  public boolean connected() {
    return conn != null;
  }

  // ---------------------------------------------------------------- calls

  /** The group the fenced partition stores on this link send their writes through. */
  WriteGroup writes() {
    return writes;
  }

  /** Sends one plain command that only reads (its failure never reports a write that may have been applied). */
  public <T> Future<T> read(Request request, Function<Response, T> map) {
    return plain(-1, request, map, false, false);
  }

  /** {@link #read} for partition {@code p}'s store ({@code p >= 0}): only that partition's queued writes go first;
   * {@code -1}: everything the group holds. */
  <T> Future<T> read(int p, Request request, Function<Response, T> map) {
    return plain(p, request, map, false, false);
  }

  /**
   * Sends one plain command that writes a single key (atomic by itself; a failure after it was sent may have been
   * applied).
   */
  public <T> Future<T> write(Request request, Function<Response, T> map) {
    return plain(-1, request, map, true, true);
  }

  /** {@link #write} for partition {@code p}'s store ({@code p >= 0}): only that partition's queued writes go first;
   * {@code -1}: everything the group holds. */
  <T> Future<T> write(int p, Request request, Function<Response, T> map) {
    return plain(p, request, map, true, true);
  }

  /**
   * Sends a {@code PUBLISH}: it keeps no data, so it sends no {@code WAIT} of its own (a broadcast is a hint, not a
   * write to keep: waiting would delay it, or refuse it while a replica is down; in Redis it still queues behind a
   * {@code WAIT} already in flight on the connection); a failure after it was sent may have been delivered.
   */
  public <T> Future<T> publishMessage(Request request, Function<Response, T> map) {
    return plain(-1, request, map, true, false);
  }

  /**
   * Before a command of partition {@code p}'s store ({@code p >= 0}), the writes that store queued in the group;
   * before any other command ({@code p < 0}), everything the group holds.
   */
  private void flushBefore(int p) {
    if (p < 0) {
      writes.flushPending();
    } else {
      writes.flushPartition(p);
    }
  }

  private <T> Future<T> plain(int partition, Request request, Function<Response, T> map, boolean mayApply,
      boolean waitsForAcks) {
    flushBefore(partition);
    Pending<T> p = new Pending<>(Vertx.currentContext(), System.nanoTime() + timeoutMs * 1_000_000L, map,
        request.command().toString(), mayApply);
    RedisConnection c = admit(p);
    if (c != null) {
      send(c, request, waitsForAcks, p.what).onComplete(p::settle);
    }
    return p.promise.future();
  }

  /**
   * Runs a script by {@code EVALSHA}; after a {@code NOSCRIPT} (script cache flushed) it loads the script again and
   * retries once. {@code args} are {@code String}, {@code byte[]} or {@code Long}.
   */
  public <T> Future<T> eval(Script script, List<String> keys, List<?> args, Function<Response, T> map) {
    writes.flushPending();
    return evalNow(script, keys, args, map);
  }

  /** {@link #eval} for partition {@code p}'s store ({@code p >= 0}): only that partition's queued writes go first;
   * {@code -1}: everything the group holds. */
  <T> Future<T> eval(int p, Script script, List<String> keys, List<?> args, Function<Response, T> map) {
    flushBefore(p);
    return evalNow(script, keys, args, map);
  }

  /** {@link #eval} without sending the {@link WriteGroup} first (the group's own calls). */
  <T> Future<T> evalNow(Script script, List<String> keys, List<?> args, Function<Response, T> map) {
    Request req = evalRequest(script, keys, args);
    Pending<T> p = new Pending<>(Vertx.currentContext(), System.nanoTime() + timeoutMs * 1_000_000L, map,
        script.file(), script.writes());
    RedisConnection c = admit(p);
    if (c != null) {
      send(c, req, script.writes(), p.what).onComplete(ar -> {
        if (ar.failed() && isNoScript(ar.cause())) {
          LOG.log(System.Logger.Level.WARNING, "{0}: script {1} was missing from the script cache; reloading it",
              where, script.file());
          loadScripts(c, List.of(script))
              .compose(v -> send(c, evalRequest(script, keys, args), script.writes(), p.what))
              .onComplete(p::settle);
        } else {
          p.settle(ar);
        }
      });
    }
    return p.promise.future();
  }

  /**
   * Runs {@code commands} as one transaction: {@code MULTI}, the commands, {@code EXEC}, handed to the client as one
   * batch (written to the socket together, so calls from other threads cannot interleave; on a Cluster the batch goes
   * to the one master of the commands' slot). Redis runs the commands back to back with nothing in between, and an
   * AOF holds them as one unit (a transaction cut off by a crash is dropped at load). {@code map} gets {@code EXEC}'s
   * reply (one entry per command). A command Redis refuses while queuing ({@code OOM}, wrong arity, …) discards the
   * whole transaction; an error while executing (only {@code WRONGTYPE} for the commands used here: a foreign key
   * under the prefix) fails the call, but the other commands of the transaction have run (as in a Lua script that
   * fails half way).
   */
  public <T> Future<T> transaction(List<Request> commands, String what, Function<Response, T> map) {
    return transaction(-1, commands, what, map);
  }

  /** {@link #transaction} for {@code partition}'s store ({@code partition >= 0}): only its queued writes go
   * first; {@code -1}: everything the group holds. */
  <T> Future<T> transaction(int partition, List<Request> commands, String what, Function<Response, T> map) {
    flushBefore(partition);
    List<Request> batch = new ArrayList<>(commands.size() + 2);
    batch.add(Request.cmd(Command.MULTI));
    batch.addAll(commands);
    batch.add(Request.cmd(Command.EXEC));
    Pending<T> p = new Pending<>(Vertx.currentContext(), System.nanoTime() + timeoutMs * 1_000_000L, map, what,
        true);
    RedisConnection c = admit(p);
    if (c != null) {
      Future<Response> sent = acks == null ? c.batch(batch).map(rs -> rs.get(rs.size() - 1))
          : acks.transaction(c, batch, what);
      sent.onComplete(ar -> {
        if (ar.failed()) {
          p.settle(Future.failedFuture(ar.cause()));
          return;
        }
        Response exec = ar.result();
        Throwable err = execError(exec);
        p.settle(err == null ? Future.succeededFuture(exec) : Future.failedFuture(err));
      });
    }
    return p.promise.future();
  }

  /** Hands one command to {@code c}: directly, or through the replica acknowledgement when it is on. */
  private Future<Response> send(RedisConnection c, Request request, boolean write, String what) {
    return acks == null ? c.send(request) : acks.send(c, request, write, what);
  }

  /** The first error in an {@code EXEC} reply, or {@code null}. */
  static Throwable execError(Response exec) {
    if (exec == null) {
      return ErrorType.create("EXECABORT the transaction was discarded");
    }
    for (Response r : exec) {
      if (r != null && r.type() == ResponseType.ERROR) {
        return r instanceof Throwable t ? t : ErrorType.create(r.toString());
      }
    }
    return null;
  }

  private static Request evalRequest(Script script, List<String> keys, List<?> args) {
    Request req = Request.cmd(Command.EVALSHA).arg(script.sha()).arg(keys.size());
    for (String k : keys) {
      req.arg(k);
    }
    for (Object a : args) {
      if (a instanceof byte[] b) {
        req.arg(b);
      } else if (a instanceof Long l) {
        req.arg(l);
      } else if (a instanceof Integer i) {
        req.arg(i.longValue());
      } else {
        req.arg((String) a);
      }
    }
    return req;
  }

  private RedisConnection admit(Pending<?> p) {
    if (closed) {
      p.fail(new StoreClosedException("the store on " + where + " is closed"));
      return null;
    }
    RedisConnection c = conn;
    if (c == null) {
      p.fail(new StoreUnavailableException(where + " is unavailable (reconnecting; last error: " + lastError + ")",
          null, false));
      return null;
    }
    inFlight.add(p);
    return c;
  }

  private static boolean isNoScript(Throwable t) {
    return t instanceof ErrorType e && e.is("NOSCRIPT");
  }

  /** Maps a client failure of a call handed to the connection to the store's exception types. */
  private StoreException mapFailure(Throwable t, String what, boolean write) {
    if (!(t instanceof ErrorType) && !(t instanceof StoreException) && !closed) {
      lastError = RedisFailures.describe(t);
    }
    return failures.map(t, what, write);
  }

  // ---------------------------------------------------------------- timeouts

  private void sweep() {
    long now = System.nanoTime();
    boolean silent = false;
    Pending<?> h;
    while ((h = inFlight.peek()) != null) {
      if (h.done.get()) {
        inFlight.poll();
      } else if (now - h.deadline >= 0) {
        inFlight.poll();
        h.fail(new StoreUnavailableException(where + " did not answer " + h.what + " within " + timeoutMs + " ms",
            null, h.write));
        silent |= now - lastReplyNanos >= timeoutMs * 1_000_000L;
      } else {
        break;
      }
    }
    RedisConnection c = conn;
    if (silent && c != null) {
      // nothing came back for a whole timeout while calls waited: a hung server or a dead network path that
      // TCP would notice only after hours; drop the connection and reconnect
      lastReplyNanos = now;
      LOG.log(System.Logger.Level.WARNING, "{0}: no reply for {1} ms; dropping the connection", where, timeoutMs);
      if (c instanceof io.vertx.redis.client.impl.PooledRedisConnection pooled) {
        pooled.actual().forceClose(); // its end handler reconnects
      } else {
        lost(c, new StoreUnavailableException("no reply for " + timeoutMs + " ms", null, false));
      }
    }
  }

  // ---------------------------------------------------------------- connection lifecycle

  private Future<RedisConnection> connectOnce() {
    Promise<RedisConnection> result = Promise.promise();
    long bound = options.getConnectTimeoutMs() + timeoutMs;
    long timer = vertx.setTimer(bound, id -> result.tryFail(new StoreUnavailableException(
        where + " did not accept a connection within " + bound + " ms", null, false)));
    client.connect()
        .compose(c -> {
          synchronized (this) {
            unpublished.put(c, false);
          }
          c.exceptionHandler(e -> {
            if (e instanceof IllegalStateException) {
              LOG.log(System.Logger.Level.WARNING, "{0}: client reported {1}", where, RedisFailures.describe(e));
            } else {
              lost(c, e);
            }
          });
          c.endHandler(v -> lost(c, null));
          return loadScripts(c, Script.ALL).map(c).onFailure(e -> abandon(c));
        })
        .onComplete(ar -> {
          vertx.cancelTimer(timer);
          if (ar.succeeded()) {
            if (!result.tryComplete(ar.result())) {
              abandon(ar.result()); // timed out meanwhile
            }
          } else {
            result.tryFail(mapFailure(ar.cause(), "connect", false));
          }
        });
    return result.future();
  }

  /**
   * Loads {@code scripts}: the first alone, then the others together. A Redis that wants a password answers the
   * first with {@code NOAUTH}; sent with it, a script of over 16 KiB (an unauthenticated client's largest bulk) would
   * make Redis close the connection instead, and the cause would be lost.
   */
  private Future<Void> loadScripts(RedisConnection c, List<Script> scripts) {
    if (scripts.size() > 1) {
      return loadEach(c, scripts.subList(0, 1)).compose(v -> loadEach(c, scripts.subList(1, scripts.size())));
    }
    return loadEach(c, scripts);
  }

  private Future<Void> loadEach(RedisConnection c, List<Script> scripts) {
    List<Future<?>> loads = new ArrayList<>();
    for (Script s : scripts) {
      Request load = Request.cmd(Command.SCRIPT).arg("LOAD").arg(s.body());
      if (options.isCluster()) {
        // SCRIPT LOAD has no key: load it on every master, so whichever owns the hash tag has it
        loads.add(RedisCluster.create(c).onAllMasterNodes(load).map(rs -> {
          for (Response r : rs) {
            checkSha(s, r);
          }
          return null;
        }));
      } else {
        loads.add(c.send(load).map(r -> {
          checkSha(s, r);
          return null;
        }));
      }
    }
    return Future.all(loads).mapEmpty();
  }

  private void checkSha(Script s, Response r) {
    if (r == null || !s.sha().equals(r.toString())) {
      throw new StoreFaultException(where + " loaded script " + s.file() + " as " + r + ", expected " + s.sha(),
          null, false);
    }
  }

  private void abandon(RedisConnection c) {
    synchronized (this) {
      unpublished.remove(c);
    }
    c.close();
  }

  /** Makes {@code c} the connection, unless its socket ended while it was set up (then it reconnects). */
  private void publish(RedisConnection c) {
    synchronized (this) {
      Boolean ended = unpublished.remove(c);
      if (ended == null || !ended) {
        conn = c;
        return;
      }
      lastError = "connection closed while it was set up";
      if (closed || reconnecting) {
        return;
      }
      reconnecting = true;
    }
    c.close();
    scheduleReconnect(options.getReconnectBackoffMs());
  }

  private void lost(RedisConnection c, Throwable cause) {
    synchronized (this) {
      if (unpublished.containsKey(c)) {
        unpublished.put(c, true); // publish() will see it
        return;
      }
      if (conn != c || closed) {
        return;
      }
      conn = null;
      lastError = cause == null ? "connection closed" : RedisFailures.describe(cause);
      LOG.log(System.Logger.Level.WARNING, "{0}: connection lost ({1}); reconnecting", where, lastError);
      if (reconnecting) {
        return;
      }
      reconnecting = true;
    }
    c.close();
    scheduleReconnect(options.getReconnectBackoffMs());
  }

  private void scheduleReconnect(long delay) {
    vertx.setTimer(delay, id -> {
      if (closed) {
        return;
      }
      connectOnce().onComplete(ar -> {
        if (ar.succeeded()) {
          boolean keep;
          synchronized (this) {
            reconnecting = false;
            keep = !closed;
          }
          if (keep) {
            LOG.log(System.Logger.Level.INFO, "{0}: reconnected", where);
            publish(ar.result());
          } else {
            ar.result().close();
          }
        } else {
          lastError = ar.cause().getMessage();
          LOG.log(System.Logger.Level.DEBUG, "{0}: reconnect failed ({1}); next attempt in {2} ms", where,
              lastError, Math.min(delay * 2, options.getMaxReconnectBackoffMs()));
          scheduleReconnect(Math.min(delay * 2, options.getMaxReconnectBackoffMs()));
        }
      });
    });
  }

  /** Closes the connection and the client; calls fail afterwards. Idempotent. */
  public Future<Void> close() {
    Context ctx = Vertx.currentContext();
    Future<Void> f = shutdown();
    if (ctx == null) {
      return f;
    }
    Promise<Void> p = Promise.promise();
    f.onComplete(ar -> deliver(ctx, p, ar));
    return p.future();
  }

  private Future<Void> shutdown() {
    RedisConnection c;
    synchronized (this) {
      if (closed) {
        return Future.succeededFuture();
      }
      closed = true;
      c = conn;
      conn = null;
    }
    vertx.cancelTimer(sweeper);
    writes.flushPending();           // closed: each waiting firing record fails with StoreClosedException
    Future<Void> fc = c == null ? Future.succeededFuture() : c.close().otherwiseEmpty();
    return fc.eventually(() -> client.close().otherwiseEmpty())
        .onComplete(ar -> {
          Pending<?> h;
          while ((h = inFlight.poll()) != null) {
            h.fail(new StoreClosedException("the store on " + where + " was closed while " + h.what
                + " was in flight", h.write));
          }
        }).mapEmpty();
  }

  private static <T> void deliver(Context ctx, Promise<T> p, AsyncResult<T> ar) {
    if (ctx == null || Vertx.currentContext() == ctx) {
      p.handle(ar);
    } else {
      ctx.runOnContext(v -> p.handle(ar));
    }
  }

  /** One call in flight: its deadline, the caller's context, and how to map the reply. */
  private final class Pending<T> {
    final Context ctx;
    final long deadline;
    final Function<Response, T> map;
    final String what;
    /** Whether the call may change data. */
    final boolean write;
    final Promise<T> promise = Promise.promise();
    final AtomicBoolean done = new AtomicBoolean();

    Pending(Context ctx, long deadline, Function<Response, T> map, String what, boolean write) {
      this.ctx = ctx;
      this.deadline = deadline;
      this.map = map;
      this.what = what;
      this.write = write;
    }

    void settle(AsyncResult<Response> ar) {
      lastReplyNanos = System.nanoTime();
      if (!done.compareAndSet(false, true)) {
        return;
      }
      if (ar.failed()) {
        deliver(ctx, promise, Future.failedFuture(mapFailure(ar.cause(), what, write)));
        return;
      }
      AsyncResult<T> mapped;
      try {
        mapped = Future.succeededFuture(map.apply(ar.result()));
      } catch (RuntimeException e) {
        // Redis ran the call (a write is applied) but its reply does not decode: a corrupt record, a foreign value
        mapped = Future.failedFuture(e instanceof StoreException ? e
            : new StoreFaultException(where + " answered " + what + " unexpectedly: " + e, e, write));
      }
      deliver(ctx, promise, mapped);
    }

    void fail(Throwable t) {
      if (done.compareAndSet(false, true)) {
        deliver(ctx, promise, Future.failedFuture(t));
      }
    }
  }
}
