package io.tickwheel.core.store;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Vertx;

class MemoryDueIndexTest extends DueIndexContract {

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return new MemoryTimerStore();
  }
}
