package io.tickwheel.server.http;

import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.dispatch.Deliveries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The {@code /v1/deliveries} handlers: list by state with a cursor, get one, re-queue a dead one. Thin: validate the
 * query, call the node's {@link Deliveries}, answer its outcome through {@link OutcomeMapping}. Runs on the owner
 * context.
 */
public final class DeliveriesApi {

  /** Default and largest page. */
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 1000;

  private final Deliveries deliveries;

  /** @param deliveries the node's deliveries: a single node's service, or a cluster node's view of every partition */
  public DeliveriesApi(Deliveries deliveries) {
    this.deliveries = deliveries;
  }

  /**
   * {@code GET /v1/deliveries?state=&limit=&cursor=}: {@code {"deliveries":[…],"next"}} in id (firing) order;
   * {@code next} is the cursor of the next page, {@code null} on the last.
   */
  public void list(RoutingContext rc) {
    String s = rc.request().getParam("state");
    DeliveryState state = null;
    if (s != null && !s.isEmpty()) {
      state = DeliveryState.ofWire(s);
      if (state == null) {
        throw ApiException.invalid("state", "state must be pending, succeeded or dead, was \""
            + ErrorResponses.shorten(s) + "\"");
      }
    }
    int limit = DEFAULT_LIMIT;
    String l = rc.request().getParam("limit");
    if (l != null) {
      try {
        limit = Integer.parseInt(l);
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > MAX_LIMIT) {
        throw ApiException.invalid("limit", "limit must be an integer between 1 and " + MAX_LIMIT + ", was \""
            + ErrorResponses.shorten(l) + "\"");
      }
    }
    String c = rc.request().getParam("cursor");
    if (c != null && c.isEmpty()) {
      c = null;
    }
    if (c != null && !deliveries.validCursor(c)) {
      throw ApiException.invalid("cursor", "cursor must be the \"next\" of a previous page, was \""
          + ErrorResponses.shorten(c) + "\"");
    }
    answer(rc, deliveries.list(state, c, limit));
  }

  /** {@code GET /v1/deliveries/{id}}: 200 the delivery, 404. */
  public void get(RoutingContext rc) {
    answer(rc, deliveries.get(rc.pathParam("id")));
  }

  /** {@code POST /v1/deliveries/{id}/retry}: 202 the re-queued delivery; 404; 409 when it is not dead; 429 full. */
  public void retry(RoutingContext rc) {
    answer(rc, deliveries.retry(rc.pathParam("id")));
  }

  private static void answer(RoutingContext rc, Future<DeliveryOutcome> f) {
    Replies.settle(rc, f, o -> {
      JsonObject body;
      if (o instanceof DeliveryOutcome.Found found) {
        body = DeliveryJson.api(found.delivery(), found.id());
      } else if (o instanceof DeliveryOutcome.Requeued r) {
        body = DeliveryJson.api(r.delivery(), r.id());
      } else if (o instanceof DeliveryOutcome.Listed listed) {
        JsonArray arr = new JsonArray();
        for (int i = 0; i < listed.deliveries().size(); i++) {
          arr.add(DeliveryJson.api(listed.deliveries().get(i), listed.ids().get(i)));
        }
        body = new JsonObject().put("deliveries", arr).put("next", listed.next());
      } else {
        rc.fail(OutcomeMapping.error(o));
        return;
      }
      Replies.json(rc, OutcomeMapping.status(o), body.toBuffer());
    });
  }
}
