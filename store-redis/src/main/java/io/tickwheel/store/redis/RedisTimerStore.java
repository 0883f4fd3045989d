package io.tickwheel.store.redis;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.store.ComposedStore;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.impl.RedisDeliveries;
import io.tickwheel.store.redis.impl.RedisFiringLog;
import io.tickwheel.store.redis.impl.RedisKeys;
import io.tickwheel.store.redis.impl.RedisLink;
import io.tickwheel.store.redis.impl.RedisSender;
import io.tickwheel.store.redis.impl.RedisSettings;
import io.tickwheel.store.redis.impl.RedisTimers;
import io.tickwheel.store.redis.impl.Script;
import io.tickwheel.store.redis.impl.ScriptRefusal;
import io.tickwheel.store.redis.impl.TimerRecord;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Objects;

/**
 * A {@link TimerStore} on Redis (standalone or Redis Cluster), through the async {@code vertx-redis-client}: the
 * assembly of its parts in {@code impl}, {@link RedisTimers}, {@link RedisFiringLog}, {@link RedisDeliveries} and
 * {@link RedisSettings}, over the keys of {@link RedisKeys}, sending through one {@link RedisSender} (the link and the
 * fence of a partition store).
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
 *   <li>{@code {tw}:topic-counts} — hash, topic → its stored timers (a field only while above 0), and
 *       {@code *paused} → the paused ones; {@code {tw}:topics} — sorted set, all scores 0, the topics that have
 *       timers, so {@link #topicCounts} pages them by name with {@code ZRANGE … BYLEX}. Both are changed in the
 *       script (or transaction) that writes the timers, once per topic changed, not per timer. Data written before
 *       them (no field {@code *counted}) is counted once at open ({@link RedisTimers#counted}).</li>
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

 * <p>Every write touching more than one key is one Lua script ({@code SCRIPT LOAD}ed at every connect, run by
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
public final class RedisTimerStore extends ComposedStore implements io.tickwheel.core.store.TimerExport,
    io.tickwheel.core.store.DueIndex {

  /**
   * The version of the data layout under the prefix; open refuses another one, except {@link #UPGRADES_FORMAT}.
   * Format 2 adds to format 1 (which it reads as it is): timer records may carry calendar extras, firing log entries
   * a nominal time, and the set of paused topics. Stamping 2 on data of format 1 keeps releases that know only
   * format 1 from reading records they would misread: they refuse to open it, naming the format.
   */
  public static final String DATA_FORMAT = "2";
  /** The older format that open upgrades in place to {@link #DATA_FORMAT} (nothing to rewrite: a superset). */
  static final String UPGRADES_FORMAT = "1";

  /** The largest {@code limit} of {@link #list}. */
  public static final int MAX_LIST_LIMIT = RedisTimers.MAX_LIST_LIMIT;

  private final RedisSender send;
  private final RedisTimers timers;

  private RedisTimerStore(RedisSender send, RedisKeys keys) {
    this(send, keys, new RedisTimers(send, keys));
  }

  private RedisTimerStore(RedisSender send, RedisKeys keys, RedisTimers timers) {
    super(send.name(), timers, new RedisFiringLog(send, keys), new RedisDeliveries(send, keys),
        new RedisSettings(send, keys), send::close);
    this.send = send;
    this.timers = timers;
  }

  /** {@inheritDoc} The timers part's ({@link RedisTimers#dueBetween}). */
  @Override
  public Future<io.tickwheel.core.store.TimerPage> dueBetween(long fromMs, long toMs,
      io.tickwheel.core.store.TimerCursor after, int limit) {
    return timers.dueBetween(fromMs, toMs, after, limit);
  }

  /** {@inheritDoc} The timers part's ({@link RedisTimers#createAbsent}). */
  @Override
  public Future<java.util.Set<String>> createAbsent(java.util.List<io.tickwheel.core.model.Timer> list) {
    return timers.createAbsent(list);
  }

  /** {@inheritDoc} The timers part's ({@link RedisTimers#storedIds}). */
  @Override
  public Future<java.util.Set<String>> storedIds(java.util.List<String> ids) {
    return timers.storedIds(ids);
  }

  @Override
  public Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    return timers.topicCounts(after, limit);
  }

  @Override
  public Future<Long> topicCount(String topic) {
    return timers.topicCount(topic);
  }

  @Override
  public Future<Long> pausedCount() {
    return timers.pausedCount();
  }

  /** {@inheritDoc} The timers part's ({@link RedisTimers#timerCount}). */
  @Override
  public Future<Long> timerCount() {
    return timers.timerCount();
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
        .map(link -> new RedisTimerStore(new RedisSender(link),
            new RedisKeys("{" + opts.getKeyPrefix() + "}:", "{" + opts.getKeyPrefix() + "}:")))
        .compose(store -> store.timers.counted().map(store));
    return RedisSender.onContext(ctx, f);
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
    return new RedisTimerStore(new RedisSender(link, tag + ":lease", p, epoch, readOnly, false),
        new RedisKeys(tag + ":", "{" + keyPrefix + "}:"));
  }

  /** The hash tag of partition {@code p}'s keys under {@code keyPrefix}: {@code {PREFIX:p:P}}. */
  public static String partitionTag(String keyPrefix, int p) {
    return "{" + keyPrefix + ":p:" + p + "}";
  }


  /**
   * {@inheritDoc}
   *
   * <p>Redis keeps no snapshot a client can page through, so an export is defined as: pages in {@code (nextDueAt, id)}
   * order of the due index ({@code ZRANGE BYLEX} after the last member read, then {@code HMGET} of those records), a
   * record streamed only when it still stands at the index entry read (a whole stored version of the timer, at the
   * place the cursor reached); that is {@link #loadAll}. Hence:
   * <ul>
   *   <li>a timer neither written nor fired while the export runs is streamed exactly once, as stored;</li>
   *   <li>one that fires or is re-armed to a later time meanwhile may be streamed twice, its older state first (an
   *       import applies lines in order, so the newer state wins);</li>
   *   <li>one created meanwhile, or moved by a touch or PUT to before the cursor, may be missing; one removed
   *       meanwhile may be present.</li>
   * </ul>
   * The move between stores pauses the topics (nothing fires) and stops writers first: the export is then exact.
   * Nothing is held in Redis for it; the store holds one page.
   */
  @Override
  public Future<Long> exportAll(int batchSize,
      java.util.function.Function<List<io.tickwheel.core.model.Timer>, Future<Void>> sink) {
    return loadAll(batchSize, sink);
  }

  /** Whether the store is connected to Redis right now (false while it reconnects). */
  public boolean isConnected() {
    return send.link().connected();
  }
}
