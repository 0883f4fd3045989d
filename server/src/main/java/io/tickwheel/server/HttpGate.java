package io.tickwheel.server;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;

/**
 * The server's request handler from the moment it listens: 503 with {@code Retry-After: 1} until the node's routes
 * are {@link #open opened} (they are built once the port is known: a node's id and address name it), then the routes.
 * Owner context only.
 */
final class HttpGate implements Handler<HttpServerRequest> {

  private Router routes;

  /** From now on every request goes to {@code routes}. */
  void open(Router routes) {
    this.routes = routes;
  }

  @Override
  public void handle(HttpServerRequest req) {
    Router r = routes;
    if (r != null) {
      r.handle(req);
    } else {
      req.response().setStatusCode(503).putHeader("Retry-After", "1").end();
    }
  }
}
