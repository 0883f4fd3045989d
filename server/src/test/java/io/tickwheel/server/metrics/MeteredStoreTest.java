package io.tickwheel.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.TimerStore;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredStoreTest {

  /**
   * A default method of the SPI that the wrapper does not override would run against the wrapper, not the store
   * it wraps: a store's own {@code createAll} (RocksDB's skips reading old versions) would silently never be used.
   */
  @Test
  void overridesEveryMethodOfTheStoreInterfaceIncludingTheDefaultOnes() {
    List<String> missing = new ArrayList<>();
    for (Method m : TimerStore.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        MeteredStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).isEmpty();
  }
}
