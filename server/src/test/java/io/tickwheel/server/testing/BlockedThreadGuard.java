package io.tickwheel.server.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test whose Vert.x event loop (or worker) was blocked: listens to the JUL logger Vert.x 5's blocked-thread
 * checker writes to ({@value #LOGGER}) and, after each test, fails it if a warning arrived meanwhile.
 * Use with {@code @ExtendWith(BlockedThreadGuard.class)} and a Vert.x from {@link TestVertx} (strict limits).
 */
public final class BlockedThreadGuard implements BeforeEachCallback, AfterEachCallback {

  /** {@code io.vertx.core.internal.threadchecker.BlockedThreadChecker.LOGGER_NAME} in Vert.x 5. */
  public static final String LOGGER = "io.vertx.core.impl.BlockedThreadChecker";

  static {
    // Vert.x logs through JUL unless told otherwise; make sure, so the handler below sees its warnings.
    System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.JULLogDelegateFactory");
  }

  private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
  private static final Logger JUL = Logger.getLogger(LOGGER);

  static {
    JUL.addHandler(new Handler() {
      @Override
      public void publish(LogRecord r) {
        WARNINGS.add(String.valueOf(r.getMessage()));
      }

      @Override
      public void flush() { }

      @Override
      public void close() { }
    });
  }

  /** Warnings seen so far (for the guard's own test). */
  public static List<String> warnings() {
    return WARNINGS;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    WARNINGS.clear();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!WARNINGS.isEmpty()) {
      String first = WARNINGS.get(0);
      WARNINGS.clear();
      throw new AssertionError("a Vert.x thread was blocked during this test: " + first);
    }
  }
}
