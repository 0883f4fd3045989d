package io.tickwheel.server.scheduler;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/** Runs a step on a wheel's owner context: at once when already on it, else queued there. */
final class OnOwner {
  private OnOwner() {
  }

  /**
   * Runs {@code r} on {@code owner}.
   *
   * @return completed when {@code r} has run; succeeded at once when the caller is already on {@code owner}
   */
  static Future<Void> run(Context owner, Runnable r) {
    if (Vertx.currentContext() == owner) {
      r.run();
      return Future.succeededFuture();
    }
    Promise<Void> p = Promise.promise();
    owner.runOnContext(v -> {
      r.run();
      p.complete();
    });
    return p.future();
  }
}
