package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.server.ConfigException;
import io.tickwheel.server.ServerCli;
import io.tickwheel.server.ServerConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterFlagsTest {

  static ServerConfig parse(Map<String, String> env, String... args) {
    return ServerCli.config(args, env);
  }

  @Test
  void withoutClusterFlagsTheNodeIsASingleNodeWithTheDefaults() {
    ClusterOptions c = parse(Map.of()).cluster();
    assertThat(c.enabled()).isFalse();
    assertThat(c.partitions()).isEqualTo(256);
    assertThat(c.leaseMs()).isEqualTo(6000);
    assertThat(c.nodeId()).isNull();
    assertThat(c.advertise()).isNull();
  }

  @Test
  void everyClusterFlagIsParsedAndReadsItsVariable() {
    ClusterOptions c = parse(Map.of(), "--store", "redis", "--cluster", "--node-id", "n-1", "--advertise",
        "http://10.0.0.5:8080/", "--partitions", "64", "--lease-ms", "3000").cluster();
    assertThat(c).isEqualTo(new ClusterOptions(true, "n-1", "http://10.0.0.5:8080", 64, 3000));
    ClusterOptions e = parse(Map.of("TICKWHEEL_STORE", "redis", "TICKWHEEL_CLUSTER", "yes", "TICKWHEEL_NODE_ID", "b",
        "TICKWHEEL_PARTITIONS", "8", "TICKWHEEL_LEASE_MS", "2000", "TICKWHEEL_ADVERTISE", "http://h:1")).cluster();
    assertThat(e).isEqualTo(new ClusterOptions(true, "b", "http://h:1", 8, 2000));
  }

  @Test
  void clusterNeedsTheRedisStore() {
    assertThatThrownBy(() -> parse(Map.of(), "--store", "rocksdb", "--cluster")).isInstanceOf(ConfigException.class)
        .hasMessage("flag --cluster needs --store redis (the nodes share Redis), but the store is 'rocksdb'");
  }

  @Test
  void aWildcardHostNeedsAnAdvertisedAddress() {
    assertThatThrownBy(() -> parse(Map.of(), "--store", "redis", "--cluster", "--host", "0.0.0.0", "--token", "t"))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("--advertise is required with --cluster when --host "
            + "is the wildcard '0.0.0.0'");
    assertThat(parse(Map.of(), "--store", "redis", "--cluster", "--host", "0.0.0.0", "--token", "t", "--advertise",
        "http://10.0.0.5:8080").cluster().advertise()).isEqualTo("http://10.0.0.5:8080");
  }

  @Test
  void badClusterValuesAreRefusedNamingTheFlagAndTheValue() {
    assertThatThrownBy(() -> parse(Map.of(), "--partitions", "0")).hasMessage(
        "flag --partitions must be between 1 and 4096, was 0");
    assertThatThrownBy(() -> parse(Map.of(), "--partitions", "4097")).hasMessage(
        "flag --partitions must be between 1 and 4096, was 4097");
    assertThatThrownBy(() -> parse(Map.of(), "--lease-ms", "999")).hasMessage(
        "flag --lease-ms must be between 1000 and 300000 (renewed every lease/4), was 999");
    assertThatThrownBy(() -> parse(Map.of("TICKWHEEL_LEASE_MS", "400000"))).hasMessage(
        "environment variable TICKWHEEL_LEASE_MS must be between 1000 and 300000 (renewed every lease/4), was 400000");
    assertThatThrownBy(() -> parse(Map.of(), "--node-id", "a b")).hasMessage(
        "flag --node-id must be 1..64 letters, digits, '.', '_' or '-', was 'a b'");
    assertThatThrownBy(() -> parse(Map.of(), "--advertise", "10.0.0.5:8080")).hasMessage(
        "flag --advertise must be a base URL like http://10.0.0.5:8080, was '10.0.0.5:8080'");
  }

  @Test
  void theDefaultNodeIdIsTheHostNameAndPortSoARestartKeepsIt() {
    ClusterOptions c = ClusterOptions.none();
    String id = c.nodeIdFor(8080);
    assertThat(id).endsWith("-8080").matches("[A-Za-z0-9._-]{1,64}");
    assertThat(c.nodeIdFor(8080)).isEqualTo(id);
    assertThat(c.withNodeId("x").nodeIdFor(8080)).isEqualTo("x");
  }

  @Test
  void theHelpListsTheClusterFlagsAndTheirVariables() {
    String usage = ServerCli.usage();
    for (String f : new String[] {"--cluster", "--node-id", "--advertise", "--partitions", "--lease-ms",
        "TICKWHEEL_CLUSTER", "TICKWHEEL_NODE_ID", "TICKWHEEL_ADVERTISE", "TICKWHEEL_PARTITIONS", "TICKWHEEL_LEASE_MS"}) {
      assertThat(usage).contains(f);
    }
  }
}
