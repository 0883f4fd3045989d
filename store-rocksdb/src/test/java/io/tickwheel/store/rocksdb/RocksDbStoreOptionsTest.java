package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Every setter refuses a bad value at once, naming the field and the value; needs no database. */
class RocksDbStoreOptionsTest {

  @Test
  void theDefaultsAreTheNamedConstants() {
    RocksDbStoreOptions o = new RocksDbStoreOptions();
    assertThat(o.getBlockCacheBytes()).isEqualTo(RocksDbStoreOptions.DEFAULT_BLOCK_CACHE_BYTES).isEqualTo(64L << 20);
    assertThat(o.getWriteBufferBytes()).isEqualTo(RocksDbStoreOptions.DEFAULT_WRITE_BUFFER_BYTES);
    assertThat(o.getMaxGroupOps()).isEqualTo(RocksDbStoreOptions.DEFAULT_MAX_GROUP_OPS);
    assertThat(o.getMaxQueuedWrites()).isEqualTo(RocksDbStoreOptions.DEFAULT_MAX_QUEUED_WRITES);
    assertThat(o.getMaxQueuedReads()).isEqualTo(RocksDbStoreOptions.DEFAULT_MAX_QUEUED_READS);
    assertThat(o.getReaderThreads()).isEqualTo(RocksDbStoreOptions.DEFAULT_READER_THREADS);
    assertThat(o.getMaxOpenFiles()).isEqualTo(RocksDbStoreOptions.DEFAULT_MAX_OPEN_FILES);
    assertThat(o.getTrimMaxScan()).isEqualTo(RocksDbStoreOptions.DEFAULT_TRIM_MAX_SCAN);
    assertThat(o.getRecentTimers()).isEqualTo(RocksDbStoreOptions.DEFAULT_RECENT_TIMERS).isEqualTo(131_072);
    assertThat(o.getRecentTimersBytes()).isEqualTo(RocksDbStoreOptions.DEFAULT_RECENT_TIMERS_BYTES)
        .isEqualTo(64L << 20);
    assertThat(o.getRecentTimersHorizonMs()).isEqualTo(RocksDbStoreOptions.DEFAULT_RECENT_TIMERS_HORIZON_MS)
        .isEqualTo(600_000);
    assertThat(o.isFsync()).isFalse();
  }

  @Test
  void everyBadValueIsRefusedNamingTheFieldAndValue() {
    refused(o -> o.setBlockCacheBytes(-1), "blockCacheBytes", "-1");
    refused(o -> o.setWriteBufferBytes(1023), "writeBufferBytes", "1023");
    refused(o -> o.setMaxGroupOps(0), "maxGroupOps", "0");
    refused(o -> o.setMaxQueuedWrites(0), "maxQueuedWrites", "0");
    refused(o -> o.setMaxQueuedReads(-3), "maxQueuedReads", "-3");
    refused(o -> o.setReaderThreads(0), "readerThreads", "0");
    refused(o -> o.setMaxOpenFiles(15), "maxOpenFiles", "15");
    refused(o -> o.setTrimMaxScan(0), "trimMaxScan", "0");
    refused(o -> o.setRecentTimers(-1), "recentTimers", "-1");
    refused(o -> o.setRecentTimersBytes(-5), "recentTimersBytes", "-5");
    refused(o -> o.setRecentTimersHorizonMs(-1), "recentTimersHorizonMs", "-1");
    assertThatThrownBy(() -> new RocksDbStoreOptions().setDataDir(null)).hasMessageContaining("dataDir");
  }

  @Test
  void aRefusedValueLeavesTheOptionsAsTheyWere() {
    RocksDbStoreOptions o = new RocksDbStoreOptions().setMaxGroupOps(7);
    assertThatThrownBy(() -> o.setMaxGroupOps(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(o.getMaxGroupOps()).isEqualTo(7);
    assertThat(new RocksDbStoreOptions().setMaxOpenFiles(-1).getMaxOpenFiles()).isEqualTo(-1);
  }

  private static void refused(Consumer<RocksDbStoreOptions> set, String field, String value) {
    assertThatThrownBy(() -> set.accept(new RocksDbStoreOptions()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field).hasMessageContaining(value);
  }
}
