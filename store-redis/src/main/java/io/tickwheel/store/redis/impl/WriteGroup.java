package io.tickwheel.store.redis.impl;

import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.store.StoreFaultException;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.ZModem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fenced writes of the partition stores on one {@link RedisLink} (each {@link Script#multiName() script that can
 * be a section}: creates, puts, updates, removes and firing records), gathered per event-loop turn and sent as few
 * script calls as the keys allow: on a standalone Redis one {@code write_multi.lua} call over every partition (each
 * section behind its own fence, checked inside the script exactly as {@code fence.lua} checks one call); on a Redis
 * Cluster one call per hash slot (a lone section as its script's {@link Script#fencedTwin() fenced twin}, the same
 * call as without the group).
 *
 * <p><b>Gathering.</b> A call made on a Vert.x context joins the group, and the first call of a turn queues the
 * flush as a new task on that context, so every call of the tasks queued before it (the fire loops of every
 * partition the node owns, turned by one wake-up; the partitions' group commits of one turn's creates) goes in the
 * same script call. A call made off any context is sent at once. At most {@value #MAX_ARGS_PER_CALL} arguments go
 * in one script call (a bigger group is split, in order), so one call does not hold Redis much longer than one
 * partition's biggest write.
 *
 * <p><b>Order.</b> The link sends whatever the group holds before any other command ({@link #flushPending}), and a
 * flush sends its calls in the order they were made while it holds the group's lock, so calls made from one thread
 * still reach Redis in the order they were made ({@code TimerStore}, "Order"); sections apply in list order inside a
 * script.
 *
 * <p><b>Failures.</b> A section refused by its fence fails with {@link StoreFencedException} (nothing of it written,
 * the other sections applied); a section whose script part failed fails with {@link StoreFaultException} that may
 * have applied. A script call that fails as a whole (Redis unreachable, timeout) fails every section in it as the
 * link maps the failure. Thread safe; each call completes on the context it was made on.
 */
public final class WriteGroup {

  /** Most arguments of sections in one script call. */
  static final int MAX_ARGS_PER_CALL = 140_000;

  /** One partition store's write waiting for the flush. */
  private record Section(Script script, int partition, long epoch, List<String> keys, String leaseKey, List<?> args,
      Context ctx, Promise<Response> promise) {}

  private final RedisLink link;
  private final boolean cluster;
  private final Object lock = new Object();
  /** Guarded by {@link #lock}. */
  private List<Section> sections = new ArrayList<>();
  /** Whether sections wait: read without the lock as a fast path. */
  private volatile boolean waiting;

  WriteGroup(RedisLink link, boolean cluster) {
    this.link = link;
    this.cluster = cluster;
  }

  /**
   * Adds one partition store's call of {@code script} to the group.
   *
   * @param script   a plain write script with a {@link Script#multiName() section name}
   * @param keys     the script's keys for the partition
   * @param leaseKey the partition's lease hash (same hash tag as {@code keys})
   * @param args     the script's ARGV
   * @return the script's reply for this call, on the caller's context
   */
  Future<Response> add(Script script, int partition, long epoch, List<String> keys, String leaseKey, List<?> args) {
    if (script.multiName() == null) {
      throw new IllegalArgumentException(script.file() + " cannot be a section of write_multi.lua");
    }
    Context ctx = Vertx.currentContext();
    Section s = new Section(script, partition, epoch, keys, leaseKey, args, ctx, Promise.promise());
    boolean first;
    synchronized (lock) {
      first = sections.isEmpty();
      sections.add(s);
      waiting = true;
    }
    if (ctx == null) {
      flushPending();
    } else if (first) {
      ctx.runOnContext(v -> flushPending());
    }
    return s.promise.future();
  }

  /** Sends whatever the group holds now (before any other command of the link). */
  void flushPending() {
    if (!waiting) {
      return;
    }
    synchronized (lock) {
      if (sections.isEmpty()) {
        return;
      }
      List<Section> all = sections;
      sections = new ArrayList<>();
      waiting = false;
      if (!cluster) {
        sendInCalls(all);
        return;
      }
      Map<Integer, List<Section>> bySlot = new LinkedHashMap<>();
      for (Section s : all) {
        bySlot.computeIfAbsent(ZModem.generate(s.leaseKey), k -> new ArrayList<>()).add(s);
      }
      for (List<Section> group : bySlot.values()) {
        sendInCalls(group);
      }
    }
  }

  /** Sends {@code group} (keys in one slot, or a standalone Redis) in order, split at the argument cap. */
  private void sendInCalls(List<Section> group) {
    List<Section> call = new ArrayList<>();
    int argc = 0;
    for (Section s : group) {
      if (!call.isEmpty() && argc + s.args.size() > MAX_ARGS_PER_CALL) {
        send(call);
        call = new ArrayList<>();
        argc = 0;
      }
      call.add(s);
      argc += s.args.size();
    }
    if (!call.isEmpty()) {
      send(call);
    }
  }

  private void send(List<Section> call) {
    if (call.size() == 1) {
      Section s = call.get(0);
      List<String> k = new ArrayList<>(s.keys.size() + 1);
      k.addAll(s.keys);
      k.add(s.leaseKey);
      List<Object> a = new ArrayList<>(s.args.size() + 1);
      a.addAll(s.args);
      a.add(Long.toString(s.epoch));
      link.evalNow(s.script.fencedTwin(), k, a, r -> r).onComplete(ar -> {
        if (ar.failed() && ar.cause() instanceof ScriptRefusal r && r.code().equals(Script.FENCED_CODE)) {
          complete(s, Future.failedFuture(new StoreFencedException(s.partition, s.epoch)));
        } else {
          complete(s, ar);
        }
      });
      return;
    }
    int keyc = 0;
    int argc = 1;
    for (Section s : call) {
      keyc += s.keys.size() + 1;
      argc += 4 + s.args.size();
    }
    List<String> keys = new ArrayList<>(keyc);
    List<Object> args = new ArrayList<>(argc);
    args.add(Integer.toString(call.size()));
    for (Section s : call) {
      keys.addAll(s.keys);
      keys.add(s.leaseKey);
      args.add(s.script.multiName());
      args.add(Long.toString(s.epoch));
      args.add(Integer.toString(s.keys.size()));
      args.add(Integer.toString(s.args.size()));
      args.addAll(s.args);
    }
    link.evalNow(Script.WRITE_MULTI, keys, args, r -> r).onComplete(ar -> {
      for (int i = 0; i < call.size(); i++) {
        Section s = call.get(i);
        if (ar.failed()) {
          complete(s, Future.failedFuture(ar.cause()));
          continue;
        }
        complete(s, section(s, ar.result(), i));
      }
    });
  }

  /** Section {@code i}'s outcome in {@code write_multi.lua}'s reply (an {@code OK} reply may be nil). */
  private Future<Response> section(Section s, Response reply, int i) {
    Response r = reply == null || reply.size() <= i ? null : reply.get(i);
    String status = r == null || r.size() < 1 || r.get(0) == null ? null : r.get(0).toString();
    if ("OK".equals(status)) {
      return Future.succeededFuture(r.size() < 2 ? null : r.get(1));
    }
    if (status != null && status.startsWith(Script.FENCED_CODE + " ")) {
      return Future.failedFuture(new StoreFencedException(s.partition, s.epoch));
    }
    return Future.failedFuture(new StoreFaultException(link.where() + " refused " + s.script.file() + " of partition "
        + s.partition + ": " + (status == null ? "no answer for its section" : status), null, true));
  }

  private static void complete(Section s, AsyncResult<Response> ar) {
    if (s.ctx == null || Vertx.currentContext() == s.ctx) {
      s.promise.handle(ar);
    } else {
      s.ctx.runOnContext(v -> s.promise.handle(ar));
    }
  }
}
