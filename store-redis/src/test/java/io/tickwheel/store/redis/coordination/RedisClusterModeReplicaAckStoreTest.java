package io.tickwheel.store.redis.coordination;

import io.tickwheel.store.redis.RedisStoreOptions;

/**
 * The shared store contract against fenced partition stores on a real Redis Cluster (3 masters, 1 replica each) with
 * {@code minReplicasAcked = 1}: every write is a {@code MULTI, write, EXEC, WAIT} batch to its master, and each call
 * answers and fails exactly as without.
 */
class RedisClusterModeReplicaAckStoreTest extends RedisClusterModePartitionStoreContractTest {

  @Override
  RedisStoreOptions options(String prefix) {
    return super.options(prefix).setMinReplicasAcked(1);
  }
}
