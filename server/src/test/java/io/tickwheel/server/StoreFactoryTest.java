package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.store.redis.RedisStoreOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreFactoryTest {

  @Test
  void oneRedisUrlIsAStandaloneRedis() {
    RedisStoreOptions o = StoreFactory.redisOptions("redis://127.0.0.1:6390");
    assertThat(o.isCluster()).isFalse();
    assertThat(o.getConnectionString()).isEqualTo("redis://127.0.0.1:6390");
  }

  @Test
  void commaSeparatedUrlsAreTheSeedsOfARedisCluster() {
    RedisStoreOptions o = StoreFactory.redisOptions("redis://10.0.0.1:7000, redis://10.0.0.2:7000,redis://10.0.0.3:7000");
    assertThat(o.isCluster()).isTrue();
    assertThat(o.getConnectionString()).isEqualTo("redis://10.0.0.1:7000");
    assertThat(o.getClusterEndpoints()).isEqualTo(List.of("redis://10.0.0.2:7000", "redis://10.0.0.3:7000"));
  }

  @Test
  void aListWithoutAUrlOrABadUrlIsRefusedNamingTheValue() {
    assertThatThrownBy(() -> StoreFactory.redisOptions(" , ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--redis").hasMessageContaining("\" , \"");
    assertThatThrownBy(() -> StoreFactory.redisOptions("redis://a:1,http://b:2"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
