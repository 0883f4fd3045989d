package io.tickwheel.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The guard itself: a blocked event loop is seen (so the guarded tests can fail). */
@ExtendWith(BlockedThreadGuard.class)
class BlockedThreadGuardTest {

  @Test
  void aBlockedEventLoopIsReported() throws Exception {
    Vertx vertx = TestVertx.create();
    try {
      CountDownLatch done = new CountDownLatch(1);
      vertx.runOnContext(v -> {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3600);
        while (System.nanoTime() < end) {
          Thread.onSpinWait();                     // hold the event loop past the 3 s limit
        }
        done.countDown();
      });
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
      // the checker (every 100 ms) may still log one last "blocked for 3,5xx ms" after the loop is free: let it, before
      // the clear below, or it lands after it and fails this test in afterEach (seen once)
      CountDownLatch free = new CountDownLatch(1);
      vertx.runOnContext(v -> free.countDown());
      assertThat(free.await(30, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(500);
      long deadline = System.currentTimeMillis() + 5000;
      while (BlockedThreadGuard.warnings().isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(BlockedThreadGuard.warnings()).anyMatch(w -> w.contains("has been blocked"));
      BlockedThreadGuard.warnings().clear();       // expected here: do not fail this test in afterEach
    } finally {
      TestVertx.close(vertx);
    }
  }
}
