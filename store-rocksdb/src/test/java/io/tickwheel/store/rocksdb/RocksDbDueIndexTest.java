package io.tickwheel.store.rocksdb;

import io.tickwheel.core.store.DueIndexContract;
import io.tickwheel.core.store.TimerStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.TopicCount;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The due-index contract against RocksDB on a fresh temporary directory per test. */
class RocksDbDueIndexTest extends DueIndexContract {

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

  @Test
  void aDatabaseWithoutTheCounterIsCountedOnceAtOpen() throws Exception {
    await(store.putAll(List.of(
        new Timer("a", "t", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 1, 10, 0, 1),
        new Timer("b", "t", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 1, 20, 0, 1))));
    await(store.close());
    store = null;
    Db db = Db.open(options());
    try {
      db.db.delete(db.meta, Keys.TIMER_COUNT);    // as a database written before the counter
    } finally {
      db.close();
    }
    store = reopenStore(vertx);
    assertThat(await(((DueIndex) store).timerCount())).isEqualTo(2);
    await(store.remove("a"));
    await(store.close());
    store = reopenStore(vertx);
    assertThat(await(((DueIndex) store).timerCount())).isEqualTo(1);
  }

  @Test
  void aDatabaseWithoutTheTopicAndPausedCountsIsCountedOnceAtOpen() throws Exception {
    Timer a = new Timer("a", "x", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 1, 10, 0, 1);
    await(store.putAll(List.of(a.withPaused(true),
        new Timer("b", "x", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, "{}", 1, 20, 0, 1),
        new Timer("c", "y", Kind.FIXED_RATE, 1, 5, 0, Misfire.FIRE_ALL, null, 1, 30, 0, 1))));
    await(store.close());
    store = null;
    Db db = Db.open(options());
    try {
      // as a database written before the counts, with a stale key a recount must not keep
      db.db.delete(db.meta, Keys.PAUSED_COUNT);
      db.db.delete(db.meta, Keys.topicCount("x"));
      db.db.put(db.meta, Keys.topicCount("gone"), Keys.u64(7));
    } finally {
      db.close();
    }
    store = reopenStore(vertx);
    DueIndex index = (DueIndex) store;
    assertThat(await(index.topicCounts(null, 100))).containsExactly(new TopicCount("x", 2), new TopicCount("y", 1));
    assertThat(await(index.pausedCount())).isEqualTo(1);
    await(store.remove("a"));
    await(store.close());
    store = reopenStore(vertx);
    index = (DueIndex) store;
    assertThat(await(index.topicCounts(null, 100))).containsExactly(new TopicCount("x", 1), new TopicCount("y", 1));
    assertThat(await(index.pausedCount())).isZero();
  }
}
