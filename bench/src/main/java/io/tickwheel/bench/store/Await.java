package io.tickwheel.bench.store;

import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Blocking wait for a store call, for the measurement mains' own threads (never an event loop). */
final class Await {

  private Await() {}

  /** The value of {@code f}, waiting at most 10 minutes (a bulk load of millions of timers on a busy machine). */
  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      throw new IllegalStateException("store call failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("store call did not complete within 10 minutes", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
