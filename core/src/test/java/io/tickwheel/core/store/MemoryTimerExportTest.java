package io.tickwheel.core.store;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Vertx;

class MemoryTimerExportTest extends TimerExportContract {

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return new MemoryTimerStore();
  }

  @Override
  protected boolean pointInTime() {
    return true;
  }
}
