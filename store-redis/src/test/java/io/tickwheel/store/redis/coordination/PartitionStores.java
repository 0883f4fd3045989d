package io.tickwheel.store.redis.coordination;

import static io.tickwheel.core.store.StoreFixtures.await;

import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Fenced partition stores for the store contract suites: each is one partition's store of a new
 * {@link RedisClusterCoordinator} that joined as node {@code n1}, its lease held for an hour, so every write goes
 * through the fence check and passes; a reopened store is the same partition at the same epoch through another
 * coordinator. Test threads only.
 */
final class PartitionStores {

  private final Function<String, RedisStoreOptions> options;
  private final int partitions;
  private final List<RedisClusterCoordinator> coordinators = new ArrayList<>();
  private String prefix;
  private int partition;
  private long epoch;

  /**
   * @param options    the coordinators' options for a key prefix (asked for each coordinator)
   * @param partitions the cluster's partition count
   */
  PartitionStores(Function<String, RedisStoreOptions> options, int partitions) {
    this.options = options;
    this.partitions = partitions;
  }

  /**
   * Partition {@code partition}'s store under {@code prefix}, its counts read once first, as a node reads them when it
   * takes a partition, so later count reads see what the scripts kept rather than a recount of the stored timers.
   */
  TimerStore create(Vertx vertx, String prefix, int partition) {
    this.prefix = prefix;
    this.partition = partition;
    RedisClusterCoordinator c = coordinator(vertx);
    epoch = await(c.acquire(partition, "n1", 3_600_000)).epoch();
    TimerStore s = c.partitionStore(partition, epoch);
    await(((DueIndex) s).pausedCount());
    return s;
  }

  /** The last created store's partition, at its epoch, through a new coordinator. */
  TimerStore reopen(Vertx vertx) {
    return coordinator(vertx).partitionStore(partition, epoch);
  }

  /** Closes every coordinator opened so far. */
  void close() {
    for (RedisClusterCoordinator c : coordinators) {
      await(c.close());
    }
    coordinators.clear();
  }

  private RedisClusterCoordinator coordinator(Vertx vertx) {
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx, options.apply(prefix)));
    coordinators.add(c);
    await(c.join("n1", "http://n1", partitions));
    return c;
  }
}
