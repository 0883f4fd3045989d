package io.tickwheel.store.redis.impl;

import io.tickwheel.core.model.Timer;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Group commit of small {@code createAll} calls: the calls made on one event-loop context during one turn of its loop
 * (e.g. the single POSTs whose requests arrived together) are merged into one write, sent when the loop runs its
 * tasks after the turn's I/O, or as soon as the group holds {@code maxTimers} timers.
 *
 * <p>Why: each write to Redis is a socket write in this JVM and a wake-up, a read and a reply in Redis; for a
 * single-timer create those cost more than the commands themselves. A merged group is one transaction, so each call
 * stays atomic (its timers are written together with the others of its group, or none is); every call of a group
 * gets the group's outcome, on the context it was made on.
 *
 * <p>Order: a group is written before any other call of the store is sent ({@link #flush}, which the store calls
 * first in every other method), so calls from one thread still apply in the order they were made. Calls made off
 * an event loop (no context, worker threads) and calls of {@code maxTimers} or more timers are written at once,
 * after the open group.
 *
 * <p>Thread safe.
 */
public final class CreateGroups {

  private final Function<List<Timer>, Future<Void>> write;
  private final int maxTimers;
  private Group open; // guarded by this

  /**
   * @param write     the atomic write of a list of timers with distinct ids (the last of a repeated id wins)
   * @param maxTimers the most timers a group collects before it is written
   */
  public CreateGroups(Function<List<Timer>, Future<Void>> write, int maxTimers) {
    this.write = write;
    this.maxTimers = maxTimers;
  }

  /** Adds {@code timers} to the open group of the calling event loop, or writes them at once (see the class doc). */
  public Future<Void> add(List<Timer> timers) {
    Context ctx = Vertx.currentContext();
    if (ctx == null || !ctx.isEventLoopContext() || timers.size() >= maxTimers) {
      flush();
      return write.apply(timers);
    }
    Group g;
    Group other = null;
    Group full = null;
    boolean opened = false;
    Promise<Void> p = Promise.promise();
    synchronized (this) {
      if (open != null && open.ctx != ctx) {
        other = open;
        open = null;
      }
      if (open == null) {
        open = new Group(ctx);
        opened = true;
      }
      g = open;
      g.timers.addAll(timers);
      g.waiters.add(p);
      if (g.timers.size() >= maxTimers) {
        full = g;
        open = null;
      }
    }
    if (other != null) {
      send(other);
    }
    if (full != null) {
      send(full);
    } else if (opened) {
      ctx.runOnContext(v -> flush(g));
    }
    return p.future();
  }

  /** Writes the open group now, if there is one. */
  public void flush() {
    Group g;
    synchronized (this) {
      g = open;
      open = null;
    }
    if (g != null) {
      send(g);
    }
  }

  private void flush(Group g) {
    synchronized (this) {
      if (open != g) {
        return; // already written
      }
      open = null;
    }
    send(g);
  }

  private void send(Group g) {
    Future<Void> f;
    try {
      f = write.apply(g.timers);
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onComplete(ar -> {
      if (Vertx.currentContext() == g.ctx) {
        g.complete(ar);
      } else {
        g.ctx.runOnContext(v -> g.complete(ar));
      }
    });
  }

  /** The calls merged into one write. */
  private static final class Group {
    final Context ctx;
    final List<Timer> timers = new ArrayList<>();
    final List<Promise<Void>> waiters = new ArrayList<>(4);

    Group(Context ctx) {
      this.ctx = ctx;
    }

    void complete(AsyncResult<Void> ar) {
      for (Promise<Void> p : waiters) {
        p.handle(ar);
      }
    }
  }
}
