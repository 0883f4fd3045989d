package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;

class RefusalTest {

  @Test
  void anUnreachableStoreIsUnavailableAndAWriteMayHaveBeenApplied() {
    assertThat(Refusal.ofStoreFailure(new StoreUnavailableException("connection reset"), true))
        .isEqualTo(new Refusal.StoreUnavailable("connection reset", true));
    assertThat(Refusal.ofStoreFailure(new StoreUnavailableException("connection reset"), false))
        .isEqualTo(new Refusal.StoreUnavailable("connection reset", false));
  }

  @Test
  void anyOtherStoreFailureIsAFault() {
    assertThat(Refusal.ofStoreFailure(new IllegalStateException("corrupt record"), true))
        .isEqualTo(new Refusal.StoreFault("corrupt record"));
  }
}
