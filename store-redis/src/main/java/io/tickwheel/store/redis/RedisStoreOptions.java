package io.tickwheel.store.redis;

import io.vertx.core.net.NetClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How {@link RedisTimerStore} reaches Redis. Mutable, fluent; {@link RedisTimerStore#open} copies it, so later
 * changes do not affect an open store. Not thread safe.
 *
 * <p>Defaults: {@code redis://127.0.0.1:6379}, standalone, key prefix {@code tw}, pool of 8 connections,
 * 5 s per-call timeout, reconnect backoff 100 ms doubling up to 5 s, no replica acknowledgement ({@code WAIT} off).
 */
public final class RedisStoreOptions {

  /** The default connection string. */
  public static final String DEFAULT_CONNECTION_STRING = "redis://127.0.0.1:6379";
  /** The default key prefix; every key lives under the hash tag {@code {tw}}. */
  public static final String DEFAULT_KEY_PREFIX = "tw";
  /** Default {@code maxPoolSize}: connections per Redis node. */
  public static final int DEFAULT_MAX_POOL_SIZE = 8;
  /** Default {@code commandTimeoutMs}. */
  public static final long DEFAULT_COMMAND_TIMEOUT_MS = 5_000;
  /** Default {@code reconnectBackoffMs}: the first reconnect delay. */
  public static final long DEFAULT_RECONNECT_BACKOFF_MS = 100;
  /** Default {@code maxReconnectBackoffMs}: the largest reconnect delay. */
  public static final long DEFAULT_MAX_RECONNECT_BACKOFF_MS = 5_000;
  /** Default {@code connectTimeoutMs}. */
  public static final long DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
  /** Default {@code minReplicasAcked}: 0, writes do not wait for replicas (no {@code WAIT}). */
  public static final int DEFAULT_MIN_REPLICAS_ACKED = 0;
  /** Default {@code replicaAckTimeoutMs}: how long one {@code WAIT} waits for the replicas. */
  public static final long DEFAULT_REPLICA_ACK_TIMEOUT_MS = 1_000;

  private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  private String connectionString = DEFAULT_CONNECTION_STRING;
  private boolean cluster;
  private List<String> clusterEndpoints = new ArrayList<>();
  private String keyPrefix = DEFAULT_KEY_PREFIX;
  private int maxPoolSize = DEFAULT_MAX_POOL_SIZE;
  private long commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS;
  private long reconnectBackoffMs = DEFAULT_RECONNECT_BACKOFF_MS;
  private long maxReconnectBackoffMs = DEFAULT_MAX_RECONNECT_BACKOFF_MS;
  private long connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
  private int minReplicasAcked = DEFAULT_MIN_REPLICAS_ACKED;
  private long replicaAckTimeoutMs = DEFAULT_REPLICA_ACK_TIMEOUT_MS;
  private NetClientOptions netClientOptions;

  public RedisStoreOptions() {}

  /** A copy of {@code other}. */
  public RedisStoreOptions(RedisStoreOptions other) {
    this.connectionString = other.connectionString;
    this.cluster = other.cluster;
    this.clusterEndpoints = new ArrayList<>(other.clusterEndpoints);
    this.keyPrefix = other.keyPrefix;
    this.maxPoolSize = other.maxPoolSize;
    this.commandTimeoutMs = other.commandTimeoutMs;
    this.reconnectBackoffMs = other.reconnectBackoffMs;
    this.maxReconnectBackoffMs = other.maxReconnectBackoffMs;
    this.connectTimeoutMs = other.connectTimeoutMs;
    this.minReplicasAcked = other.minReplicasAcked;
    this.replicaAckTimeoutMs = other.replicaAckTimeoutMs;
    this.netClientOptions = other.netClientOptions == null ? null : new NetClientOptions(other.netClientOptions);
  }

  /** The Redis endpoint: {@code redis://[[user]:password@]host:port[/db]} or {@code rediss://…} for TLS. */
  public String getConnectionString() {
    return connectionString;
  }

  /**
   * Sets the Redis endpoint. {@code redis://:secret@host:6379} authenticates with a password,
   * {@code redis://user:secret@host:6379} with an ACL user, {@code rediss://} uses TLS. The password is never
   * logged nor put into an exception message (see {@link RedisUris#mask}).
   *
   * @throws IllegalArgumentException naming the field when it is not a {@code redis://} or {@code rediss://} URI
   */
  public RedisStoreOptions setConnectionString(String connectionString) {
    this.connectionString = RedisUris.check("connectionString", connectionString);
    return this;
  }

  /** Whether Redis is a Redis Cluster. */
  public boolean isCluster() {
    return cluster;
  }

  /**
   * Talk to a Redis Cluster: the connection string and {@link #getClusterEndpoints} are seed nodes; the client
   * discovers the slots. All keys of the store share one hash tag, so they live on one master (see
   * {@link RedisTimerStore}). Default false.
   */
  public RedisStoreOptions setCluster(boolean cluster) {
    this.cluster = cluster;
    return this;
  }

  /** More seed endpoints for a cluster, besides the connection string (a copy). */
  public List<String> getClusterEndpoints() {
    return new ArrayList<>(clusterEndpoints);
  }

  /** More seed endpoints for a cluster (same syntax as the connection string). */
  public RedisStoreOptions setClusterEndpoints(List<String> endpoints) {
    Objects.requireNonNull(endpoints, "clusterEndpoints");
    List<String> copy = new ArrayList<>();
    for (String e : endpoints) {
      copy.add(RedisUris.check("clusterEndpoints", e));
    }
    this.clusterEndpoints = copy;
    return this;
  }

  /** Adds one seed endpoint for a cluster. */
  public RedisStoreOptions addClusterEndpoint(String endpoint) {
    clusterEndpoints.add(RedisUris.check("clusterEndpoints", endpoint));
    return this;
  }

  /** The key prefix, which is also the hash tag: keys are {@code {PREFIX}:…}. */
  public String getKeyPrefix() {
    return keyPrefix;
  }

  /**
   * The key prefix and hash tag (default {@code tw}): every key is {@code {PREFIX}:…}, so all of one store's keys
   * hash to one Cluster slot and every multi-key script is atomic on Cluster too. Two stores with different
   * prefixes can share one Redis. {@code [A-Za-z0-9._:-]{1,64}}.
   *
   * @throws IllegalArgumentException naming the field and value when malformed
   */
  public RedisStoreOptions setKeyPrefix(String keyPrefix) {
    if (keyPrefix == null || !PREFIX.matcher(keyPrefix).matches()) {
      throw new IllegalArgumentException("keyPrefix must match [A-Za-z0-9._:-]{1,64}, was \"" + keyPrefix + "\"");
    }
    this.keyPrefix = keyPrefix;
    return this;
  }

  /** The client's connection pool size per Redis node. */
  public int getMaxPoolSize() {
    return maxPoolSize;
  }

  /**
   * Connections the client may open per Redis node (default 8, at least 1). The store itself keeps one
   * pipelined connection for all its calls (that is what makes calls from one thread apply in order, and since
   * all keys share one slot they reach one node anyway); a Cluster connection takes one pooled connection per
   * master, and the pool is also used for the discovery of the cluster's slots.
   */
  public RedisStoreOptions setMaxPoolSize(int maxPoolSize) {
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize must be >= 1, was " + maxPoolSize);
    }
    this.maxPoolSize = maxPoolSize;
    return this;
  }

  /** The bound of every store call, milliseconds. */
  public long getCommandTimeoutMs() {
    return commandTimeoutMs;
  }

  /**
   * Every store call fails with {@link io.tickwheel.core.store.StoreUnavailableException} if Redis has not
   * answered within this many milliseconds (default 5000, at least 1). The command may still be applied later.
   */
  public RedisStoreOptions setCommandTimeoutMs(long commandTimeoutMs) {
    if (commandTimeoutMs < 1) {
      throw new IllegalArgumentException("commandTimeoutMs must be >= 1, was " + commandTimeoutMs);
    }
    this.commandTimeoutMs = commandTimeoutMs;
    return this;
  }

  /** The first reconnect delay, milliseconds. */
  public long getReconnectBackoffMs() {
    return reconnectBackoffMs;
  }

  /**
   * After losing Redis, the store tries to reconnect after this many milliseconds, doubling the delay after each
   * failed attempt up to {@link #getMaxReconnectBackoffMs} (default 100, at least 1).
   */
  public RedisStoreOptions setReconnectBackoffMs(long reconnectBackoffMs) {
    if (reconnectBackoffMs < 1) {
      throw new IllegalArgumentException("reconnectBackoffMs must be >= 1, was " + reconnectBackoffMs);
    }
    this.reconnectBackoffMs = reconnectBackoffMs;
    return this;
  }

  /** The largest reconnect delay, milliseconds. */
  public long getMaxReconnectBackoffMs() {
    return maxReconnectBackoffMs;
  }

  /** The largest reconnect delay, milliseconds (default 5000, at least 1). */
  public RedisStoreOptions setMaxReconnectBackoffMs(long maxReconnectBackoffMs) {
    if (maxReconnectBackoffMs < 1) {
      throw new IllegalArgumentException("maxReconnectBackoffMs must be >= 1, was " + maxReconnectBackoffMs);
    }
    this.maxReconnectBackoffMs = maxReconnectBackoffMs;
    return this;
  }

  /** The TCP connect timeout, milliseconds. */
  public long getConnectTimeoutMs() {
    return connectTimeoutMs;
  }

  /** The TCP connect timeout, milliseconds (default 2000, at least 1). */
  public RedisStoreOptions setConnectTimeoutMs(long connectTimeoutMs) {
    if (connectTimeoutMs < 1 || connectTimeoutMs > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("connectTimeoutMs must be in [1, 2^31), was " + connectTimeoutMs);
    }
    this.connectTimeoutMs = connectTimeoutMs;
    return this;
  }

  /** How many replicas must acknowledge a write before it succeeds; 0 = writes do not wait for replicas. */
  public int getMinReplicasAcked() {
    return minReplicasAcked;
  }

  /**
   * With {@code n > 0}, a write succeeds only once Redis's {@code WAIT n replicaAckTimeoutMs}, sent on the same
   * connection after it, answered that at least {@code n} replicas have received it. Writes sent together share one
   * {@code WAIT} (group commit): a lone write costs one more replication round trip, a busy connection about one
   * {@code WAIT} per round trip, not one per write. Fewer replicas within {@link #getReplicaAckTimeoutMs()}: the write
   * fails with {@link io.tickwheel.core.store.StoreUnavailableException}, {@code mayHaveApplied() == true} (the
   * master applied it; it is not rolled back). While a {@code WAIT} is in Redis, later commands on the connection,
   * reads too, wait behind it. This narrows, but does not close, the window in which a failover to a replica loses
   * acknowledged writes: Redis may still promote a replica that missed a write (see the module README). Default 0
   * (today's behaviour: a write succeeds once the master applied it).
   *
   * @throws IllegalArgumentException naming the field and value when negative
   */
  public RedisStoreOptions setMinReplicasAcked(int minReplicasAcked) {
    if (minReplicasAcked < 0) {
      throw new IllegalArgumentException("minReplicasAcked must be >= 0, was " + minReplicasAcked);
    }
    this.minReplicasAcked = minReplicasAcked;
    return this;
  }

  /** How long one {@code WAIT} waits for the replicas, milliseconds. */
  public long getReplicaAckTimeoutMs() {
    return replicaAckTimeoutMs;
  }

  /**
   * The timeout of every {@code WAIT} (milliseconds, default 1000, at least 1; used only when
   * {@link #getMinReplicasAcked()} is above 0, and then it must be below {@link #getCommandTimeoutMs()}, checked by
   * {@link #validate()} when a store opens). A write waits at most about twice this for its replicas: a {@code WAIT}
   * already in Redis ahead of it, then its own; keep {@code commandTimeoutMs} above twice this, or such a write may
   * time out instead of failing with the replicas' count.
   *
   * @throws IllegalArgumentException naming the field and value when not positive
   */
  public RedisStoreOptions setReplicaAckTimeoutMs(long replicaAckTimeoutMs) {
    if (replicaAckTimeoutMs < 1) {
      throw new IllegalArgumentException("replicaAckTimeoutMs must be >= 1, was " + replicaAckTimeoutMs);
    }
    this.replicaAckTimeoutMs = replicaAckTimeoutMs;
    return this;
  }

  /**
   * Checks what no single setter can: with {@link #getMinReplicasAcked()} above 0, {@code replicaAckTimeoutMs} must
   * be below {@code commandTimeoutMs} (else every write waiting for a missing replica would time out instead of
   * reporting how many replicas acknowledged it). {@link RedisTimerStore#open} and the cluster coordinator call it.
   *
   * @return this
   * @throws IllegalArgumentException naming both fields and their values
   */
  public RedisStoreOptions validate() {
    if (minReplicasAcked > 0 && replicaAckTimeoutMs >= commandTimeoutMs) {
      throw new IllegalArgumentException("replicaAckTimeoutMs must be below commandTimeoutMs when minReplicasAcked is "
          + minReplicasAcked + ", was " + replicaAckTimeoutMs + " (commandTimeoutMs " + commandTimeoutMs + ")");
    }
    return this;
  }

  /** TCP/TLS options for the client, or {@code null} for the defaults. */
  public NetClientOptions getNetClientOptions() {
    return netClientOptions;
  }

  /**
   * TCP/TLS options for the client (e.g. the trust store for {@code rediss://}); the store still sets the connect
   * timeout, TCP keep-alive and no-delay on a copy, and hostname verification {@code HTTPS} unless these options
   * set another algorithm ({@code ""} turns it off). {@code null} = defaults (the JVM's trust store).
   */
  public RedisStoreOptions setNetClientOptions(NetClientOptions netClientOptions) {
    this.netClientOptions = netClientOptions == null ? null : new NetClientOptions(netClientOptions);
    return this;
  }

  /** The options with the password masked. */
  @Override
  public String toString() {
    List<String> masked = new ArrayList<>();
    for (String e : clusterEndpoints) {
      masked.add(RedisUris.mask(e));
    }
    return "RedisStoreOptions{connectionString=" + RedisUris.mask(connectionString) + ", cluster=" + cluster
        + ", clusterEndpoints=" + masked + ", keyPrefix=" + keyPrefix + ", maxPoolSize=" + maxPoolSize
        + ", commandTimeoutMs=" + commandTimeoutMs + ", reconnectBackoffMs=" + reconnectBackoffMs
        + ", maxReconnectBackoffMs=" + maxReconnectBackoffMs + ", connectTimeoutMs=" + connectTimeoutMs
        + ", minReplicasAcked=" + minReplicasAcked + ", replicaAckTimeoutMs=" + replicaAckTimeoutMs + "}";
  }
}
