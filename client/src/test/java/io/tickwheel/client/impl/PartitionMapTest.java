package io.tickwheel.client.impl;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The partition map's reading of ids and of {@code GET /v1/cluster}. */
class PartitionMapTest {

  @Test
  void anIdsPartitionIsTheServers() {
    // values of core's Partitions.of(id, 256) and (id, 16)
    Map<String, int[]> expected = Map.of("k-1", new int[] {249, 9}, "k-2", new int[] {95, 15},
        "héllo", new int[] {122, 10}, "😀x", new int[] {44, 12}, "abc-999", new int[] {108, 12});
    expected.forEach((id, p) -> {
      assertThat(PartitionMap.partitionOf(id, 256)).as(id).isEqualTo(p[0]);
      assertThat(PartitionMap.partitionOf(id, 16)).as(id).isEqualTo(p[1]);
    });
  }

  @Test
  void theMapNamesEachPartitionsOwnersAddressAndNothingForAPartitionWithoutOne() {
    JsonObject body = new JsonObject().put("nodeId", "a").put("partitions", 3)
        .put("nodes", new JsonArray().add(new JsonObject().put("id", "a").put("address", "http://h:1/"))
            .add(new JsonObject().put("id", "b").put("address", "http://h:2")))
        .put("owners", new JsonArray().add(new JsonObject().put("partition", 0).put("node", "b").put("epoch", 3))
            .add(new JsonObject().put("partition", 2).put("node", "a").put("epoch", 1)));
    assertThat(PartitionMap.parse(body)).containsExactly("http://h:2", null, "http://h:1");
  }
}
