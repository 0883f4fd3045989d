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
   * A call of the SPI that the wrapper neither meters nor lists as unmetered would be forwarded without a series:
   * a new store method would silently never show in {@code tickwheel_store_op_seconds}.
   */
  @Test
  void metersEveryMethodOfTheStoreInterfaceButTheListedUnmeteredOnes() {
    List<String> missing = new ArrayList<>();
    for (Method m : TimerStore.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || MeteredStore.UNMETERED.contains(m.getName())) {
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
