package io.tickwheel.server.http;

import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.json.JsonObject;
import java.util.function.IntSupplier;

/**
 * What the edge asks the node behind it: whether it serves {@code /v1} yet (the recovery gate) and the
 * {@code GET /health} body once it does. Owner context only.
 */
public interface NodeStatus {

  /** Whether the node serves: recovered (single node) or joined (cluster node). Until then {@code /v1} answers 503. */
  boolean ready();

  /** The {@code GET /health} body while {@link #ready()}: {@code "status":"up"} and the node's figures. */
  JsonObject health();

  /**
   * A node of one scheduler: ready once it recovered; health {@code status, store, pending, firedTotal,
   * subscribers, tickMs, uptimeMs}.
   *
   * @param startedAtMs when the node started, epoch ms (on the scheduler's clock)
   */
  static NodeStatus of(Scheduler scheduler, IntSupplier subscribers, long startedAtMs) {
    return new NodeStatus() {
      @Override
      public boolean ready() {
        return scheduler.ready();
      }

      @Override
      public JsonObject health() {
        return new JsonObject()
            .put("status", "up")
            .put("store", scheduler.storeName())
            .put("pending", scheduler.pending())
            .put("firedTotal", scheduler.publishedTotal())
            .put("subscribers", subscribers.getAsInt())
            .put("tickMs", scheduler.tickMs())
            .put("uptimeMs", scheduler.now() - startedAtMs);
      }
    };
  }
}
