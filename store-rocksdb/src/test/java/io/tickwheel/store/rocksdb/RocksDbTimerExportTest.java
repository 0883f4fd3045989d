package io.tickwheel.store.rocksdb;

import io.tickwheel.core.store.TimerExportContract;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The export contract against RocksDB (one point-in-time snapshot). */
class RocksDbTimerExportTest extends TimerExportContract {

  @TempDir
  Path tmp;

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return RocksDbTimerStore.open(vertx, new RocksDbStoreOptions().setDataDir(tmp.resolve("db"))
        .setBlockCacheBytes(8 << 20).setWriteBufferBytes(4 << 20)).toCompletionStage().toCompletableFuture().join();
  }

  @Override
  protected boolean pointInTime() {
    return true;
  }
}
