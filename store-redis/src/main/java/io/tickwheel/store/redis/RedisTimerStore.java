package io.tickwheel.store.redis;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.impl.RedisLink;
import io.tickwheel.store.redis.impl.Script;
import io.tickwheel.store.redis.impl.ScriptRefusal;
import io.tickwheel.store.redis.impl.TimerRecord;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@link TimerStore} on Redis (standalone or Redis Cluster), through the async {@code vertx-redis-client}.
 *
 * <h2>Data model</h2>
 * All keys of one store start with the hash tag {@code {PREFIX}} ({@link RedisStoreOptions#setKeyPrefix}, default
 * {@code tw}), so on a Cluster they all hash to one slot: every multi-key Lua script runs atomically on the master
 * that owns it. (The flip side: one store's data and load live on one master; run several stores with different
 * prefixes to spread them.)
 * <ul>
 *   <li>{@code {tw}:timers} — hash, id → timer record (header + payload; see {@link TimerRecord}). Access by id
 *       is one {@code HGET}.</li>
 *   <li>{@code {tw}:due} — sorted set, all scores 0, member = 16 hex digits of {@code nextDueAt} + id. Because
 *       the scores are equal, Redis orders members bytewise: exactly the listing order (due, then id). A cursor
 *       {@code (due, id)} is then a lex bound, so listing and the ordered recovery of {@link #loadAll} page in
 *       O(log n + page) with {@code ZRANGE … BYLEX}, also when a million timers share one due time (with
 *       score = due, ties would have to be skipped one by one).</li>
 *   <li>No per-topic index: it would cost another sorted-set write per timer write (the hot path) and ~100 bytes
 *       per timer, for a console listing. {@link #list} with a topic filters the due index in bounded steps.</li>
 *   <li>{@code {tw}:log} — the firing log, a Redis Stream with explicit ids {@code SEQ-0}: append-only, compact
 *       (radix tree of delta-encoded listpacks, field names stored once), range reads by seq ({@code XRANGE}),
 *       and cheap trimming from the head ({@code XTRIM}); Redis itself refuses an id that does not increase.</li>
 *   <li>{@code {tw}:seq} — the last seq ({@code INCR}); kept apart from the log so it survives trimming.</li>
 *   <li>{@code {tw}:meta} — the data format version, checked at open ({@link #DATA_FORMAT}).</li>
 *   <li>{@code {tw}:paused-topics} — set of the paused topics ({@code SADD}/{@code SREM}/{@code SMEMBERS}).</li>
 *   <li>{@code {tw}:webhook-secret} — string, the webhook secret ({@code SET NX} then {@code GET}, one
 *       transaction).</li>
 * </ul>
 * A cluster's partition store ({@link #partition}, made by {@code RedisClusterCoordinator}) has the same keys under
 * {@code {PREFIX:p:P}}, beside the partition's lease hash, and runs every write script behind the fence
 * ({@code fence.lua}); its topic pauses are the cluster's.
 * <p> * Every write touching more than one key is one Lua script ({@code SCRIPT LOAD}ed at every connect, run by
 * {@code EVALSHA}, reloaded and retried once after {@code NOSCRIPT}): {@code put}/{@code putAll} (one script call
 * for the whole batch), {@code update} (keeps the stored payload), {@code remove}, {@code recordFirings} (one call
 * for the whole batch; per request, in list order: check generation and firing count, take the next seq,
 * {@code XADD} the
 * firing with the stored topic and payload, advance or remove the timer — a stale request writes nothing and
 * consumes no seq), {@code trimFirings}.
 *
 * <h2>Thread model and ordering</h2>
 * Thread safe. Every method returns at once; nothing blocks. A call made on a Vert.x context completes on that
 * context. All calls go over one pipelined connection (many commands in flight; the round-trip time does not cap
 * throughput), which Redis serves in order: calls made from one thread are applied in the order they were made.
 * The exceptions are a {@code NOSCRIPT} retry (only after an operator's {@code SCRIPT FLUSH} on a live
 * connection) and a Cluster {@code MOVED}/{@code ASK} redirect during resharding: the retried call is applied after
 * calls sent meanwhile.
 *
 * <h2>Failures</h2>
 * Every call is bounded by {@link RedisStoreOptions#getCommandTimeoutMs()}. When Redis is unreachable (stopped,
 * restarting, loading its data, connection killed or reset, also while calls are in flight) calls fail with
 * {@link StoreUnavailableException} (fast while disconnected), the store reconnects by itself with exponential
 * backoff, and works again once Redis is back. When nothing at all came back for a whole timeout while calls waited
 * (hung server, dead network path), the store drops the connection and reconnects. A write that failed after it was
 * written to the connection (lost connection, timeout) may have been applied ({@code mayHaveApplied()} true); one
 * refused before it was sent, or refused by Redis as a whole, was not. Other Redis errors are
 * {@link StoreFaultException}; calls after {@link #close()} {@link io.tickwheel.core.store.StoreClosedException}.
 * The password of the connection string never appears in a message.
 *
 * <h2>Durability</h2>
 * A completed write has been executed by Redis; whether it survives a Redis crash is Redis's persistence setting:
 * <ul>
 *   <li>{@code appendonly yes} + {@code appendfsync always}: Redis fsyncs the AOF before answering, so an
 *       acknowledged write survives a crash or power loss of the Redis host.</li>
 *   <li>{@code appendfsync everysec} (Redis's default AOF mode): up to about one second (two in the worst case)
 *       of acknowledged writes can be lost if the Redis host crashes or loses power; a Redis process crash alone
 *       loses nothing already written to the OS.</li>
 *   <li>RDB snapshots only, or no persistence: everything since the last snapshot (or everything) is lost on a Redis
 *       restart; timers are then not durable.</li>
 * </ul>
 * Replication to replicas is asynchronous: a failover can lose the latest acknowledged writes, unless
 * {@link RedisStoreOptions#setMinReplicasAcked} makes every write wait for replicas ({@code WAIT}; see there and
 * {@link RedisLink} for what that does and does not promise).
 */
public final class RedisTimerStore implements TimerStore {

  /**
   * The version of the data layout under the prefix; open refuses another one, except {@link #UPGRADES_FORMAT}.
   * Format 2 adds to format 1 (which it reads as it is): timer records may carry calendar extras, firing log entries
   * a nominal time, and the set of paused topics. Stamping 2 on data of format 1 keeps releases that know only
   * format 1 from reading records they would misread: they refuse to open it, naming the format.
   */
  public static final String DATA_FORMAT = "2";
  /** The older format that open upgrades in place to {@link #DATA_FORMAT} (nothing to rewrite: a superset). */
  static final String UPGRADES_FORMAT = "1";

  /** The most log entries one trim script inspects by age before yielding Redis to other clients. */
  static final int TRIM_BUDGET = 10_000;
  /** The most index entries one filtered {@link #list} call examines. */
  static final int LIST_SCAN_BUDGET = 65_536;
  /** The most index entries one page script examines for a topic filter. */
  static final int SCRIPT_SCAN_BUDGET = 4_096;
  /** The largest {@code limit} of {@link #list}. */
  public static final int MAX_LIST_LIMIT = 10_000;

  /** The score of every due-index entry. */
  private static final byte[] ZERO = {'0'};

  private final RedisLink link;
  private final String prefix;
  private final List<String> timerKeys;
  private final List<String> fireKeys;
  private final List<String> logKey;
  private final String timersKey;
  private final String dueKey;
  private final String seqKey;
  private final String log;
  private final String pausedTopicsKey;
  /** Deliveries: the records by seq, and the seqs per state and in all (zsets scored by seq). */
  private final String deliveriesKey;
  private final String[] deliveryStateKeys;
  private final String allDeliveriesKey;
  private final String webhookSecretKey;
  /** The partition's lease hash when writes are fenced, else {@code null}. */
  private final String leaseKey;
  private final int partition;
  private final long epoch;
  private final boolean readOnly;
  /** Whether {@link #close()} closes the link (false for a partition store on the coordinator's shared link). */
  private final boolean ownsLink;
  private volatile boolean closed;

  private RedisTimerStore(RedisLink link, String keyPrefix) {
    this(link, "{" + keyPrefix + "}:", "{" + keyPrefix + "}:", null, -1, 0, false, true);
  }

  private RedisTimerStore(RedisLink link, String prefix, String sharedPrefix, String leaseKey, int partition,
      long epoch, boolean readOnly, boolean ownsLink) {
    this.link = link;
    this.prefix = prefix;
    this.leaseKey = leaseKey;
    this.partition = partition;
    this.epoch = epoch;
    this.readOnly = readOnly;
    this.ownsLink = ownsLink;
    this.timersKey = prefix + "timers";
    this.dueKey = prefix + "due";
    this.seqKey = prefix + "seq";
    this.log = prefix + "log";
    this.pausedTopicsKey = sharedPrefix + "paused-topics";
    this.webhookSecretKey = sharedPrefix + "webhook-secret";
    this.timerKeys = List.of(timersKey, dueKey);
    this.deliveriesKey = prefix + "dlv";
    this.deliveryStateKeys = new String[DeliveryState.values().length];
    for (DeliveryState st : DeliveryState.values()) {
      deliveryStateKeys[st.ordinal()] = prefix + "dlv:" + st.wire();
    }
    this.allDeliveriesKey = prefix + "dlv:all";
    this.fireKeys = List.of(timersKey, dueKey, seqKey, log, deliveriesKey,
        deliveryStateKeys[DeliveryState.PENDING.ordinal()], allDeliveriesKey);
    this.logKey = List.of(log);
  }

  /**
   * Connects to Redis as {@code options} say (a copy is taken), loads the scripts and checks the data format
   * under the key prefix.
   *
   * @return the open store; failed with {@link StoreUnavailableException} when Redis cannot be reached (the
   *     message names the endpoint, password masked), {@link StoreFaultException} when Redis answers with an error
   *     (wrong data format, …)
   * @throws IllegalArgumentException when {@link RedisStoreOptions#validate()} refuses the options
   */
  public static Future<RedisTimerStore> open(Vertx vertx, RedisStoreOptions options) {
    Objects.requireNonNull(vertx, "vertx");
    RedisStoreOptions opts = new RedisStoreOptions(Objects.requireNonNull(options, "options"));
    Context ctx = Vertx.currentContext();
    String meta = "{" + opts.getKeyPrefix() + "}:meta";
    String clusterMeta = clusterMetaKey(opts.getKeyPrefix());
    Future<RedisTimerStore> f = RedisLink.open(vertx, opts, link ->
            link.eval(Script.INIT, List.of(meta, clusterMeta), List.of(DATA_FORMAT, UPGRADES_FORMAT),
                    Response::toString)
                .recover(e -> Future.failedFuture(e instanceof ScriptRefusal r && r.code().equals("CLUSTER")
                    ? new ClusterConfigException(link.where() + " is used by a tickwheel cluster (" + r.reply()
                        + ") under {" + opts.getKeyPrefix() + "}: start this node with --cluster (and the cluster's"
                        + " --partitions), or give it another Redis or key prefix")
                    : e))
                .compose(format -> DATA_FORMAT.equals(format) ? Future.succeededFuture()
                    : Future.failedFuture(new StoreFaultException(link.where() + " holds timer data of format "
                        + format + " under {" + opts.getKeyPrefix() + "}; this version reads formats "
                        + UPGRADES_FORMAT + " and " + DATA_FORMAT, null, false))))
        .map(link -> new RedisTimerStore(link, opts.getKeyPrefix()));
    return onContext(ctx, f);
  }

  /** The hash holding a cluster's configuration under {@code keyPrefix} (a single node refuses a prefix with it). */
  public static String clusterMetaKey(String keyPrefix) {
    return "{" + keyPrefix + "}:cluster";
  }

  /**
   * Partition {@code p}'s store of the cluster under {@code keyPrefix}, on the cluster coordinator's shared link (for
   * {@code RedisClusterCoordinator}; applications use the coordinator). Its data lives under the hash tag
   * {@code {PREFIX:p:P}}, together with the partition's lease hash {@code {PREFIX:p:P}:lease}; topic pauses are the
   * cluster's ({@code {PREFIX}:paused-topics}). With {@code readOnly}, every write fails with
   * {@link StoreFaultException}; otherwise every write is fenced by {@code epoch}: it applies only while the lease's
   * epoch is {@code epoch} and the lease has not expired (Redis {@code TIME}), checked in the same script, and else
   * fails with {@link StoreFencedException} having changed nothing. {@link #close()} leaves the link open.
   */
  public static RedisTimerStore partition(RedisLink link, String keyPrefix, int p, long epoch, boolean readOnly) {
    String tag = partitionTag(keyPrefix, p);
    return new RedisTimerStore(link, tag + ":", "{" + keyPrefix + "}:", tag + ":lease", p, epoch,
        readOnly, false);
  }

  /** The hash tag of partition {@code p}'s keys under {@code keyPrefix}: {@code {PREFIX:p:P}}. */
  public static String partitionTag(String keyPrefix, int p) {
    return "{" + keyPrefix + ":p:" + p + "}";
  }

  @Override
  public String name() {
    return leaseKey == null ? "redis" : "redis-partition-" + partition;
  }

  // ---------------------------------------------------------------- sending, with the fence of a partition store

  /** A write script: plain on a single node, its fenced twin on a partition store. */
  private <T> Future<T> writeScript(Script plain, Script fenced, List<String> keys, List<?> args,
      Function<Response, T> map) {
    Future<T> refused = refuseWrite();
    if (refused != null) {
      return refused;
    }
    if (leaseKey == null) {
      return link.eval(plain, keys, args, map);
    }
    List<String> k = new ArrayList<>(keys.size() + 1);
    k.addAll(keys);
    k.add(leaseKey);
    List<Object> a = new ArrayList<>(args.size() + 1);
    a.addAll(args);
    a.add(Long.toString(epoch));
    return link.eval(fenced, k, a, map).recover(e -> Future.failedFuture(
        e instanceof ScriptRefusal r && r.code().equals(Script.FENCED_CODE)
            ? new StoreFencedException(partition, epoch) : e));
  }

  /** A failed future if this handle may not write now (closed, or a reader), else {@code null}. */
  private <T> Future<T> refuseWrite() {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    if (readOnly) {
      return Future.failedFuture(new StoreFaultException("partition " + partition
          + " reader: writes are not allowed", null, false));
    }
    return null;
  }

  private <T> Future<T> read(Request request, Function<Response, T> map) {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    return link.read(request, map);
  }

  /** Whether the store is connected to Redis right now (false while it reconnects). */
  public boolean isConnected() {
    return link.connected();
  }

  @Override
  public Future<Void> put(Timer t) {
    try {
      TimerRecord.check(t);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return writeScript(Script.PUT, Script.PUT_FENCED, timerKeys,
        List.of(t.id(), TimerRecord.member(t.nextDueAt(), t.id()), TimerRecord.encode(t)), r -> null);
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    if (timers.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Object> args = new ArrayList<>(timers.size() * 3);
    try {
      for (Timer t : distinctIds(timers)) {
        TimerRecord.check(t);
        args.add(t.id());
        args.add(TimerRecord.member(t.nextDueAt(), t.id()));
        args.add(TimerRecord.encode(t));
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return writeScript(Script.PUT, Script.PUT_FENCED, timerKeys, args, r -> null);
  }

  /**
   * {@inheritDoc}
   *
   * <p>No script and no read: one transaction ({@code MULTI}, one variadic {@code ZADD} of the index entries, one
   * variadic {@code HSET} of the records, {@code EXEC}), atomic as a script is, and sent as one batch. Redis parses
   * the arguments straight into the commands, so a created timer costs it about half the CPU of {@link #putAll}'s
   * script (which reads the old versions and copies every argument through Lua). If an id is stored after all (a
   * caller bug), its record is replaced and its old index entry stays; {@link #list} and {@link #loadAll} skip an
   * entry whose due time disagrees with its record.
   */
  @Override
  public Future<Void> createAll(List<Timer> timers) {
    if (timers.isEmpty()) {
      return Future.succeededFuture();
    }
    if (leaseKey != null || readOnly) {
      return putAll(timers); // a transaction cannot check the fence: the fenced put script does the same here
    }
    List<Timer> ts = distinctIds(timers);
    Request zadd = Request.cmd(Command.ZADD).arg(dueKey);
    Request hset = Request.cmd(Command.HSET).arg(timersKey);
    try {
      for (Timer t : ts) {
        TimerRecord.check(t);
        byte[] id = t.id().getBytes(StandardCharsets.UTF_8);
        zadd.arg(ZERO).arg(TimerRecord.member(t.nextDueAt(), id));
        hset.arg(id).arg(TimerRecord.encode(t));
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return link.transaction(List.of(zadd, hset), "createAll", r -> null);
  }

  /**
   * {@code timers} with only the last of each id (the SPI promises distinct ids; this keeps "the last one wins" if a
   * caller breaks that, which the put script needs: it writes each chunk with variadic commands).
   */
  private static List<Timer> distinctIds(List<Timer> timers) {
    HashSet<String> seen = new HashSet<>(timers.size() * 2);
    for (Timer t : timers) {
      if (!seen.add(t.id())) {
        seen.clear();
        ArrayList<Timer> kept = new ArrayList<>(timers.size());
        for (int i = timers.size() - 1; i >= 0; i--) {
          if (seen.add(timers.get(i).id())) {
            kept.add(timers.get(i));
          }
        }
        Collections.reverse(kept);
        return kept;
      }
    }
    return timers;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call: it writes {@code next}'s header in front of the stored payload and answers that payload,
   * so the stored timer is {@code next} with it.
   */
  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    try {
      TimerRecord.check(next);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return writeScript(Script.UPDATE, Script.UPDATE_FENCED, timerKeys,
        List.of(next.id(), Long.toString(expectedGeneration), TimerRecord.member(next.nextDueAt(), next.id()),
            TimerRecord.header(next)),
        r -> r == null ? null : next.withPayload(TimerRecord.payloadOf(r.toBytes(), 0)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call (every key of the store shares one hash tag, so one slot on a Cluster): per item it writes the
   * header in front of the stored payload when the generation matches, reading the old records with one
   * {@code HMGET} per 1,000 items.
   */
  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    List<Object> args = new ArrayList<>(next.size() * 4);
    try {
      TimerStore.checkUpdateAll(next, expectedGenerations);
      for (int i = 0; i < next.size(); i++) {
        Timer t = next.get(i);
        TimerRecord.check(t);
        args.add(t.id());
        args.add(Long.toString(expectedGenerations[i]));
        args.add(TimerRecord.member(t.nextDueAt(), t.id()));
        args.add(TimerRecord.header(t));
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (next.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Timer> ts = List.copyOf(next);
    return writeScript(Script.UPDATE_ALL, Script.UPDATE_ALL_FENCED, timerKeys, args, r -> {
      List<Timer> out = new ArrayList<>(ts.size());
      for (int i = 0; i < ts.size(); i++) {
        Response seg = r.get(i);
        out.add(seg == null ? null : ts.get(i).withPayload(TimerRecord.payloadOf(seg.toBytes(), 0)));
      }
      return out;
    });
  }

  @Override
  public Future<Timer> get(String id) {
    return read(Request.cmd(Command.HGET).arg(timersKey).arg(id),
        r -> r == null ? null : TimerRecord.decode(id, r.toBytes()));
  }

  @Override
  public Future<Boolean> remove(String id) {
    return writeScript(Script.REMOVE, Script.REMOVE_FENCED, timerKeys, List.of(id), r -> r.toInteger() == 1);
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    if (requests.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Object> args = new ArrayList<>(requests.size() * 7);
    for (FiringRequest q : requests) {
      Timer next = q.next();
      String rearmed = next == null ? null : TimerRecord.rearmedHeader(next, q.generation(), q.firingsBefore());
      if (next != null && rearmed == null) {
        try {
          TimerRecord.check(next);
        } catch (IllegalArgumentException e) {
          return Future.failedFuture(e);
        }
      }
      args.add(q.id());
      args.add(Long.toString(q.generation()));
      args.add(Long.toString(q.firingsBefore()));
      args.add(q.fire() ? firingMeta(q) : "");
      args.add(next == null ? "" : TimerRecord.member(next.nextDueAt(), next.id()));
      args.add(next == null ? "" : rearmed != null ? rearmed : TimerRecord.header(next));
      args.add(q.fire() && q.callback() != null ? deliveryTemplate(q) : "");
    }
    return writeScript(Script.FIRE, Script.FIRE_FENCED, fireKeys, args, r -> {
      List<FiringResult> out = new ArrayList<>(requests.size());
      for (int i = 0; i < requests.size(); i++) {
        long st = r.get(3 * i).toLong();
        if (st == 0) {
          out.add(FiringResult.stale());
        } else if (st < 0) {
          out.add(FiringResult.advanced());
        } else {
          FiringRequest q = requests.get(i);
          Firing f = new Firing(st, q.id(), r.get(3 * i + 1).toString(), q.firingsBefore() + 1,
              q.dueAt(), q.firedAt(), TimerRecord.payloadOf(r.get(3 * i + 2).toBytes(), 0), q.nominalAt());
          out.add(FiringResult.fired(f, q.callback() == null ? null : Delivery.pending(f, q.callback())));
        }
      }
      return out;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Streams in {@code (nextDueAt, id)} order, a {@code ZRANGE BYLEX} and an {@code HMGET} per batch; the next
   * batch is read only after the sink's future completes. A timer rescheduled meanwhile may be streamed twice (old
   * and new position), one removed meanwhile not at all.
   */
  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Context ctx = Vertx.currentContext();
    Promise<Long> done = Promise.promise();
    loadFrom("-", batchSize, sink, 0, done);
    return onContext(ctx, done.future());
  }

  private void loadFrom(String start, int batchSize, Function<List<Timer>, Future<Void>> sink, long count,
      Promise<Long> done) {
    loadPage(start, batchSize).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      Page p = ar.result();
      if (p.lastMember == null) {
        done.complete(count);
        return;
      }
      long total = count + p.timers.size();
      Future<Void> sunk;
      try {
        sunk = p.timers.isEmpty() ? Future.succeededFuture()
            : Objects.requireNonNull(sink.apply(p.timers), "the sink returned null");
      } catch (RuntimeException e) {
        done.fail(e);
        return;
      }
      sunk.onComplete(s -> {
        if (s.failed()) {
          done.fail(s.cause());
        } else if (p.exhausted) {
          done.complete(total);
        } else {
          loadFrom("(" + p.lastMember, batchSize, sink, total, done);
        }
      });
    });
  }

  /**
   * One recovery page with two plain commands, {@code ZRANGE due (cursor + BYLEX LIMIT 0 n} then {@code HMGET} of
   * those ids: no script, so Redis copies nothing through Lua (several times cheaper for big pages). A timer removed
   * between the two commands is skipped, and so is an index entry whose due time is not its record's.
   */
  private Future<Page> loadPage(String start, int batchSize) {
    Request range = Request.cmd(Command.ZRANGE).arg(dueKey).arg(start).arg("+").arg("BYLEX").arg("LIMIT").arg(0)
        .arg(batchSize);
    return read(range, r -> {
      List<String> members = new ArrayList<>(r == null ? 0 : r.size());
      if (r != null) {
        for (Response m : r) {
          members.add(m.toString());
        }
      }
      return members;
    }).compose(members -> {
      if (members.isEmpty()) {
        return Future.succeededFuture(new Page(List.of(), true, null));
      }
      Request get = Request.cmd(Command.HMGET).arg(timersKey);
      for (String m : members) {
        get.arg(TimerRecord.idOfMember(m));
      }
      return read(get, r -> {
        List<Timer> ts = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
          Response v = r.get(i);
          String m = members.get(i);
          if (v != null) {
            Timer t = TimerRecord.decode(TimerRecord.idOfMember(m), v.toBytes());
            if (TimerRecord.isMemberOf(m, t)) { // else an entry left behind by createAll: not this timer's place
              ts.add(t);
            }
          }
        }
        return new Page(ts, members.size() < batchSize, members.get(members.size() - 1));
      });
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>There is one index, by due time; a topic filter examines it in order, at most {@value #LIST_SCAN_BUDGET}
   * entries per call, in script calls of at most {@value #SCRIPT_SCAN_BUDGET} entries (Redis serves other clients in
   * between). When the budget runs out before {@code limit} matches, the page is shorter and {@code next} points
   * after the last examined timer, so following {@code next} still lists every match exactly once.
   */
  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException(
          "limit must be in [1, " + MAX_LIST_LIMIT + "], was " + limit));
    }
    Context ctx = Vertx.currentContext();
    String start = after == null ? "-" : "(" + TimerRecord.member(after.dueAt(), after.id());
    Promise<TimerPage> done = Promise.promise();
    listStep(topic == null ? "" : topic, start, limit, new ArrayList<>(), 0, done);
    return onContext(ctx, done.future());
  }

  private void listStep(String topic, String start, int limit, List<Timer> acc, int examined,
      Promise<TimerPage> done) {
    int want = limit + 1 - acc.size();
    int budget = topic.isEmpty() ? want : SCRIPT_SCAN_BUDGET;
    page(start, want, topic, budget).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      Page p = ar.result();
      acc.addAll(p.timers);
      int seen = examined + (topic.isEmpty() ? p.timers.size() : budget);
      if (acc.size() > limit) {
        List<Timer> ts = new ArrayList<>(acc.subList(0, limit));
        done.complete(new TimerPage(ts, TimerCursor.after(ts.get(limit - 1))));
      } else if (p.exhausted || p.lastMember == null) {
        done.complete(new TimerPage(acc, null));
      } else if (seen >= LIST_SCAN_BUDGET) {
        String id = TimerRecord.idOfMember(p.lastMember);
        long due = TimerRecord.parseDueHex(p.lastMember.substring(0, 16));
        done.complete(new TimerPage(acc, new TimerCursor(due, id)));
      } else {
        listStep(topic, "(" + p.lastMember, limit, acc, seen, done);
      }
    });
  }

  private record Page(List<Timer> timers, boolean exhausted, String lastMember) {}

  private Future<Page> page(String start, int want, String topic, int budget) {
    if (closed && !ownsLink) {
      return Future.failedFuture(new StoreClosedException(name() + " on " + link.where() + " is closed"));
    }
    return link.eval(Script.PAGE, timerKeys,
        List.of(start, Integer.toString(want), topic, Integer.toString(budget)), r -> {
          boolean exhausted = r.get(0).toLong() == 1;
          String last = r.get(1).toString();
          int n = (r.size() - 2) / 2;
          List<Timer> ts = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            String member = r.get(2 + 2 * i).toString();
            ts.add(TimerRecord.decode(TimerRecord.idOfMember(member), r.get(3 + 2 * i).toBytes()));
          }
          return new Page(ts, exhausted, last.isEmpty() ? null : last);
        });
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    if (limit < 1) {
      return Future.failedFuture(new IllegalArgumentException("limit must be >= 1, was " + limit));
    }
    if (afterSeq == Long.MAX_VALUE) {
      return Future.succeededFuture(List.of());
    }
    String start = afterSeq < 0 ? "-" : (afterSeq + 1) + "-0";
    return read(Request.cmd(Command.XRANGE).arg(log).arg(start).arg("+").arg("COUNT").arg(limit), r -> {
      List<Firing> out = new ArrayList<>(r == null ? 0 : r.size());
      if (r == null) {
        return out;
      }
      for (Response e : r) {
        out.add(firing(e.get(0).toString(), e.get(1)));
      }
      return out;
    });
  }

  /**
   * The {@code f} field of a firing's log entry: {@code "N DUEAT FIREDAT ID"}, followed by {@code " NOMINALAT"} only
   * when the nominal time differs from the due time (a jittered timer), so a plain firing costs what it did.
   */
  private static String firingMeta(FiringRequest q) {
    String m = (q.firingsBefore() + 1) + " " + q.dueAt() + " " + q.firedAt() + " " + q.id();
    return q.nominalAt() == q.dueAt() ? m : m + " " + q.nominalAt();
  }

  /**
   * Decodes a log entry: id {@code SEQ-0}, fields f = "N DUEAT FIREDAT ID[ NOMINALAT]" (see {@link #firingMeta}; an
   * entry without it has its due time as nominal time), t = topic, p = payload segment.
   */
  private static Firing firing(String streamId, Response fields) {
    long seq = Long.parseLong(streamId.substring(0, streamId.indexOf('-')));
    String f = null;
    String topic = null;
    byte[] pseg = null;
    if (fields.isMap()) {
      f = fields.get("f").toString();
      topic = fields.get("t").toString();
      pseg = fields.get("p").toBytes();
    } else {
      for (int i = 0; i + 1 < fields.size(); i += 2) {
        switch (fields.get(i).toString()) {
          case "f" -> f = fields.get(i + 1).toString();
          case "t" -> topic = fields.get(i + 1).toString();
          case "p" -> pseg = fields.get(i + 1).toBytes();
          default -> { }
        }
      }
    }
    if (f == null || topic == null || pseg == null) {
      throw new StoreFaultException("firing log entry " + streamId + " is malformed", null, false);
    }
    String[] parts = f.split(" ");
    if (parts.length != 4 && parts.length != 5) {
      throw new StoreFaultException("firing log entry " + streamId + " is malformed", null, false);
    }
    long due = Long.parseLong(parts[1]);
    return new Firing(seq, parts[3], topic, Long.parseLong(parts[0]), due, Long.parseLong(parts[2]),
        TimerRecord.payloadOf(pseg, 0), parts.length == 5 ? Long.parseLong(parts[4]) : due);
  }

  @Override
  public Future<Long> lastSeq() {
    return read(Request.cmd(Command.GET).arg(seqKey), r -> r == null ? 0L : r.toLong());
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call trims by count and inspects at most {@value #TRIM_BUDGET} entries by age; the store repeats
   * it (other clients run in between) until nothing is left to trim.
   */
  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    long cutoff;
    try {
      cutoff = Math.subtractExact(nowMs, retention.maxAgeMs());
    } catch (ArithmeticException e) {
      cutoff = Long.MIN_VALUE;
    }
    Context ctx = Vertx.currentContext();
    Promise<Long> done = Promise.promise();
    trimStep(retention.maxCount(), cutoff, 0, done);
    return onContext(ctx, done.future());
  }

  private void trimStep(long maxCount, long cutoff, long removed, Promise<Long> done) {
    writeScript(Script.TRIM, Script.TRIM_FENCED, logKey, List.of(Long.toString(maxCount), Long.toString(cutoff),
        Integer.toString(TRIM_BUDGET)), r -> new long[] {r.get(0).toLong(), r.get(1).toLong()})
        .onComplete(ar -> {
          if (ar.failed()) {
            done.fail(ar.cause());
          } else if (ar.result()[1] == 1) {
            trimStep(maxCount, cutoff, removed + ar.result()[0], done);
          } else {
            done.complete(removed + ar.result()[0]);
          }
        });
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    Objects.requireNonNull(topic, "topic");
    Future<Void> refused = refuseWrite();
    if (refused != null) {
      return refused;
    }
    return link.write(Request.cmd(paused ? Command.SADD : Command.SREM).arg(pausedTopicsKey).arg(topic), r -> null);
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return read(Request.cmd(Command.SMEMBERS).arg(pausedTopicsKey), r -> {
      Set<String> out = new HashSet<>();
      if (r != null) {
        for (Response m : r) {
          out.add(m.toString());
        }
      }
      return out;
    });
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    Objects.requireNonNull(generatedIfAbsent, "generatedIfAbsent");
    return link.transaction(List.of(
            Request.cmd(Command.SET).arg(webhookSecretKey).arg(generatedIfAbsent).arg("NX"),
            Request.cmd(Command.GET).arg(webhookSecretKey)),
        "webhookSecret", r -> r.get(1).toString());
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return ownsLink ? link.close() : Future.succeededFuture();
  }

  /** {@code f}, completing on {@code ctx} when there is one. */
  private static <T> Future<T> onContext(Context ctx, Future<T> f) {
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

  // ------------------------------------------------------------------ deliveries

  /** The most finished deliveries one trim script examines. */
  static final int DELIVERY_TRIM_BUDGET = 10_000;

  /**
   * The storage form of the pending delivery of {@code q}'s firing, without what only the script knows (seq, topic,
   * payload): fire.lua stores it as {@code "N\n" + template + "\n" + topic + "\n" + payload segment}.
   */
  private static String deliveryTemplate(FiringRequest q) {
    Firing f = new Firing(1, q.id(), "-", q.firingsBefore() + 1, q.dueAt(), q.firedAt(), null, q.nominalAt());
    return new String(DeliveryJson.encode(Delivery.pending(f, q.callback())), StandardCharsets.UTF_8);
  }

  /** A stored delivery: the storage form, or fire.lua's fresh form (see {@link #deliveryTemplate}). */
  static Delivery decodeDelivery(long seq, byte[] raw) {
    if (raw.length < 2 || raw[0] != 'N' || raw[1] != '\n') {
      return DeliveryJson.decode(raw);
    }
    int a = indexOf(raw, 2);
    int b = indexOf(raw, a + 1);
    if (a < 0 || b < 0) {
      throw new IllegalArgumentException("delivery " + seq + ": a fresh record without its three parts");
    }
    Delivery t = DeliveryJson.decode(java.util.Arrays.copyOfRange(raw, 2, a));
    String topic = new String(raw, a + 1, b - a - 1, StandardCharsets.UTF_8);
    Firing tf = t.firing();
    Firing f = new Firing(seq, tf.id(), topic, tf.firing(), tf.dueAt(), tf.firedAt(),
        TimerRecord.payloadOf(raw, b + 1), tf.nominalAt());
    return Delivery.pending(f, t.callback());
  }

  private static int indexOf(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private Delivery decodeOrFault(long seq, Response r) {
    try {
      return decodeDelivery(seq, r.toBytes());
    } catch (IllegalArgumentException e) {
      throw new StoreFaultException("corrupt delivery record " + seq + " in " + link.where() + ": " + e.getMessage(),
          e, false);
    }
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return link.read(Request.cmd(Command.HGET).arg(deliveriesKey).arg(Long.toString(seq)),
        r -> r == null ? null : decodeOrFault(seq, r));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException("limit must be 1.." + MAX_LIST_LIMIT + ", was " + limit));
    }
    String index = state == null ? allDeliveriesKey : deliveryStateKeys[state.ordinal()];
    return link.eval(Script.PAGE_DELIVERIES, List.of(deliveriesKey, index),
        List.of(Long.toString(afterSeq), Integer.toString(limit)), r -> {
          List<Delivery> page = new ArrayList<>(Math.min(limit, r.size() / 2));
          boolean more = false;
          for (int i = 0; i + 1 < r.size(); i += 2) {
            if (page.size() == limit) {
              more = true;
              break;
            }
            Response rec = r.get(i + 1);
            if (rec != null) {
              page.add(decodeOrFault(r.get(i).toLong(), rec));
            }
          }
          return new DeliveryPage(page, more && !page.isEmpty() ? page.get(page.size() - 1).seq() : -1);
        });
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    Objects.requireNonNull(d, "d");
    List<String> keys = List.of(deliveriesKey, deliveryStateKeys[0], deliveryStateKeys[1], deliveryStateKeys[2]);
    return writeScript(Script.UPDATE_DELIVERY, Script.UPDATE_DELIVERY_FENCED, keys, List.of(Long.toString(d.seq()),
        Integer.toString(d.state().ordinal()), new String(DeliveryJson.encode(d), StandardCharsets.UTF_8),
        Integer.toString(expected == null ? -1 : expected.ordinal())), r -> r.toInteger() == 1);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Objects.requireNonNull(sink, "sink");
    return pendingFrom(0, Math.min(batchSize, MAX_LIST_LIMIT), sink, 0);
  }

  private Future<Long> pendingFrom(long after, int batchSize, Function<List<Delivery>, Future<Void>> sink, long n) {
    return listDeliveries(DeliveryState.PENDING, after, batchSize).compose(page -> {
      if (page.items().isEmpty()) {
        return Future.succeededFuture(n);
      }
      long total = n + page.items().size();
      return sink.apply(page.items()).compose(v -> page.nextAfter() < 0 ? Future.succeededFuture(total)
          : pendingFrom(page.nextAfter(), batchSize, sink, total));
    });
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    long cutoff;
    try {
      cutoff = Math.subtractExact(nowMs, retention.maxAgeMs());
    } catch (ArithmeticException e) {
      cutoff = Long.MIN_VALUE;
    }
    return writeScript(Script.TRIM_DELIVERIES, Script.TRIM_DELIVERIES_FENCED, List.of(deliveriesKey, deliveryStateKeys[1], deliveryStateKeys[2],
        allDeliveriesKey), List.of(Long.toString(retention.maxCount()), Long.toString(cutoff),
        Integer.toString(DELIVERY_TRIM_BUDGET)), Response::toLong);
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return link.read(Request.cmd(Command.ZCARD).arg(deliveryStateKeys[state.ordinal()]), Response::toLong);
  }
}
