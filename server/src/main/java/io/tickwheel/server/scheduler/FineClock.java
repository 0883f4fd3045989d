package io.tickwheel.server.scheduler;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The server's clock, epoch ms ({@link #getAsLong()}), that also tells the microsecond: the fire loop's wake-up
 * ({@link WakeUp}) sleeps until the first microsecond of a timer's due millisecond instead of a whole number of
 * milliseconds from "now" (which woke up to 1 ms after the due millisecond had begun). Only the verticle reads time,
 * through the clock it is given; a plain {@link LongSupplier} (tests' manual clocks) counts as a clock whose
 * microsecond is always the start of its millisecond.
 *
 * <p>Thread safe.
 */
public interface FineClock extends LongSupplier {

  /** The system's UTC clock ({@link System#currentTimeMillis()} and {@link Clock#systemUTC()}). */
  FineClock SYSTEM = new FineClock() {
    private final Clock utc = Clock.systemUTC();

    @Override
    public long getAsLong() {
      return System.currentTimeMillis();
    }

    @Override
    public long nowMicros() {
      Instant i = utc.instant();
      return i.getEpochSecond() * 1_000_000L + i.getNano() / 1_000;
    }
  };

  /** Now, epoch µs, consistent with {@link #getAsLong()} ({@code nowMicros() / 1000} is the same millisecond). */
  long nowMicros();

  /** Now in µs from {@code clock}: its {@link #nowMicros()} if it is a fine clock, else the start of its millisecond. */
  static long micros(LongSupplier clock) {
    return clock instanceof FineClock f ? f.nowMicros() : clock.getAsLong() * 1_000L;
  }
}
