package io.tickwheel.store.rocksdb;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shared store contract against RocksDB on a fresh temporary directory per test. */
class RocksDbTimerStoreTest extends TimerStoreContract {

  @TempDir
  Path tmp;

  private RocksDbStoreOptions options() {
    return new RocksDbStoreOptions().setDataDir(tmp.resolve("db")).setBlockCacheBytes(8 << 20)
        .setWriteBufferBytes(4 << 20);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return await(RocksDbTimerStore.open(vertx, options()));
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return await(RocksDbTimerStore.open(vertx, options()));
  }
}
