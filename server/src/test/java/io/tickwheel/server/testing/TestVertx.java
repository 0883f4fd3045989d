package io.tickwheel.server.testing;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Vert.x instances for tests, with the blocked-thread check every 100 ms and Vert.x's default limit of 2 s on an
 * event loop raised to 3 s (a stack trace is logged from 2 s): a tighter limit trips on mere CPU starvation when the
 * shared 2-core machine is loaded (load averages near 20 were seen), while real blocking (a synchronous store call,
 * a sleep, an unbounded turn) still fails the test.
 */
public final class TestVertx {

  static {
    System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.JULLogDelegateFactory");
  }

  private TestVertx() {}

  public static Vertx create() {
    return Vertx.vertx(new VertxOptions()
        .setBlockedThreadCheckInterval(100)
        .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
        .setMaxEventLoopExecuteTime(3000)
        .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
        .setWarningExceptionTime(2000)
        .setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
  }

  /** Runs {@code body} on {@code ctx} and waits (at most 30 s) for the future it returns. */
  public static <T> T on(Context ctx, Supplier<Future<T>> body) {
    CompletableFuture<T> cf = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      try {
        body.get().onComplete(ar -> {
          if (ar.succeeded()) {
            cf.complete(ar.result());
          } else {
            cf.completeExceptionally(ar.cause());
          }
        });
      } catch (Throwable t) {
        cf.completeExceptionally(t);
      }
    });
    try {
      return cf.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new AssertionError(e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Waits for a future from any thread. */
  public static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new AssertionError(e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  public static void close(Vertx vertx) {
    if (vertx != null) {
      await(vertx.close());
    }
  }
}
