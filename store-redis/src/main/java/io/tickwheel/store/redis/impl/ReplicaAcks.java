package io.tickwheel.store.redis.impl;

import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Replica acknowledgement of a {@link RedisLink}'s writes with Redis {@code WAIT}, on when
 * {@link RedisStoreOptions#getMinReplicasAcked()} is above 0: a write's future succeeds only once a {@code WAIT
 * minReplicasAcked replicaAckTimeoutMs} sent on the same connection after it answered at least
 * {@code minReplicasAcked}.
 *
 * <h2>Standalone Redis: group commit</h2>
 * {@code WAIT} blocks its client connection inside Redis, so one per write would serialise the link on replication
 * round trips. Every send of the link (reads too, so calls from one thread keep their order) goes through one lane,
 * a dedicated event-loop context, which hands it to the connection; writes join the connection's {@link WaitGroup},
 * which keeps at most one {@code WAIT} in Redis and covers every write sent before it. Reads never wait for replicas,
 * but in Redis they queue behind a {@code WAIT} sent before them (one replication round trip; up to
 * {@code replicaAckTimeoutMs} when replicas do not answer).
 *
 * <h2>Redis Cluster: one WAIT per write</h2>
 * The cluster client routes a command without keys to an arbitrary node, so a lone {@code WAIT} could block a node
 * that never saw the write. Each write is sent as one batch {@code MULTI, write, EXEC, WAIT}: the client routes a
 * batch by its keyed commands' slot to that slot's master, where the {@code WAIT} then covers the write. The
 * {@code MULTI} makes Redis report the write's own error inside {@code EXEC}'s reply (a failed batch would merge every
 * error into one message), so script refusals are mapped as without acknowledgement. Transactions get the
 * {@code WAIT} appended to their batch. No grouping: each write costs one {@code WAIT} on its master.
 *
 * <h2>Failures</h2>
 * The write failed in Redis: that failure, as without acknowledgement. The write succeeded, and {@code WAIT}
 * answered fewer than {@code minReplicasAcked}: {@link StoreUnavailableException} naming how many replicas
 * acknowledged, of how many asked, within how many ms, {@code mayHaveApplied() == true} (the master applied the
 * write; nothing is rolled back). The write succeeded and its {@code WAIT} failed (connection lost, …):
 * {@link StoreUnavailableException}, {@code mayHaveApplied() == true}.
 *
 * <p>Thread safe: calls may come from any thread; the group state is confined to the lane.
 */
final class ReplicaAcks {

  private final int replicas;
  private final long timeoutMs;
  private final boolean cluster;
  private final String where;
  private final int cap;
  /** Standalone only: the context every send goes through. */
  private final Context lane;
  /** The group of the connection last used; confined to the lane. */
  private WaitGroup group;

  private ReplicaAcks(Vertx vertx, RedisStoreOptions options, String where, int cap) {
    this.replicas = options.getMinReplicasAcked();
    this.timeoutMs = options.getReplicaAckTimeoutMs();
    this.cluster = options.isCluster();
    this.where = where;
    this.cap = cap;
    this.lane = cluster ? null : ((VertxInternal) vertx).createEventLoopContext();
  }

  /**
   * The acknowledgement {@code options} ask for, or {@code null} when {@code minReplicasAcked} is 0.
   *
   * @param where the masked endpoint, for messages
   * @param cap   the most writes waiting for their {@code WAIT} on one connection (standalone); more are refused
   */
  static ReplicaAcks of(Vertx vertx, RedisStoreOptions options, String where, int cap) {
    return options.getMinReplicasAcked() > 0 ? new ReplicaAcks(vertx, options, where, cap) : null;
  }

