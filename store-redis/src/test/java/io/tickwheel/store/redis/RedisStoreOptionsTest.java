package io.tickwheel.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Every setter refuses a bad value at once, naming the field and the value (a password masked); needs no Redis. */
class RedisStoreOptionsTest {

  @Test
  void theDefaultsAreTheNamedConstants() {
    RedisStoreOptions o = new RedisStoreOptions();
    assertThat(o.getConnectionString()).isEqualTo(RedisStoreOptions.DEFAULT_CONNECTION_STRING)
        .isEqualTo("redis://127.0.0.1:6379");
    assertThat(o.getKeyPrefix()).isEqualTo(RedisStoreOptions.DEFAULT_KEY_PREFIX);
    assertThat(o.getMaxPoolSize()).isEqualTo(RedisStoreOptions.DEFAULT_MAX_POOL_SIZE).isEqualTo(8);
    assertThat(o.getCommandTimeoutMs()).isEqualTo(RedisStoreOptions.DEFAULT_COMMAND_TIMEOUT_MS).isEqualTo(5000);
    assertThat(o.getReconnectBackoffMs()).isEqualTo(RedisStoreOptions.DEFAULT_RECONNECT_BACKOFF_MS).isEqualTo(100);
    assertThat(o.getMaxReconnectBackoffMs()).isEqualTo(RedisStoreOptions.DEFAULT_MAX_RECONNECT_BACKOFF_MS);
    assertThat(o.getConnectTimeoutMs()).isEqualTo(RedisStoreOptions.DEFAULT_CONNECT_TIMEOUT_MS).isEqualTo(2000);
    assertThat(o.isCluster()).isFalse();
    assertThat(o.getClusterEndpoints()).isEmpty();
    assertThat(o.getMinReplicasAcked()).isEqualTo(RedisStoreOptions.DEFAULT_MIN_REPLICAS_ACKED).isZero();
    assertThat(o.getReplicaAckTimeoutMs()).isEqualTo(RedisStoreOptions.DEFAULT_REPLICA_ACK_TIMEOUT_MS)
        .isEqualTo(1000);
  }

  @Test
  void everyBadValueIsRefusedNamingTheFieldAndValue() {
    refused(o -> o.setMaxPoolSize(0), "maxPoolSize", "0");
    refused(o -> o.setCommandTimeoutMs(0), "commandTimeoutMs", "0");
    refused(o -> o.setReconnectBackoffMs(-1), "reconnectBackoffMs", "-1");
    refused(o -> o.setMaxReconnectBackoffMs(0), "maxReconnectBackoffMs", "0");
    refused(o -> o.setConnectTimeoutMs(1L << 31), "connectTimeoutMs", String.valueOf(1L << 31));
    refused(o -> o.setKeyPrefix("has space"), "keyPrefix", "has space");
    refused(o -> o.setConnectionString("http://127.0.0.1:6379"), "connectionString", "http://127.0.0.1:6379");
    refused(o -> o.setClusterEndpoints(List.of("redis://127.0.0.1:7000", "tcp://x:1")), "clusterEndpoints", "tcp://x:1");
    refused(o -> o.addClusterEndpoint("nohost"), "clusterEndpoints", "nohost");
    refused(o -> o.setMinReplicasAcked(-1), "minReplicasAcked", "-1");
    refused(o -> o.setReplicaAckTimeoutMs(0), "replicaAckTimeoutMs", "0");
    refused(o -> o.setReplicaAckTimeoutMs(-5), "replicaAckTimeoutMs", "-5");
  }

  @Test
  void aReplicaAckTimeoutNotBelowTheCommandTimeoutIsRefusedOnlyWhenAcknowledgementIsOn() {
    RedisStoreOptions o = new RedisStoreOptions().setCommandTimeoutMs(1000).setReplicaAckTimeoutMs(1000);
    assertThat(o.validate()).as("off: the ack timeout is not used").isSameAs(o);
    o.setMinReplicasAcked(1);
    assertThatThrownBy(o::validate).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replicaAckTimeoutMs").hasMessageContaining("1000")
        .hasMessageContaining("commandTimeoutMs").hasMessageContaining("minReplicasAcked");
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      assertThatThrownBy(() -> RedisTimerStore.open(vertx, o))
          .as("a store does not open with them").isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("replicaAckTimeoutMs");
    } finally {
      vertx.close();
    }
    assertThat(o.setReplicaAckTimeoutMs(999).validate()).isSameAs(o);
  }

  @Test
  void theReplicaAckOptionsAreCopiedAndShown() {
    RedisStoreOptions a = new RedisStoreOptions().setMinReplicasAcked(2).setReplicaAckTimeoutMs(250);
    RedisStoreOptions b = new RedisStoreOptions(a);
    a.setMinReplicasAcked(0).setReplicaAckTimeoutMs(900);
    assertThat(b.getMinReplicasAcked()).isEqualTo(2);
    assertThat(b.getReplicaAckTimeoutMs()).isEqualTo(250);
    assertThat(b.toString()).contains("minReplicasAcked=2").contains("replicaAckTimeoutMs=250");
  }

  @Test
  void aRefusedConnectionStringNeverShowsItsPassword() {
    assertThatThrownBy(() -> new RedisStoreOptions().setConnectionString("http://:hunter2@127.0.0.1:6379"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connectionString")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void aCopyIsIndependentOfItsOriginal() {
    RedisStoreOptions a = new RedisStoreOptions().setMaxPoolSize(3).addClusterEndpoint("redis://127.0.0.1:7000");
    RedisStoreOptions b = new RedisStoreOptions(a);
    a.setMaxPoolSize(4).addClusterEndpoint("redis://127.0.0.1:7001");
    assertThat(b.getMaxPoolSize()).isEqualTo(3);
    assertThat(b.getClusterEndpoints()).containsExactly("redis://127.0.0.1:7000");
  }

  private static void refused(Consumer<RedisStoreOptions> set, String field, String value) {
    assertThatThrownBy(() -> set.accept(new RedisStoreOptions()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field).hasMessageContaining(value);
  }
}
