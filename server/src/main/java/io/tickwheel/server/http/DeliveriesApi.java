package io.tickwheel.server.http;

import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.server.delivery.DeliveryOutcome;
import io.tickwheel.server.delivery.DeliveryService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The {@code /v1/deliveries} handlers: list by state with a cursor, get one, re-queue a dead one. Thin: validate the
 * query, call the {@link DeliveryService}, answer its outcome through {@link OutcomeMapping}. Runs on the owner
 * context.
 */
public final class DeliveriesApi {

  /** Default and largest page. */
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 1000;

  private final DeliveryService deliveries;

  /**
   * @param deliveries the node's delivery service, or {@code null} on a node that delivers no callbacks (a cluster
   *                   node: its parser refuses {@code callback}, so it never holds a delivery; listings are empty and
   *                   an id is not found)
   */
  public DeliveriesApi(DeliveryService deliveries) {
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
    long after = 0;
    String c = rc.request().getParam("cursor");
    if (c != null && !c.isEmpty()) {
      after = c.length() <= 18 && c.chars().allMatch(ch -> ch >= '0' && ch <= '9') ? Long.parseLong(c) : -1;
      if (after < 1) {
        throw ApiException.invalid("cursor", "cursor must be the \"next\" of a previous page, was \""
            + ErrorResponses.shorten(c) + "\"");
      }
    }
    answer(rc, deliveries == null
        ? Future.succeededFuture(new DeliveryOutcome.Listed(new io.tickwheel.core.store.DeliveryPage(java.util.List.of(), -1)))
        : deliveries.list(state, after, limit));
  }

  /** {@code GET /v1/deliveries/{id}}: 200 the delivery, 404. */
  public void get(RoutingContext rc) {
    answer(rc, deliveries == null ? Future.succeededFuture(new DeliveryOutcome.NotFound(rc.pathParam("id")))
        : deliveries.get(rc.pathParam("id")));
  }

  /** {@code POST /v1/deliveries/{id}/retry}: 202 the re-queued delivery; 404; 409 when it is not dead; 429 full. */
  public void retry(RoutingContext rc) {
    answer(rc, deliveries == null ? Future.succeededFuture(new DeliveryOutcome.NotFound(rc.pathParam("id")))
        : deliveries.retry(rc.pathParam("id")));
  }

  private static void answer(RoutingContext rc, Future<DeliveryOutcome> f) {
    f.onComplete(ar -> {
      if (ar.failed()) {
        rc.fail(ar.cause());
        return;
      }
      DeliveryOutcome o = ar.result();
      JsonObject body;
      if (o instanceof DeliveryOutcome.Found found) {
        body = DeliveryJson.api(found.delivery());
      } else if (o instanceof DeliveryOutcome.Requeued r) {
        body = DeliveryJson.api(r.delivery());
      } else if (o instanceof DeliveryOutcome.Listed listed) {
        JsonArray arr = new JsonArray();
        listed.page().items().forEach(d -> arr.add(DeliveryJson.api(d)));
        long next = listed.page().nextAfter();
        body = new JsonObject().put("deliveries", arr).put("next", next < 0 ? null : Long.toString(next));
      } else {
        rc.fail(OutcomeMapping.error(o));
        return;
      }
      ErrorResponses.json(rc, OutcomeMapping.status(o), body.toBuffer());
    });
  }
}
