package io.tickwheel.store.rocksdb;

import io.vertx.core.Context;
import java.util.concurrent.atomic.LongAdder;

/**
 * Records every RocksDB call made on a Vert.x event-loop thread. The store never makes one by construction
 * (all native calls run on its writer, reader or open/close threads); every native call site calls
 * {@link #check()} first so a test can drive every operation from an event loop and assert the count stays 0.
 * Thread safe.
 */
final class EventLoopGuard {

  private final LongAdder violations = new LongAdder();

  /** Call right before a RocksDB (JNI) call. */
  void check() {
    if (Context.isOnEventLoopThread()) {
      violations.increment();
    }
  }

  /** How many RocksDB calls ran on an event-loop thread so far. */
  long violations() {
    return violations.sum();
  }
}