  /**
   * Sends one command on {@code c}; a {@code write} completes after its acknowledgement (see the class comment).
   * Fails with the client's failure of the command, or as the class comment says.
   */
  Future<Response> send(RedisConnection c, Request request, boolean write, String what) {
    if (cluster) {
      return write ? clusterBatch(c, List.of(Request.cmd(Command.MULTI), request, Request.cmd(Command.EXEC)), what)
          .compose(ReplicaAcks::onlyReply) : c.send(request);
    }
    Promise<Response> out = Promise.promise();
    lane.runOnContext(v -> {
      if (write) {
        acked(c, conn -> conn.send(request), what, out);
      } else {
        c.send(request).onComplete(out::handle);
      }
    });
    return out.future();
  }

  /**
   * Sends {@code multiToExec} ({@code MULTI}, commands, {@code EXEC}) as one batch on {@code c}, acknowledged like a
   * write.
   *
   * @return {@code EXEC}'s reply, after the acknowledgement
   */
  Future<Response> transaction(RedisConnection c, List<Request> multiToExec, String what) {
    if (cluster) {
      return clusterBatch(c, multiToExec, what);
    }
    Promise<List<Response>> out = Promise.promise();
    lane.runOnContext(v -> acked(c, conn -> conn.batch(multiToExec), what, out));
    return out.future().map(rs -> rs.get(rs.size() - 1));
  }

  /** On the lane: sends a write with {@code send}, and completes {@code out} once its group's WAIT answered. */
  private <T> void acked(RedisConnection c, Function<RedisConnection, Future<T>> send, String what, Promise<T> out) {
    if (group == null || group.connection() != c) {
      group = new WaitGroup(c, lane, replicas, timeoutMs, cap);
    }
    WaitGroup g = group;
    if (g.full()) {
      out.fail(new StoreUnavailableException(where + " refused " + what + ": " + cap
          + " writes are already waiting for their replicas' acknowledgement", null, false));
      return;
    }
    Future<T> written = send.apply(c);
    Future<Long> covered = g.join();
    written.onComplete(ar -> {
      if (ar.failed()) {
        out.fail(ar.cause()); // Redis refused or lost the write itself: mapped as without acknowledgement
        return;
      }
      covered.onComplete(w -> {
        if (w.failed()) {
          out.fail(waitFailed(w.cause(), what));
        } else if (w.result() < replicas) {
          out.fail(shortfall(w.result(), what));
        } else {
          out.complete(ar.result());
        }
      });
    });
  }

  /** Sends {@code multiToExec} plus a WAIT as one batch; the EXEC reply once enough replicas acknowledged. */
  private Future<Response> clusterBatch(RedisConnection c, List<Request> multiToExec, String what) {
    List<Request> batch = new ArrayList<>(multiToExec.size() + 1);
    batch.addAll(multiToExec);
    batch.add(Request.cmd(Command.WAIT).arg(replicas).arg(timeoutMs));
    return c.batch(batch).compose(rs -> {
      Response exec = rs.get(rs.size() - 2);
      Response acked = rs.get(rs.size() - 1);
      if (RedisLink.execError(exec) != null) {
        return Future.succeededFuture(exec); // the write's own failure wins; the caller reads it from EXEC
      }
      long n = acked == null ? 0 : acked.toLong();
      return n >= replicas ? Future.succeededFuture(exec) : Future.failedFuture(shortfall(n, what));
    });
  }

  /** The one command's reply of {@code MULTI, command, EXEC}; failed with its error reply. */
  private static Future<Response> onlyReply(Response exec) {
    Throwable err = RedisLink.execError(exec);
    return err != null ? Future.failedFuture(err) : Future.succeededFuture(exec.get(0));
  }

  private StoreUnavailableException shortfall(long acked, String what) {
    return new StoreUnavailableException(where + ": " + what + " was applied by the master, but only " + acked + " of "
        + replicas + " replicas acknowledged it within " + timeoutMs + " ms (WAIT); it stays applied", null, true);
  }

  private StoreException waitFailed(Throwable cause, String what) {
    return new StoreUnavailableException(where + ": " + what + " was applied by the master, but waiting for "
        + replicas + " replicas to acknowledge it failed: " + RedisFailures.describe(cause), cause, true);
  }
}
