package io.tickwheel.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
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
      Awaitility.await("a blocked-thread warning").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> !BlockedThreadGuard.warnings().isEmpty());
      // the checker (every 100 ms) may still log one last "blocked for 3,5xx ms" after the loop is free; closing Vert.x
      // stops it, so no warning can land after the clear below and fail this test in afterEach
      TestVertx.close(vertx);
      assertThat(BlockedThreadGuard.warnings()).anyMatch(w -> w.contains("has been blocked"));
      BlockedThreadGuard.warnings().clear();       // expected here: do not fail this test in afterEach
    } finally {
      TestVertx.close(vertx);
    }
  }
}
