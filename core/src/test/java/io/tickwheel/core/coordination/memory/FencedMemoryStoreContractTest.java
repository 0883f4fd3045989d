package io.tickwheel.core.coordination.memory;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.vertx.core.Vertx;

/** The shared store contract, run against a memory partition store whose lease holds throughout. */
class FencedMemoryStoreContractTest extends TimerStoreContract {

  @Override
  protected TimerStore createStore(Vertx vertx) throws Exception {
    MemoryCoordinator c = new MemoryCoordinator(() -> 1_000L, 4);
    c.join("n1", "http://n1", 4).await();
    Lease l = c.acquire(2, "n1", Long.MAX_VALUE / 2).await();
    return c.partitionStore(2, l.epoch());
  }
}
