package io.tickwheel.server;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Opens the store {@code --store} names, configured from the {@link ServerConfig}. Stateless. */
public final class StoreFactory {

  private StoreFactory() {}

  /** Opens the cluster's coordinator on the Redis {@code --redis} names ({@code --cluster}). */
  public static Future<ClusterCoordinator> openCoordinator(Vertx vertx, ServerConfig cfg) {
    return RedisClusterCoordinator.open(vertx, redisOptions(cfg))
        .map(c -> (ClusterCoordinator) c);
  }

  /**
   * The Redis options {@code --redis} names: one URL is a standalone Redis; two or more, comma-separated, are seed
   * nodes of a Redis Cluster (the client discovers the slots from them).
   *
   * @throws IllegalArgumentException naming {@code --redis} for a list without a URL, or a URL that is not
   *     {@code redis://} or {@code rediss://}
   */
  public static RedisStoreOptions redisOptions(String redis) {
    java.util.List<String> seeds = java.util.Arrays.stream(redis.split(",")).map(String::trim)
        .filter(u -> !u.isEmpty()).toList();
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("--redis must name a Redis URL, or two or more comma-separated seed URLs of a"
          + " Redis Cluster, was \"" + redis + "\"");
    }
    RedisStoreOptions o = new RedisStoreOptions().setConnectionString(seeds.get(0));
    if (seeds.size() > 1) {
      o.setCluster(true).setClusterEndpoints(seeds.subList(1, seeds.size()));
    }
    return o;
  }

  /**
   * The Redis options of {@code cfg}: {@link #redisOptions(String) redisOptions(cfg.redis())} with its replica
   * acknowledgement ({@code --redis-min-replicas-acked}, {@code --redis-replica-ack-timeout-ms}) and, with
   * {@code --tls-ca}, that CA as what a {@code rediss://} Redis is verified against. The store and the cluster
   * coordinator both open with these.
   */
  public static RedisStoreOptions redisOptions(ServerConfig cfg) {
    RedisStoreOptions o = redisOptions(cfg.redis()).setMinReplicasAcked(cfg.redisMinReplicasAcked())
        .setReplicaAckTimeoutMs(cfg.redisReplicaAckTimeoutMs());
    if (cfg.tls().ca() != null) {
      // rediss:// verifies Redis against --tls-ca too (the host name as well), instead of the JVM's trust store
      o.setNetClientOptions(new io.vertx.core.net.NetClientOptions()
          .setTrustOptions(new io.vertx.core.net.PemTrustOptions().addCertPath(cfg.tls().ca().toString())));
    }
    return o;
  }

  /** Opens the configured store; the future completes on the caller's context. */
  public static Future<TimerStore> open(Vertx vertx, ServerConfig cfg) {
    return switch (cfg.store()) {
      case "memory" -> Future.succeededFuture(new MemoryTimerStore());
      case "rocksdb" -> RocksDbTimerStore.open(vertx,
          new RocksDbStoreOptions().setDataDir(cfg.dataDir()).setFsync(cfg.fsync())).map(s -> (TimerStore) s);
      case "redis" -> RedisTimerStore.open(vertx, redisOptions(cfg)).map(s -> (TimerStore) s);
      default -> Future.failedFuture(new ConfigException("unknown store '" + cfg.store() + "'"));
    };
  }
}
