package io.tickwheel.core.store;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/** The timers, requests and waits the store contract suites share. */
public final class StoreFixtures {

  private StoreFixtures() {
  }

  public static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("store call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  public static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":\"" + id + "\"}", 1, due, 0, 1);
  }

  public static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1,2,3]", 1, due, 0, 1);
  }

  /**
   * A cron timer with every extras field set away from its default: zone, both DST policies as configured (one
   * {@code auto}), an end, jitter with its nominal time, paused, a callback with every field set.
   */
  public static Timer cron(String id, long nominal, long due) {
    ZonedCron c = ZonedCron.of("30 2 * * 1-5", ZoneId.of("America/New_York"), DstGap.SKIP, DstOverlap.AUTO);
    return new Timer(id, "cal", Kind.CRON, 0, 0, 12, Misfire.SKIP, "{\"c\":1}", 7, due, 2, 3,
        new Timer.Extras(c, 1_900_000_000_000L, 90_000, true, nominal,
            new Callback("https://hooks.example.com:8443/t/é?x=1&y=%20", 2500, 20, 250, 60_000)));
  }

  /** A fixed-rate timer with jitter, an end and a callback with its defaults, but no cron, not paused. */
  public static Timer jittered(String id, long nominal, long due) {
    return periodic(id, due, 60_000).withExtras(new Timer.Extras(null, 5_000_000, 30_000, false, nominal,
        Callback.to("http://[2001:db8::1]/hook")));
  }

  /** A once timer whose only extra is a callback. */
  public static Timer withCallback(String id, long due) {
    return timer(id, due).withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0,
        new Callback("http://receiver.example/cb", 30_000, 1, Callback.NO_BACKOFF, Callback.NO_BACKOFF)));
  }

  /** The request that fires {@code t} at {@code firedAt} and re-arms it as {@code next} ({@code null}: removes it). */
  public static FiringRequest fire(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next);
  }

  /** The failure of {@code f}, which must fail within 30 s. */
  public static Throwable failure(Future<?> f) {
    try {
      Object v = f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + v);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("store call did not complete: " + e, e);
    }
  }

  /** The callback of {@link #fireWithHook}. */
  public static final io.tickwheel.core.callback.Callback HOOK =
      new io.tickwheel.core.callback.Callback("https://example.com/hook", 2000, 3, 0, 0);

  /** A firing request of {@code t} as {@link #fire}, with the callback {@link #HOOK}. */
  public static FiringRequest fireWithHook(Timer t, long firedAt, Timer next) {
    return new FiringRequest(t.id(), t.generation(), t.firings(), true, t.nextDueAt(), firedAt, next, t.nextDueAt(),
        HOOK);
  }
}
