package io.tickwheel.core.store;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Vertx;

class MemoryTimerStoreTest extends TimerStoreContract {

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return new MemoryTimerStore();
  }
}
