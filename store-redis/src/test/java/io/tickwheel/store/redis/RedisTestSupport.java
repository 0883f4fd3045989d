package io.tickwheel.store.redis;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/** Small blocking helpers for tests (test threads only). */
final class RedisTestSupport {

  private RedisTestSupport() {}

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("store call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  /** The failure of {@code f}, which must fail within 30 s. */
  static Throwable failure(Future<?> f) {
    try {
      Object v = f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + v);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  /** Retries {@code call} (50 ms apart) until it succeeds or {@code timeoutMs} pass; returns its value. */
  static <T> T eventually(long timeoutMs, Supplier<Future<T>> call) {
    AtomicReference<T> value = new AtomicReference<>();
    Awaitility.await("a store call succeeding").atMost(Duration.ofMillis(timeoutMs)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
          value.set(call.get().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
          return true;
        });
    return value.get();
  }

  static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":\"" + id + "\"}", 1, due, 0, 1);
  }

  static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1,2,3]", 1, due, 0, 1);
  }
}
