package io.tickwheel.server.http;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code GET /v1/cluster}: {@code {"nodeId","partitions","nodes":[{"id","address","partitions","lastSeenAt"}],
 * "owners":[{"partition","node","epoch"}]}}. A single node (no {@code --cluster}) answers one node owning its one
 * partition ({@link #singleNode}); a cluster node answers from its runtime.
 */
public final class ClusterApi {

  /** The single node's node id in {@code /v1/cluster}. */
  public static final String SINGLE_NODE_ID = "local";

  private ClusterApi() {}

  /**
   * The single node's answer: itself, owning partition 0 (epoch 0), seen now.
   *
   * @param address its URL ({@code http://HOST:PORT}), known once it listens
   * @param clock   epoch ms
   */
  public static Handler<RoutingContext> singleNode(Supplier<String> address, LongSupplier clock) {
    return rc -> {
      JsonObject node = new JsonObject().put("id", SINGLE_NODE_ID).put("address", address.get()).put("partitions", 1)
          .put("lastSeenAt", clock.getAsLong());
      JsonObject body = new JsonObject().put("nodeId", SINGLE_NODE_ID).put("partitions", 1)
          .put("nodes", new JsonArray().add(node))
          .put("owners", new JsonArray().add(new JsonObject().put("partition", 0).put("node", SINGLE_NODE_ID)
              .put("epoch", 0)));
      ErrorResponses.json(rc, 200, body.toBuffer());
    };
  }
}
