package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;

/**
 * The {@link Scheduler}'s writes for pipelined clients, group-committed: each call answers exactly what the
 * scheduler's method of the same name answers (same outcomes, same holds, durable on success), but its store write
 * waits for the end of the event-loop turn and goes to the store together with every other pipelined write of that
 * turn, one write per kind: creates through one {@link TimerStore#createAll}, replaces through one
 * {@link TimerStore#putAll}, touches through one {@link TimerStore#updateAll} (at most {@value #MAX_COALESCED}
 * timers per write; cancels go to the store one by one). The cost: one more event-loop task of latency per write.
 *
 * <p><b>Owner context only</b> (not thread safe), as the scheduler; futures complete there and never fail.
 */
public final class Pipeline {

  /** Most timers in one coalesced store write (as many as one batch call). */
  public static final int MAX_COALESCED = 10_000;

  private final Scheduler scheduler;
  private final WritePath writes;
  private final TouchWrite touches;

  Pipeline(Scheduler scheduler, WritePath writes, TouchWrite touches) {
    this.scheduler = scheduler;
    this.writes = writes;
    this.touches = touches;
  }

  /** As {@link Scheduler#create}. */
  public Future<WriteOutcome> create(TimerSpec spec) {
    return scheduler.ready() ? writes.create(spec) : recovering();
  }

  /** As {@link Scheduler#upsert}. */
  public Future<WriteOutcome> upsert(TimerSpec spec) {
    return scheduler.ready() ? writes.upsert(spec) : recovering();
  }

  /** As {@link Scheduler#cancel}. */
  public Future<WriteOutcome> cancel(String id) {
    return scheduler.ready() ? writes.cancel(id) : recovering();
  }

  /** As {@link Scheduler#touch}. */
  public Future<WriteOutcome> touch(String id, Long delayOverride) {
    return scheduler.ready() ? touches.touch(id, delayOverride) : recovering();
  }

  private static Future<WriteOutcome> recovering() {
    return Future.succeededFuture(new Refusal.Recovering());
  }
}
