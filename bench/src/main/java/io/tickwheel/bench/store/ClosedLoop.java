package io.tickwheel.bench.store;

import static io.tickwheel.bench.store.Await.await;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Closed-loop callers for the store measurements: {@code callers} callers, each on an event-loop context of its own,
 * together run operations {@code 0 … n-1}, a caller starting the next one when its previous one completed. For the
 * measurement mains' own threads (it blocks until all are done).
 */
final class ClosedLoop {

  private ClosedLoop() {}

  /**
   * Runs {@code op(i)} for every {@code i < n} from {@code callers} closed-loop callers; the elapsed time, ns.
   *
   * @throws IllegalStateException with the first operation's failure
   */
  static long elapsedNanos(Vertx vertx, int callers, int n, IntFunction<Future<?>> op) {
    AtomicInteger next = new AtomicInteger();
    List<Future<Void>> done = new ArrayList<>(callers);
    long t0 = System.nanoTime();
    for (int c = 0; c < callers; c++) {
      Promise<Void> p = Promise.promise();
      done.add(p.future());
      vertx.getOrCreateContext().runOnContext(v -> loop(next, n, op, p));
    }
    await(Future.all(done));
    return System.nanoTime() - t0;
  }

  private static void loop(AtomicInteger next, int n, IntFunction<Future<?>> op, Promise<Void> p) {
    int i = next.getAndIncrement();
    if (i >= n) {
      p.tryComplete();
      return;
    }
    op.apply(i).onComplete(ar -> {
      if (ar.failed()) {
        p.tryFail(ar.cause());
      } else {
        loop(next, n, op, p);
      }
    });
  }
}
