package io.tickwheel.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Future;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ComposedStoreTest {

  /**
   * A default method of the SPI that the assembly does not forward would run against the assembly, not the part:
   * a store's own {@code createAll} (RocksDB's skips reading old versions) would silently never be used.
   */
  @Test
  void forwardsEveryMethodOfTheStoreInterfaceIncludingTheDefaultOnes() {
    List<String> missing = new ArrayList<>();
    for (Method m : TimerStore.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        ComposedStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void aReplacedPartTakesItsCallsAndTheOtherPartsKeepTheirs() {
    MemoryTimerStore memory = new MemoryTimerStore();
    AtomicInteger seqReads = new AtomicInteger();
    FiringLog counted = new FiringLog() {
      @Override
      public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
        return memory.recordFirings(requests);
      }

      @Override
      public Future<List<io.tickwheel.core.model.Firing>> readFirings(long afterSeq, int limit) {
        return memory.readFirings(afterSeq, limit);
      }

      @Override
      public Future<Long> lastSeq() {
        seqReads.incrementAndGet();
        return Future.succeededFuture(42L);
      }

      @Override
      public Future<Long> trimFirings(Retention retention, long nowMs) {
        return memory.trimFirings(retention, nowMs);
      }
    };
    ComposedStore s = ComposedStore.of(memory).withFiringLog(counted);

    assertThat(s.lastSeq().result()).isEqualTo(42L);
    assertThat(seqReads).hasValue(1);
    assertThat(s.name()).isEqualTo("memory");
    assertThat(s.keepsTimersOnHeap()).isTrue();
    assertThat(s.pausedTopics().result()).isEmpty();
    s.close();
    assertThat(memory.get("x").cause()).isInstanceOf(StoreClosedException.class);
  }

  @Test
  void replacingAPartOfADecoratingSubclassKeepsItsDecoratedCalls() {
    AtomicInteger gets = new AtomicInteger();
    ComposedStore counting = new ComposedStore(ComposedStore.of(new MemoryTimerStore())) {
      @Override
      public Future<io.tickwheel.core.model.Timer> get(String id) {
        gets.incrementAndGet();
        return super.get(id);
      }
    };
    ComposedStore s = counting.withSettings(ComposedStore.of(new MemoryTimerStore()));

    s.get("a");

    assertThat(gets).hasValue(1);
  }
}
