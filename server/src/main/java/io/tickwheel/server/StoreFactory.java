package io.tickwheel.server;

import io.tickwheel.core.cluster.ClusterCoordinator;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.cluster.RedisClusterCoordinator;
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
    return RedisClusterCoordinator.open(vertx, new RedisStoreOptions().setConnectionString(cfg.redis()))
        .map(c -> (ClusterCoordinator) c);
  }

  /** Opens the configured store; the future completes on the caller's context. */
  public static Future<TimerStore> open(Vertx vertx, ServerConfig cfg) {
    return switch (cfg.store()) {
      case "memory" -> Future.succeededFuture(new MemoryTimerStore());
      case "rocksdb" -> RocksDbTimerStore.open(vertx,
          new RocksDbStoreOptions().setDataDir(cfg.dataDir()).setFsync(cfg.fsync())).map(s -> (TimerStore) s);
      case "redis" -> RedisTimerStore.open(vertx,
          new RedisStoreOptions().setConnectionString(cfg.redis())).map(s -> (TimerStore) s);
      default -> Future.failedFuture(new ConfigException("unknown store '" + cfg.store() + "'"));
    };
  }
}
