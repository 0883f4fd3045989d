package io.tickwheel.bench.load.peer;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a peer's blocking client calls (JDBC schedulers have no asynchronous API) on a fixed pool of daemon threads
 * and hands back a {@link CompletionStage}, so the load tool never blocks on them.
 *
 * <p>Memory is bounded: at most {@code queueCapacity} calls wait for a thread. A call beyond that is not queued: its
 * stage fails at once with a {@link RejectedExecutionException} saying so (the load tool bounds its calls in flight;
 * it never sees this unless its window exceeds the capacity). Stages complete on the pool's threads, in no particular
 * order. Thread safe.
 */
final class BlockingCalls implements AutoCloseable {

  private final String name;
  private final int queueCapacity;
  private final ThreadPoolExecutor pool;

  /**
   * @param name          thread-name prefix and the subject of error messages, e.g. {@code "quartz-jdbc-client"}
   * @param threads       threads making calls concurrently, at least 1
   * @param queueCapacity calls that may wait for a thread, at least 1
   */
  BlockingCalls(String name, int threads, int queueCapacity) {
    this.name = name;
    this.queueCapacity = queueCapacity;
    AtomicInteger n = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(queueCapacity), r -> {
          Thread t = new Thread(r, name + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
  }

  /** Runs {@code call} on a pool thread; the stage completes with its result or fails with what it threw. */
  <T> CompletionStage<T> submit(Callable<T> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    try {
      pool.execute(() -> {
        try {
          result.complete(call.call());
        } catch (Throwable t) {
          result.completeExceptionally(t);
        }
      });
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(new RejectedExecutionException(pool.isShutdown()
          ? name + ": closed"
          : name + ": " + queueCapacity + " calls already waiting for a thread; bound the calls in flight", e));
    }
    return result;
  }

  /** Stops taking calls, lets queued calls finish for up to 10 s, then interrupts the rest. */
  @Override
  public void close() throws InterruptedException {
    pool.shutdown();
    if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
      pool.shutdownNow();
    }
  }
}
