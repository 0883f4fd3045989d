package io.tickwheel.server;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.cluster.ClusterOptions;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.security.TlsOptions;
import io.tickwheel.store.redis.RedisStoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The server's configuration. {@link ServerCli} builds it from the command line and the environment; tests and
 * embedders build it with {@link #defaults()} and the {@code with…} methods.
 *
 * <p>Immutable; the constructor checks every value and throws a {@link ConfigException} whose
 * {@link ConfigException#field() field} is the component's name. {@link #toString()} never shows the token nor a
 * Redis password. Whether a non-loopback {@code host} has a token is checked by {@link ServerCli} (it resolves the
 * name), not here.
 *
 * @param host               interface to bind, non-blank; a non-loopback host requires {@code token}
 * @param port               TCP port, 0..65535; 0 picks a free one
 * @param store              {@code rocksdb}, {@code redis} or {@code memory}
 * @param dataDir            RocksDB directory
 * @param redis              Redis connection string: {@code redis://}, {@code rediss://} or {@code unix://}
 * @param tickMs             wheel tick, milliseconds, 1..{@value #MAX_TICK_MS}
 * @param token              bearer token for /v1 and the WebSocket (1..4096 printable ASCII characters without
 *                           spaces), or {@code null} for none
 * @param fsync              RocksDB: fsync the WAL on every write
 * @param maxPending         most pending timers, 1..{@code Integer.MAX_VALUE}; beyond, creates answer 429
 * @param misfireThresholdMs lateness beyond which a fixed-rate due time counts as missed, milliseconds,
 *                           0..{@code Long.MAX_VALUE / 4}
 * @param logRetentionCount  firing log: how many firings to keep at most, {@code >= 1}
 * @param logRetentionMs     firing log: how long to keep a firing, milliseconds, 0..{@code Long.MAX_VALUE / 4}
 * @param allowedOrigins     browser origins allowed by CORS and the WebSocket Origin check (besides the server's
 *                           own): each {@code *} or {@code http(s)://host[:port]}
 * @param webhooks           callback settings: the secret, which private addresses callbacks may reach
 * @param cluster            the cluster flags ({@link ClusterOptions#none()} for a single node); {@code --cluster}
 *                           needs {@code store} {@code redis}, and a wildcard {@code host} needs {@code --advertise}
 * @param redisMinReplicasAcked    Redis: replicas that must acknowledge every write ({@code WAIT}) before it
 *                                 succeeds, {@code >= 0}; 0 = off; above 0 needs {@code store} {@code redis}
 *                                 ({@link RedisStoreOptions#setMinReplicasAcked})
 * @param redisReplicaAckTimeoutMs Redis: how long each {@code WAIT} waits, milliseconds, 1 to below the store's
 *                                 command timeout ({@link RedisStoreOptions#DEFAULT_COMMAND_TIMEOUT_MS})
 * @param maxConnections     most open HTTP connections (streams included), 1..{@value #MAX_MAX_CONNECTIONS}; a
 *                           request on a connection beyond them is answered 503 and the connection closed
 * @param idleTimeoutMs      a connection that reads and writes nothing for this long is closed, milliseconds,
 *                           {@value #MIN_IDLE_TIMEOUT_MS}..{@value #MAX_TIMEOUT_MS}; event streams and WebSockets get
 *                           a heartbeat at least three times within it
 * @param headerTimeoutMs    a request's headers must have arrived this long after its first byte (after the
 *                           connection opened, for the first request), milliseconds,
 *                           {@value #MIN_TIMEOUT_MS}..{@value #MAX_TIMEOUT_MS}; then 408 and the connection closed
 * @param tls                the TLS flags ({@link TlsOptions#none()} for plain HTTP; {@code null} reads as that); the
 *                           files' contents are checked by {@link ServerCli} and at start, not here
 * @param tokensFile         {@code --tokens-file}: tokens with their roles, re-read when it changes, or {@code null}
 * @param windowMs           {@code --window-ms}: with a store that keeps timers on disk (RocksDB, Redis), how far ahead
 *                           of now the pending timers are kept in memory, milliseconds; later ones stay in the store
 *                           until the window reaches them. {@code 0}: every pending timer in memory; else
 *                           {@value #MIN_WINDOW_MS}..{@value #MAX_WINDOW_MS}. No effect with {@code memory}.
 */
public record ServerConfig(
    String host,
    int port,
    String store,
    Path dataDir,
    String redis,
    long tickMs,
    String token,
    boolean fsync,
    long maxPending,
    long misfireThresholdMs,
    long logRetentionCount,
    long logRetentionMs,
    List<String> allowedOrigins,
    WebhookOptions webhooks,
    ClusterOptions cluster,
    int redisMinReplicasAcked,
    long redisReplicaAckTimeoutMs,
    int maxConnections,
    long idleTimeoutMs,
    long headerTimeoutMs,
    TlsOptions tls,
    Path tokensFile,
    long windowMs) {

  /** Default {@code host}: loopback only. */
  public static final String DEFAULT_HOST = "127.0.0.1";
  /** Default {@code port}. */
  public static final int DEFAULT_PORT = 8080;
  /** Default {@code store}. */
  public static final String DEFAULT_STORE = "rocksdb";
  /** Default {@code dataDir}. */
  public static final String DEFAULT_DATA_DIR = "./data";
  /** Largest {@code tickMs}. */
  public static final long MAX_TICK_MS = 1000;
  /** Longest {@code token}, characters. */
  public static final int MAX_TOKEN_LENGTH = 4096;
  /** Default {@code maxConnections}. */
  public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
  /** Largest {@code maxConnections}. */
  public static final int MAX_MAX_CONNECTIONS = 1_000_000;
  /** Default {@code idleTimeoutMs}: above the 60 s that HTTP clients (Vert.x's among them) keep idle connections. */
  public static final long DEFAULT_IDLE_TIMEOUT_MS = 90_000;
  /** Default {@code headerTimeoutMs}. */
  public static final long DEFAULT_HEADER_TIMEOUT_MS = 10_000;
  /** Shortest {@code idleTimeoutMs}: a third of it is the streams' heartbeat, above the wheel stream's period. */
  public static final long MIN_IDLE_TIMEOUT_MS = 1_000;
  /** Shortest {@code headerTimeoutMs}. */
  public static final long MIN_TIMEOUT_MS = 100;
  /** Longest {@code idleTimeoutMs} and {@code headerTimeoutMs}: a day. */
  public static final long MAX_TIMEOUT_MS = 86_400_000;
  /**
   * Default {@code windowMs}: ten minutes, {@link SchedulerOptions#DEFAULT_WINDOW_MS} (which says why).
   */
  public static final long DEFAULT_WINDOW_MS = SchedulerOptions.DEFAULT_WINDOW_MS;
  /** Shortest {@code windowMs} above 0. */
  public static final long MIN_WINDOW_MS = 1_000;
  /** Longest {@code windowMs}: a day. */
  public static final long MAX_WINDOW_MS = 86_400_000;
  /**
   * Default {@code maxPending} when every pending timer is in memory ({@code memory} store, or {@code windowMs} 0):
   * {@link Limits#DEFAULT_MAX_PENDING_IN_MEMORY}; with a window it is {@link Limits#DEFAULT_MAX_PENDING}.
   */
  public static final long DEFAULT_MAX_PENDING_IN_MEMORY = Limits.DEFAULT_MAX_PENDING_IN_MEMORY;
  /** The store kinds. */
  public static final List<String> STORES = List.of("rocksdb", "redis", "memory");

  private static final Pattern ORIGIN = Pattern.compile("https?://[^/\\s]+");

  public ServerConfig {
    if (tls == null) {
      tls = TlsOptions.none();
    }
    if (host == null || host.isBlank()) {
      throw ConfigException.field("host", "must not be empty");
    }
    range("port", port, 0, 65535);
    if (!STORES.contains(store)) {
      throw ConfigException.field("store", "must be rocksdb, redis or memory, was '" + store + "'");
    }
    if (dataDir == null || dataDir.toString().isBlank()) {
      throw ConfigException.field("dataDir", "must not be empty");
    }
    if (redis == null
        || !redis.startsWith("redis://") && !redis.startsWith("rediss://") && !redis.startsWith("unix://")) {
      throw ConfigException.field("redis", "must be a redis:// or rediss:// URL, was '" + redactUrl(redis) + "'");
    }
    range("tickMs", tickMs, 1, MAX_TICK_MS);
    if (token != null
        && (token.isEmpty() || token.length() > MAX_TOKEN_LENGTH || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
      throw ConfigException.field("token",
          "must be 1.." + MAX_TOKEN_LENGTH + " printable ASCII characters without spaces");
    }
    range("maxPending", maxPending, 1, Integer.MAX_VALUE);
    range("misfireThresholdMs", misfireThresholdMs, 0, Long.MAX_VALUE / 4);
    range("logRetentionCount", logRetentionCount, 1, Long.MAX_VALUE);
    range("logRetentionMs", logRetentionMs, 0, Long.MAX_VALUE / 4);
    if (allowedOrigins == null) {
      throw ConfigException.field("allowedOrigins", "must not be null");
    }
    for (String o : allowedOrigins) {
      if (o == null || !o.equals("*") && !ORIGIN.matcher(o).matches()) {
        throw ConfigException.field("allowedOrigins", "must list origins like http://host:port, was '" + o + "'");
      }
    }
    allowedOrigins = List.copyOf(allowedOrigins);
    if (webhooks == null) {
      throw ConfigException.field("webhookSecret", "webhook options must not be null");
    }
    if (cluster == null) {
      throw ConfigException.field("cluster", "must not be null");
    }
    if (cluster.enabled() && !store.equals("redis")) {
      throw ConfigException.field("cluster", "needs --store redis (the nodes share Redis), but the store is '" + store
          + "'");
    }
    if (cluster.enabled() && cluster.advertise() == null && ClusterOptions.isWildcard(host)) {
      throw new ConfigException("--advertise is required with --cluster when --host is the wildcard '" + host
          + "': set the URL the other nodes reach this one at, e.g. http://10.0.0.5:8080");
    }
    range("redisMinReplicasAcked", redisMinReplicasAcked, 0, Integer.MAX_VALUE);
    range("redisReplicaAckTimeoutMs", redisReplicaAckTimeoutMs, 1, RedisStoreOptions.DEFAULT_COMMAND_TIMEOUT_MS - 1);
    if (redisMinReplicasAcked > 0 && !store.equals("redis")) {
      throw ConfigException.field("redisMinReplicasAcked", "needs --store redis, but the store is '" + store
          + "', was " + redisMinReplicasAcked);
    }
    range("maxConnections", maxConnections, 1, MAX_MAX_CONNECTIONS);
    range("idleTimeoutMs", idleTimeoutMs, MIN_IDLE_TIMEOUT_MS, MAX_TIMEOUT_MS);
    range("headerTimeoutMs", headerTimeoutMs, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
    if (windowMs != 0 && (windowMs < MIN_WINDOW_MS || windowMs > MAX_WINDOW_MS)) {
      throw ConfigException.field("windowMs", "must be 0 (every pending timer in memory) or between " + MIN_WINDOW_MS
          + " and " + MAX_WINDOW_MS + ", was " + windowMs);
    }
  }

  /** A configuration with the default window ({@link #DEFAULT_WINDOW_MS}). */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins, WebhookOptions webhooks, ClusterOptions cluster, int redisMinReplicasAcked,
      long redisReplicaAckTimeoutMs, int maxConnections, long idleTimeoutMs, long headerTimeoutMs, TlsOptions tls,
      Path tokensFile) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked, redisReplicaAckTimeoutMs,
        maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, DEFAULT_WINDOW_MS);
  }

  /** A configuration over plain HTTP without a tokens file. */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins, WebhookOptions webhooks, ClusterOptions cluster, int redisMinReplicasAcked,
      long redisReplicaAckTimeoutMs, int maxConnections, long idleTimeoutMs, long headerTimeoutMs) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked, redisReplicaAckTimeoutMs,
        maxConnections, idleTimeoutMs, headerTimeoutMs, TlsOptions.none(), null);
  }

  /** A configuration with the default connection limits. */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins, WebhookOptions webhooks, ClusterOptions cluster, int redisMinReplicasAcked,
      long redisReplicaAckTimeoutMs) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked, redisReplicaAckTimeoutMs,
        DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_HEADER_TIMEOUT_MS);
  }

  /** A configuration with the given cluster flags and Redis writes not waiting for replicas. */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins, WebhookOptions webhooks, ClusterOptions cluster) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, webhooks, cluster, RedisStoreOptions.DEFAULT_MIN_REPLICAS_ACKED,
        RedisStoreOptions.DEFAULT_REPLICA_ACK_TIMEOUT_MS);
  }

  /** A single-node configuration (no cluster flags). */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins, WebhookOptions webhooks) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, webhooks, ClusterOptions.none());
  }

  /** A configuration with the default callback settings ({@link WebhookOptions#DEFAULTS}). */
  public ServerConfig(String host, int port, String store, Path dataDir, String redis, long tickMs, String token,
      boolean fsync, long maxPending, long misfireThresholdMs, long logRetentionCount, long logRetentionMs,
      List<String> allowedOrigins) {
    this(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs, logRetentionCount,
        logRetentionMs, allowedOrigins, WebhookOptions.DEFAULTS, ClusterOptions.none());
  }

  /**
   * The configuration with every default: the constants above and core's ({@link TimerWheel#DEFAULT_TICK_MS},
   * {@link Limits#DEFAULT_MAX_PENDING}, {@link Schedule#DEFAULT_MISFIRE_THRESHOLD_MS}, {@link Retention#defaults()},
   * {@link RedisStoreOptions#DEFAULT_CONNECTION_STRING}).
   */
  public static ServerConfig defaults() {
    Retention r = Retention.defaults();
    return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_STORE, Path.of(DEFAULT_DATA_DIR),
        RedisStoreOptions.DEFAULT_CONNECTION_STRING, TimerWheel.DEFAULT_TICK_MS, null, false,
        Limits.DEFAULT_MAX_PENDING,
        Schedule.DEFAULT_MISFIRE_THRESHOLD_MS, r.maxCount(), r.maxAgeMs(), List.of());
  }

  private static void range(String field, long n, long min, long max) {
    if (n < min || n > max) {
      throw ConfigException.field(field, "must be between " + min + " and " + max + ", was " + n);
    }
  }

  /** The base URL clients use: {@code http://HOST:PORT}, {@code https://} with TLS (IPv6 literals in brackets). */
  public String url(int actualPort) {
    String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return tls.scheme() + "://" + h + ":" + actualPort;
  }

  /** This configuration on another port (tests use 0). */
  public ServerConfig withPort(int p) {
    return new ServerConfig(host, p, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with another store kind. */
  public ServerConfig withStore(String s) {
    return new ServerConfig(host, port, s, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with another token ({@code null} for none). */
  public ServerConfig withToken(String t) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, t, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with another pending-timer cap. */
  public ServerConfig withMaxPending(long m) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, m, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with other allowed origins. */
  public ServerConfig withAllowedOrigins(List<String> o) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, o, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with other callback settings. */
  public ServerConfig withWebhooks(WebhookOptions w) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, w, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with other cluster flags. */
  public ServerConfig withCluster(ClusterOptions c) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, c,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with another Redis connection string. */
  public ServerConfig withRedis(String r) {
    return new ServerConfig(host, port, store, dataDir, r, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster,
        redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with Redis writes waiting for {@code minReplicasAcked} replicas, {@code timeoutMs} each. */
  public ServerConfig withRedisReplicaAck(int minReplicasAcked, long timeoutMs) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster, minReplicasAcked, timeoutMs,
        maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, windowMs);
  }

  /** This configuration with other connection limits ({@code maxConnections}, the idle and header timeouts). */
  public ServerConfig withConnectionLimits(int max, long idleMs, long headerMs) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked,
        redisReplicaAckTimeoutMs, max, idleMs, headerMs, tls, tokensFile, windowMs);
  }

  /** This configuration with other TLS flags. */
  public ServerConfig withTls(TlsOptions t) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked,
        redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, t, tokensFile, windowMs);
  }

  /** This configuration with another tokens file ({@code null} for none). */
  public ServerConfig withTokensFile(Path f) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked,
        redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, f, windowMs);
  }

  /** This configuration with another window ({@code 0}: every pending timer in memory). */
  public ServerConfig withWindowMs(long w) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, webhooks, cluster, redisMinReplicasAcked,
        redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls, tokensFile, w);
  }

  /** Whether calls need a token ({@code --token} or {@code --tokens-file}). */
  public boolean tokensRequired() {
    return token != null || tokensFile != null;
  }

  @Override
  public String toString() {
    return "ServerConfig[host=" + host + ", port=" + port + ", store=" + store + ", dataDir=" + dataDir
        + ", redis=" + redactUrl(redis) + ", tickMs=" + tickMs + ", token=" + (token == null ? "none" : "set")
        + ", fsync=" + fsync + ", maxPending=" + maxPending + ", misfireThresholdMs=" + misfireThresholdMs
        + ", logRetentionCount=" + logRetentionCount + ", logRetentionMs=" + logRetentionMs
        + ", allowedOrigins=" + allowedOrigins + ", webhooks=" + webhooks + ", cluster=" + cluster
        + ", redisMinReplicasAcked=" + redisMinReplicasAcked + ", redisReplicaAckTimeoutMs=" + redisReplicaAckTimeoutMs
        + ", maxConnections=" + maxConnections + ", idleTimeoutMs=" + idleTimeoutMs
        + ", headerTimeoutMs=" + headerTimeoutMs + ", tls=" + tls + ", tokensFile=" + tokensFile
        + ", windowMs=" + windowMs + "]";
  }

  /** A Redis URL without its password. */
  static String redactUrl(String url) {
    return url == null ? null : url.replaceAll("//[^@/]*@", "//***@");
  }
}
