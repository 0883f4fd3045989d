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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fenced writes of the partition stores on one {@link RedisLink} (each {@link Script#multiName() script that can
 * be a section}: creates, puts, updates, removes and firing records), gathered per event-loop turn and sent as few
 * script calls as the keys allow: on a standalone Redis {@code write_multi.lua} calls over many partitions (each
 * section behind its own fence, checked inside the script exactly as {@code fence.lua} checks one call); on a Redis
 * Cluster one call per hash slot (a lone section as its script's {@link Script#fencedTwin() fenced twin}, the same
 * call as without the group). In a {@code write_multi.lua} call, a create of one topic's timers, a touch or a firing
 * record of a few requests (a cluster node's usual turn holds a timer or two in each of many partitions) goes as a
 * lone section ({@code lone.lua}, {@code lone_fire.lua}), applied without a section's frame; a call of such firing
 * records only goes as {@code fire_multi.lua}, the same loop without the table of section scripts.
 *
 * <p><b>Gathering.</b> A call made on a Vert.x context joins the group, and the first call of a turn queues the
 * flush as a new task on that context, so every call of the tasks queued before it (the fire loops of every
 * partition the node owns, turned by one wake-up; the partitions' group commits of one turn's creates) is sent by
 * that flush. A call made off any context is sent at once, with everything the group holds, from its own thread.
 *
 * <p><b>Pacing (standalone Redis).</b> Redis runs one script at a time, and a connection's commands in the order
 * they were written: a firing record written behind a batch create over every partition would wait for all of it.
 * So a flush sends every firing record at once, each with the sections of its partition queued before it, and the
 * other sections in calls of at most {@value #PACED_SECTIONS} sections and {@value #PACED_ARGS} arguments (a bigger
 * section alone), at most {@value #PACED_IN_FLIGHT} such calls in flight: the rest waits in the group, in order, and
 * goes as calls are answered, from the context the calls were sent on (the turn's). A firing record then waits in
 * Redis for at most that many bounded calls. On a Redis
 * Cluster every flush sends everything it holds, in calls of at most {@value #MAX_ARGS_PER_CALL} arguments.
 *
 * <p><b>Order.</b> One partition store's calls are applied in the order they were made ({@code TimerStore}, "Order"):
 * its sections leave the group in call order, and before any other command of that partition store
 * ({@link #flushPartition}); a command of the link that belongs to no partition store sends everything the group holds
 * first ({@link #flushPending}). Sections apply in list order inside a script. Sections of different partitions (other
 * stores, promised no order between them) may be applied out of call order.
 *
 * <p><b>Failures.</b> A section refused by its fence fails with {@link StoreFencedException} (nothing of it written,
 * the other sections applied); a section whose script part failed fails with {@link StoreFaultException} that may
 * have applied. A script call that fails as a whole (Redis unreachable, timeout) fails every section in it as the
 * link maps the failure. Thread safe; each call completes on the context it was made on.
 */
public final class WriteGroup {

  /** Most arguments of sections in one script call. */
  static final int MAX_ARGS_PER_CALL = 140_000;
  /** Most sections in one paced call (see "Pacing"). */
  static final int PACED_SECTIONS = 32;
  /** Most arguments of sections in one paced call, unless its one section has more. */
  static final int PACED_ARGS = 16_384;
  /** Most paced calls in flight. */
  static final int PACED_IN_FLIGHT = 2;
  /** fire.lua's arguments per request. */
  private static final int FIRE_REQUEST_ARGS = 7;
  /** fire.lua's keys. */
  private static final int FIRE_KEYS = 9;
  /**
   * Most requests of a firing record sent as a lone section: a larger one goes as a {@code fire} section, where
   * fire.lua's batch path shares its reads and writes among them.
   */
  static final int LONE_FIRE_REQUESTS = 4;
  /** The timer scripts' keys (create_absent.lua's, update.lua's). */
  private static final int TIMER_KEYS = 4;
  /** create_absent.lua's arguments for one timer: 1, topic, paused, 1, id, 0, member, id, record. */
  private static final int LONE_CREATE_ARGS = 9;
  /** update.lua's arguments: id, expected generation, member, header. */
  private static final int UPDATE_ARGS = 4;

  /** One partition store's write waiting for the flush. */
  private record Section(Script script, int partition, long epoch, List<String> keys, String leaseKey, List<?> args,
      Context ctx, Promise<Response> promise) {

    /** A firing record: it goes ahead of other partitions' paced sections. */
    boolean urgent() {
      return script == Script.FIRE;
    }
  }

  private final RedisLink link;
  private final boolean cluster;
  private final Object lock = new Object();
  /** The sections not sent yet, in call order. Guarded by {@link #lock}. */
  private List<Section> sections = new ArrayList<>();
  /** Whether a flush task is queued on a context. Guarded by {@link #lock}. */
  private boolean flushQueued;
  /** Paced calls sent and not answered yet. Guarded by {@link #lock}. */
  private int pacedInFlight;
  /** Whether {@link #pump} is running (a call answered at once while it sends must not run it again). */
  private boolean pumping;
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
    boolean queue;
    synchronized (lock) {
      sections.add(s);
      waiting = true;
      queue = ctx != null && !flushQueued;
      if (queue) {
        flushQueued = true;
      }
    }
    if (ctx == null) {
      // sent now from this thread, with all the group holds: a paced call would go later from the thread an answer
      // comes on, and could reach Redis after a call this thread makes next
      flushPending();
    } else if (queue) {
      ctx.runOnContext(v -> flushTurn());
    }
    return s.promise.future();
  }

  /**
   * The end of a turn: on a Redis Cluster everything the group holds; on a standalone Redis the firing records with
   * what their partitions queued before them, then paced calls while fewer than {@value #PACED_IN_FLIGHT} are in
   * flight.
   */
  private void flushTurn() {
    synchronized (lock) {
      flushQueued = false;
      if (cluster) {
        flushPending();
        return;
      }
      sendUrgent();
      pump();
    }
  }

  /** Sends whatever the group holds now, in order (before a command of the link that belongs to no partition). */
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
      sendBySlot(all);
    }
  }

  /** Sends, in order, what partition {@code p}'s stores queued (before another command of that partition). */
  void flushPartition(int p) {
    if (!waiting) {
      return;
    }
    synchronized (lock) {
      List<Section> mine = take((i, s) -> s.partition == p);
      if (!mine.isEmpty()) {
        sendBySlot(mine);
      }
    }
  }

  /** Under the lock: removes from the group, in order, the sections {@code which} picks (by index and section). */
  private List<Section> take(java.util.function.BiPredicate<Integer, Section> which) {
    List<Section> taken = new ArrayList<>();
    List<Section> rest = new ArrayList<>(sections.size());
    for (int i = 0; i < sections.size(); i++) {
      Section s = sections.get(i);
      (which.test(i, s) ? taken : rest).add(s);
    }
    if (!taken.isEmpty()) {
      sections = rest;
      waiting = !rest.isEmpty();
    }
    return taken;
  }

  /** Under the lock: sends {@code list} in order, one group per hash slot on a Redis Cluster. */
  private void sendBySlot(List<Section> list) {
    if (!cluster) {
      sendInCalls(list);
      return;
    }
    Map<Integer, List<Section>> bySlot = new LinkedHashMap<>();
    for (Section s : list) {
      bySlot.computeIfAbsent(ZModem.generate(s.leaseKey), k -> new ArrayList<>()).add(s);
    }
    for (List<Section> group : bySlot.values()) {
      sendInCalls(group);
    }
  }

  /** Under the lock: sends every firing record queued, each with the sections its partition queued before it. */
  private void sendUrgent() {
    Map<Integer, Integer> lastUrgent = null;
    for (int i = 0; i < sections.size(); i++) {
      Section s = sections.get(i);
      if (s.urgent()) {
        if (lastUrgent == null) {
          lastUrgent = new HashMap<>();
        }
        lastUrgent.put(s.partition, i);
      }
    }
    if (lastUrgent == null) {
      return;
    }
    Map<Integer, Integer> last = lastUrgent;
    List<Section> now = take((i, s) -> {
      Integer upTo = last.get(s.partition);
      return upTo != null && i <= upTo;
    });
    sendInCalls(now);
  }

  /** Under the lock: sends paced calls from the head of the group while fewer than the most are in flight. */
  private void pump() {
    if (pumping) {
      return;
    }
    pumping = true;
    try {
      while (pacedInFlight < PACED_IN_FLIGHT && !sections.isEmpty()) {
        int n = 0;
        int argc = 0;
        while (n < sections.size() && n < PACED_SECTIONS
            && (n == 0 || argc + sections.get(n).args.size() <= PACED_ARGS)) {
          argc += sections.get(n).args.size();
          n++;
        }
        List<Section> call = new ArrayList<>(sections.subList(0, n));
        sections = new ArrayList<>(sections.subList(n, sections.size()));
        waiting = !sections.isEmpty();
        pacedInFlight++;
        send(call).onComplete(ar -> {
          synchronized (lock) {
            pacedInFlight--;
            pump();
          }
        });
      }
    } finally {
      pumping = false;
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

  /** Sends one script call of {@code call}; the future completes once every section of it is answered. */
  private Future<?> send(List<Section> call) {
    if (call.size() == 1) {
      Section s = call.get(0);
      List<String> k = new ArrayList<>(s.keys.size() + 1);
      k.addAll(s.keys);
      k.add(s.leaseKey);
      List<Object> a = new ArrayList<>(s.args.size() + 1);
      a.addAll(s.args);
      a.add(Long.toString(s.epoch));
      return link.evalNow(s.script.fencedTwin(), k, a, r -> r).onComplete(ar -> {
        if (ar.failed() && ar.cause() instanceof ScriptRefusal r && r.code().equals(Script.FENCED_CODE)) {
          complete(s, Future.failedFuture(new StoreFencedException(s.partition, s.epoch)));
        } else {
          complete(s, ar);
        }
      });
    }
    int keyc = 0;
    int argc = 1;
    boolean firings = true;
    for (Section s : call) {
      keyc += s.keys.size() + 1;
      argc += 4 + s.args.size();
      firings &= loneFiring(s);
    }
    List<String> keys = new ArrayList<>(keyc);
    List<Object> args = new ArrayList<>(argc);
    args.add(Integer.toString(call.size()));
    for (Section s : call) {
      keys.addAll(s.keys);
      keys.add(s.leaseKey);
      if (!addLone(s, args)) {
        args.add(s.script.multiName());
        args.add(Long.toString(s.epoch));
        args.add(Integer.toString(s.keys.size()));
        args.add(Integer.toString(s.args.size()));
        args.addAll(s.args);
      }
    }
    return link.evalNow(firings ? Script.FIRE_MULTI : Script.WRITE_MULTI, keys, args, r -> r)
        .onComplete(ar -> completeAll(call, ar));
  }

  /** A firing record of at most {@value #LONE_FIRE_REQUESTS} requests: a lone section. */
  private static boolean loneFiring(Section s) {
    return s.script == Script.FIRE && s.keys.size() == FIRE_KEYS && s.args.size() % FIRE_REQUEST_ARGS == 0
        && s.args.size() <= LONE_FIRE_REQUESTS * FIRE_REQUEST_ARGS;
  }

  /**
   * Adds {@code s} to a {@code write_multi.lua} call's arguments as a lone section ({@code lone.lua},
   * {@code lone_fire.lua}: its tag, its epoch, its arguments; its keys are its script's) if it is one: a create of one
   * timer (tag {@code c}, without create_absent.lua's counts and repeated id), of one topic's timers ({@code g},
   * create_absent.lua's arguments after the group count), a touch ({@code u}, update.lua's arguments) or a firing
   * record of at most {@value #LONE_FIRE_REQUESTS} requests (its request count, fire.lua's arguments). Returns whether
   * it was.
   */
  private static boolean addLone(Section s, List<Object> args) {
    List<?> a = s.args;
    if (loneFiring(s)) {
      args.add(Integer.toString(a.size() / FIRE_REQUEST_ARGS));
      args.add(Long.toString(s.epoch));
      args.addAll(a);
    } else if (s.script == Script.CREATE_ABSENT && s.keys.size() == TIMER_KEYS && a.size() == LONE_CREATE_ARGS) {
      args.add("c");    // a is 1, topic, paused, 1, id, 0, member, id, record
      args.add(Long.toString(s.epoch));
      args.add(a.get(1));
      args.add(a.get(2));
      args.add(a.get(4));
      args.add(a.get(6));
      args.add(a.get(8));
    } else if (s.script == Script.CREATE_ABSENT && s.keys.size() == TIMER_KEYS && "1".equals(a.get(0))) {
      args.add("g");    // a is 1 (one group), then the group: topic, paused, k, the chunks
      args.add(Long.toString(s.epoch));
      args.addAll(a.subList(1, a.size()));
    } else if (s.script == Script.UPDATE && s.keys.size() == TIMER_KEYS && a.size() == UPDATE_ARGS) {
      args.add("u");
      args.add(Long.toString(s.epoch));
      args.addAll(a);
    } else {
      return false;
    }
    return true;
  }

  /** Completes each section of {@code call} from the reply of its script call (one flat array, see section). */
  private void completeAll(List<Section> call, AsyncResult<Response> ar) {
    for (int i = 0; i < call.size(); i++) {
      Section s = call.get(i);
      if (ar.failed()) {
        complete(s, Future.failedFuture(ar.cause()));
        continue;
      }
      complete(s, section(s, ar.result(), i));
    }
  }

  /**
   * Section {@code i}'s outcome in {@code write_multi.lua}'s reply: a flat array, per section its status, then its
   * reply (which may be nil).
   */
  private Future<Response> section(Section s, Response reply, int i) {
    Response st = reply == null || reply.size() <= 2 * i ? null : reply.get(2 * i);
    String status = st == null ? null : st.toString();
    if ("OK".equals(status)) {
      return Future.succeededFuture(reply.size() <= 2 * i + 1 ? null : reply.get(2 * i + 1));
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
