package io.tickwheel.server.http;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * {@code GET /v1/cluster}: {@code {"nodeId","partitions","nodes":[{"id","address","partitions","lastSeenAt"}],
 * "owners":[{"partition","node","epoch"}]}}, as the node's ownership describes it (a single node: itself, owning its
 * one partition; a cluster node: from its leases).
 */
public final class ClusterApi {

  private ClusterApi() {}

  /** The handler answering {@code describe}'s body with 200. */
  public static Handler<RoutingContext> of(Supplier<JsonObject> describe) {
    return rc -> ErrorResponses.json(rc, 200, describe.get().toBuffer());
  }
}
