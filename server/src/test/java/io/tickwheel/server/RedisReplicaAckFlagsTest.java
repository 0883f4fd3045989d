package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.store.redis.RedisStoreOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --redis-min-replicas-acked} and {@code --redis-replica-ack-timeout-ms}: parsed, checked, passed on. */
class RedisReplicaAckFlagsTest {

  private static ServerConfig parse(Map<String, String> env, String... args) {
    return ServerCli.config(args, env);
  }

  @Test
  void byDefaultWritesDoNotWaitForReplicas() {
    ServerConfig c = parse(Map.of());
    assertThat(c.redisMinReplicasAcked()).isEqualTo(RedisStoreOptions.DEFAULT_MIN_REPLICAS_ACKED).isZero();
    assertThat(c.redisReplicaAckTimeoutMs()).isEqualTo(RedisStoreOptions.DEFAULT_REPLICA_ACK_TIMEOUT_MS);
    assertThat(ServerConfig.defaults().redisMinReplicasAcked()).isZero();
    RedisStoreOptions o = StoreFactory.redisOptions(c);
    assertThat(o.getMinReplicasAcked()).isZero();
  }

  @Test
  void theFlagsAndTheirVariablesReachTheRedisOptionsOfTheStoreAndTheCoordinator() {
    ServerConfig c = parse(Map.of(), "--store", "redis", "--redis", "redis://10.0.0.1:7000,redis://10.0.0.2:7000",
        "--redis-min-replicas-acked", "2", "--redis-replica-ack-timeout-ms", "250");
    assertThat(c.redisMinReplicasAcked()).isEqualTo(2);
    assertThat(c.redisReplicaAckTimeoutMs()).isEqualTo(250);
    RedisStoreOptions o = StoreFactory.redisOptions(c);
    assertThat(o.getMinReplicasAcked()).isEqualTo(2);
    assertThat(o.getReplicaAckTimeoutMs()).isEqualTo(250);
    assertThat(o.isCluster()).isTrue();
    assertThat(o.validate()).isSameAs(o);
    ServerConfig e = parse(Map.of("TICKWHEEL_STORE", "redis", "TICKWHEEL_REDIS_MIN_REPLICAS_ACKED", "1",
        "TICKWHEEL_REDIS_REPLICA_ACK_TIMEOUT_MS", "1_500"));
    assertThat(e.redisMinReplicasAcked()).isEqualTo(1);
    assertThat(e.redisReplicaAckTimeoutMs()).isEqualTo(1500);
    assertThat(e.toString()).contains("redisMinReplicasAcked=1").contains("redisReplicaAckTimeoutMs=1500");
    assertThat(e.withPort(0).redisMinReplicasAcked()).as("kept by with…").isEqualTo(1);
  }

  @Test
  void badValuesAreRefusedNamingTheFlagOrVariableAndTheValue() {
    assertThatThrownBy(() -> parse(Map.of(), "--store", "redis", "--redis-min-replicas-acked", "-1"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("flag --redis-min-replicas-acked must be between 0 and 2147483647, was -1");
    assertThatThrownBy(() -> parse(Map.of(), "--redis-replica-ack-timeout-ms", "0"))
        .hasMessage("flag --redis-replica-ack-timeout-ms must be between 1 and 4999, was 0");
    assertThatThrownBy(() -> parse(Map.of(), "--redis-replica-ack-timeout-ms", "5000"))
        .hasMessage("flag --redis-replica-ack-timeout-ms must be between 1 and 4999, was 5000");
    assertThatThrownBy(() -> parse(Map.of("TICKWHEEL_REDIS_REPLICA_ACK_TIMEOUT_MS", "x")))
        .hasMessageContaining("TICKWHEEL_REDIS_REPLICA_ACK_TIMEOUT_MS").hasMessageContaining("'x'");
    assertThatThrownBy(() -> parse(Map.of(), "--redis-min-replicas-acked", "1"))
        .hasMessage("flag --redis-min-replicas-acked needs --store redis, but the store is 'rocksdb', was 1");
  }

  @Test
  void theHelpListsBothFlagsAndTheirVariables() {
    String usage = ServerCli.usage();
    assertThat(usage).contains("--redis-min-replicas-acked").contains("--redis-replica-ack-timeout-ms")
        .contains("TICKWHEEL_REDIS_MIN_REPLICAS_ACKED").contains("TICKWHEEL_REDIS_REPLICA_ACK_TIMEOUT_MS");
  }
}
