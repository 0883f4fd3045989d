package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;

class RefusalTest {

  @Test
  void anUnreachableStoreIsUnavailableAndAWriteMayHaveBeenAppliedAsTheStoreSays() {
    assertThat(Refusal.ofStoreFailure(new StoreUnavailableException("connection reset", null, true), true))
        .isEqualTo(new Refusal.StoreUnavailable("connection reset", true, true));
    assertThat(Refusal.ofStoreFailure(new StoreUnavailableException("not connected", null, false), true))
        .isEqualTo(new Refusal.StoreUnavailable("not connected", true, false));
    assertThat(Refusal.ofStoreFailure(new StoreUnavailableException("connection reset", null, true), false))
        .isEqualTo(new Refusal.StoreUnavailable("connection reset", false, false));
  }

  @Test
  void aStoreClosedUnderARequestIsUnavailableAndAFaultIsAFault() {
    assertThat(Refusal.ofStoreFailure(new StoreClosedException("the store is closed"), true))
        .isEqualTo(new Refusal.StoreUnavailable("the store is closed", true, false));
    assertThat(Refusal.ofStoreFailure(new StoreFaultException("bad record", null, false), true))
        .isEqualTo(new Refusal.StoreFault("bad record"));
  }

  @Test
  void anyOtherStoreFailureIsAFault() {
    assertThat(Refusal.ofStoreFailure(new IllegalStateException("corrupt record"), true))
        .isEqualTo(new Refusal.StoreFault("corrupt record"));
  }
}
