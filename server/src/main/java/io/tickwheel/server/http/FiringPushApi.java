package io.tickwheel.server.http;

import io.tickwheel.server.push.ClusterFiringFeed;
import io.tickwheel.server.push.FiringPush;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.Objects;

/**
 * {@code POST} {@value FiringPush#PATH}: firings another node recorded, pushed to this one
 * ({@link io.tickwheel.server.push.FiringPusher}), handed to this node's feed; 204, or 400 naming what is wrong with
 * the body. Behind the internal route's guards (node header, token, recovery gate). Owner context (the feed's).
 */
public final class FiringPushApi {

  private final ClusterFiringFeed feed;

  public FiringPushApi(ClusterFiringFeed feed) {
    this.feed = Objects.requireNonNull(feed, "feed");
  }

  public void handle(RoutingContext rc) {
    Buffer body = rc.body() == null ? null : rc.body().buffer();
    if (body == null || body.length() == 0) {
      throw ApiException.invalid(null, "a firing push needs a body");
    }
    FiringPush push;
    try {
      push = FiringPush.decode(body, feed.partitions());
    } catch (IllegalArgumentException e) {
      throw ApiException.invalid(null, ErrorResponses.shorten(e.getMessage()));
    }
    feed.onPush(push);
    rc.response().setStatusCode(204).end();
  }
}
