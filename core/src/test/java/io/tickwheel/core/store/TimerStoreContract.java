package io.tickwheel.core.store;

import static io.tickwheel.core.store.StoreFixtures.failure;
import static io.tickwheel.core.store.StoreFixtures.fire;
import static io.tickwheel.core.store.StoreFixtures.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link TimerStore} passes: each part's suite ({@link TimerTableContract},
 * {@link FiringLogContract}, {@link DeliveryTableContract}, {@link StoreSettingsContract}) and the common contract of
 * the whole (context, close). A store's test extends it and says how to open a fresh, empty store and, for a
 * persistent store, how to reopen the same data.
 */
public abstract class TimerStoreContract implements TimerTableContract, FiringLogContract, DeliveryTableContract,
    StoreSettingsContract {

  protected static Vertx vertx;
  protected TimerStore store;

  /** A new, empty store. */
  protected abstract TimerStore createStore(Vertx vertx) throws Exception;

  /**
   * The store over the same data as the last {@link #createStore}, after it was closed; {@code null} for a
   * store that keeps nothing (the durability tests are then skipped).
   */
  protected TimerStore reopenStore(Vertx vertx) throws Exception {
    return null;
  }

  @Override
  public TimerStore store() {
    return store;
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  /**
   * {@link #reopenStore}, or the test is skipped, visibly, for a store that keeps nothing across a close (the
   * closed store is forgotten so that {@code closeStore} does not close it twice).
   */
  @Override
  public TimerStore reopenOrSkip() throws Exception {
    TimerStore reopened = reopenStore(vertx);
    store = reopened;
    Assumptions.assumeTrue(reopened != null, "the store keeps nothing across a close: no durability to check");
    return reopened;
  }

  @Override
  public void forgetStore() {
    store = null;
  }

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    StoreFixtures.await(vertx.close());
  }

  @BeforeEach
  void open() throws Exception {
    store = createStore(vertx);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      await(store.close());
    }
  }
  /** {@link StoreFixtures#await}, for the stores' tests. */
  protected static <T> T await(Future<T> f) {
    return StoreFixtures.await(f);
  }

  // ---- the whole store: context, close ----

  @Test
  public void futuresCompleteOnTheCallingContext() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<List<Boolean>> done = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      List<Boolean> same = Collections.synchronizedList(new ArrayList<>());
      Timer t = timer("ctx", 100);
      store.put(t)
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.get("ctx");
          })
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.recordFirings(List.of(fire(t, 100, null)));
          })
          .compose(x -> {
            same.add(Vertx.currentContext() == ctx);
            return store.readFirings(0, 10);
          })
          .onComplete(ar -> {
            same.add(Vertx.currentContext() == ctx);
            if (ar.failed()) {
              done.completeExceptionally(ar.cause());
            } else {
              done.complete(same);
            }
          });
    });
    assertThat(done.get(30, TimeUnit.SECONDS)).containsOnly(true).hasSize(4);
  }

  @Test
  public void everyCallAfterCloseFailsWithStoreClosedExceptionThatWasNotApplied() {
    Timer t = timer("late", 100);
    await(store.put(t));
    await(store.close());
    List<Future<?>> calls = List.of(store.put(timer("x", 1)), store.putAll(List.of(timer("y", 1))),
        store.createAll(List.of(timer("z", 1))), store.update(t.touched(200), 1),
        store.updateAll(List.of(t.touched(300)), new long[] {1}), store.get("late"),
        store.remove("late"), store.recordFirings(List.of(fire(t, 100, null))), store.list(null, null, 10),
        store.readFirings(0, 10), store.trimFirings(Retention.defaults(), 1000),
        store.loadAll(10, b -> Future.succeededFuture()), store.setTopicPaused("t1", true), store.pausedTopics());
    for (Future<?> f : calls) {
      Throwable e = failure(f);
      assertThat(e).isInstanceOf(StoreClosedException.class);
      assertThat(((StoreException) e).mayHaveApplied()).as("refused before it reached the store").isFalse();
    }
    assertThat(await(store.close())).as("close is idempotent").isNull();
    store = null;
  }
}
