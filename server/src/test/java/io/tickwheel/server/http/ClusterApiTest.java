package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/cluster} of a single node (no {@code --cluster}): one node owning everything. */
class ClusterApiTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @Test
  void aSingleNodeAnswersOneNodeOwningItsOnePartition() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      long before = System.currentTimeMillis();
      JsonObject c = s.send(GET, "/v1/cluster").bodyAsJsonObject();
      assertThat(c.getString("nodeId")).isEqualTo("local");
      assertThat(c.getInteger("partitions")).isEqualTo(1);
      JsonArray nodes = c.getJsonArray("nodes");
      assertThat(nodes).hasSize(1);
      assertThat(nodes.getJsonObject(0).getString("address")).isEqualTo(s.url());
      assertThat(nodes.getJsonObject(0).getInteger("partitions")).isEqualTo(1);
      assertThat(nodes.getJsonObject(0).getLong("lastSeenAt")).isBetween(before, System.currentTimeMillis());
      assertThat(c.getJsonArray("owners")).containsExactly(
          new JsonObject().put("partition", 0).put("node", "local").put("epoch", 0));
    }
  }
}
