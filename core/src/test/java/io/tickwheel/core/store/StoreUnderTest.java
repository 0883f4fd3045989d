package io.tickwheel.core.store;

import io.vertx.core.Vertx;

/**
 * What a part's contract suite runs against: the open store of the current test, fresh and empty when it starts.
 * Implemented by {@link TimerStoreContract}, which each store's test extends.
 */
public interface StoreUnderTest {

  /** The store of the current test. */
  TimerStore store();

  /** The Vert.x instance the store was opened with. */
  Vertx vertx();

  /**
   * The store over the same data, reopened after the test closed {@link #store()}, and from now on the store of the
   * test; or the test is skipped, visibly, for a store that keeps nothing across a close.
   */
  TimerStore reopenOrSkip() throws Exception;

  /** Forgets the store of the test (it was closed by the test), so it is not closed again after the test. */
  void forgetStore();
}
