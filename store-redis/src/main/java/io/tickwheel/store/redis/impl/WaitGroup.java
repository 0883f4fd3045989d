package io.tickwheel.store.redis.impl;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;

/**
 * Group commit of replica acknowledgements on one standalone connection: the writes sent on it since the last
 * {@code WAIT}, and whether a {@code WAIT} is in Redis now.
 *
 * <p>Redis's {@code WAIT n t} blocks its client connection until {@code n} replicas have acknowledged every write
 * that connection sent before it (or {@code t} ms passed), and answers how many did. So one {@code WAIT} covers every
 * write sent before it, and sending one per write would serialise the connection on the replicas' round trips. Here
 * at most one {@code WAIT} is in Redis at a time: the first write after an idle spell sends one right behind itself;
 * writes sent while it is in Redis join the next group, whose {@code WAIT} is sent the moment the current one
 * answers. A busy connection thus sends about one {@code WAIT} per replication round trip, not one per write.
 *
 * <p>Correctness rests on the order of the connection: a write {@link #join joins} the group only after it was
 * handed to the connection, and the group's {@code WAIT} is handed over later, from the same thread, so the client
 * writes it to the socket after the write and Redis runs it after the write.
 *
 * <p>Not thread safe: confined to the lane, the one event-loop context all of a link's sends go through while
 * acknowledgement is on ({@link ReplicaAcks}). Bounded: at most {@code cap} writes wait for their {@code WAIT}
 * ({@link #full()}); the caller refuses more.
 */
final class WaitGroup {

  private final RedisConnection conn;
  private final Context lane;
  private final int replicas;
  private final long timeoutMs;
  private final int cap;

  /** Whether a WAIT was sent and has not answered yet. */
  private boolean waitInRedis;
  /** The answer of the next WAIT, for the writes sent since the last one was sent; null while there are none. */
  private Promise<Long> next;
  private int nextSize;
  /** Writes joined whose WAIT has not answered yet (both groups). */
  private int unsettled;

  /**
   * @param conn      the connection the writes were sent on; the WAITs go on it too
   * @param lane      the context this group is confined to
   * @param replicas  {@code WAIT}'s numreplicas, at least 1
   * @param timeoutMs {@code WAIT}'s timeout, milliseconds, at least 1
   * @param cap       the most writes waiting for a WAIT's answer
   */
  WaitGroup(RedisConnection conn, Context lane, int replicas, long timeoutMs, int cap) {
    this.conn = conn;
    this.lane = lane;
    this.replicas = replicas;
    this.timeoutMs = timeoutMs;
    this.cap = cap;
  }

  /** The connection of this group. */
  RedisConnection connection() {
    return conn;
  }

  /** Whether {@code cap} writes already wait for a WAIT (then refuse the next write before sending it). */
  boolean full() {
    return unsettled >= cap;
  }

  /**
   * Registers a write that was just handed to {@link #connection()} (on the lane, before anything else is sent), and
   * sends a {@code WAIT} now when none is in Redis.
   *
   * @return the answer of the {@code WAIT} that covers the write: how many replicas acknowledged it; failed with the
   *     client's failure of that {@code WAIT} (connection lost, …)
   */
  Future<Long> join() {
    if (next == null) {
      next = Promise.promise();
    }
    nextSize++;
    unsettled++;
    Future<Long> covered = next.future();
    if (!waitInRedis) {
      sendWait();
    }
    return covered;
  }

  private void sendWait() {
    Promise<Long> group = next;
    int size = nextSize;
    next = null;
    nextSize = 0;
    waitInRedis = true;
    conn.send(Request.cmd(Command.WAIT).arg(replicas).arg(timeoutMs)).onComplete(ar -> onLane(() -> {
      waitInRedis = false;
      unsettled -= size;
      if (next != null) {
        sendWait(); // the writes sent meanwhile are on the socket before this WAIT
      }
      if (ar.failed()) {
        group.fail(ar.cause());
      } else if (ar.result() == null) {
        group.fail(new IllegalStateException("WAIT answered nil"));
      } else {
        group.complete(ar.result().toLong());
      }
    }));
  }

  private void onLane(Runnable r) {
    if (Vertx.currentContext() == lane) {
      r.run();
    } else {
      lane.runOnContext(v -> r.run());
    }
  }
}
