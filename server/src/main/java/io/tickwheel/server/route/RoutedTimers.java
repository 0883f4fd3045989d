package io.tickwheel.server.route;

import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.cluster.PartitionOwners;
import io.tickwheel.server.scheduler.Ids;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A cluster node's {@link Timers}: each call goes to the partition of its id ({@link PartitionOwners#partitionOf}):
 * a partition this node serves → its {@link Scheduler} (through its pipeline for {@link #pipelined()}); another →
 * forwarded to its owner ({@link Forwarder}), whose answer becomes the same domain outcome ({@link ForwardedAnswers}).
 * Batches are split by partition: one scheduler call per local partition, one forwarded sub-batch per owner, all in
 * parallel, outcomes merged back in request order; the JSON of forwarded sub-batches is encoded and decoded on the
 * codec workers, as the batch endpoint's own. Listings read every partition's store ({@link MergedListing});
 * the topic listing asks each owner for its partitions' counts and sums them; topic pauses go through
 * {@link ClusterTopics}.
 *
 * <p>Routing refusals: no live owner → {@link Refusal.Unrouted} (503, Retry-After 1); a call another node forwarded
 * here ({@link #direct()}) for a partition this node does not serve → {@link Refusal.NotOwner} (503, Retry-After 1),
 * never forwarded again, so a call never loops; the forward cap full, an owner unreachable or too slow →
 * {@link Refusal.Unrouted}.
 *
 * <p>Between owners: a single call, or a batch's items, refused because their partition was between owners, with
 * nothing applied (see {@link #betweenOwners}: no live owner; fenced; just taken and still recovering; the owner it
 * was sent to no longer serves it), is routed again after
 * {@link #REROUTE_DELAYS_MS} (775 ms in all) before that refusal is answered, so a hand-over, which takes about a tenth
 * of a second, is a short wait for the caller rather than a 503. At most {@link #MAX_REROUTING} calls (a batch counts
 * as one) wait at once (the others are answered at once). A call another node forwarded here is answered at once: that
 * node waits.
 *
 * <p><b>Owner context only</b> (the node's event loop, where its partition schedulers run); futures complete there and
 * never fail.
 */
final class RoutedTimers implements Timers {

  private final PartitionOwners owners;
  private final Forwarder forwarder;
  private final MergedListing listing;
  private final ClusterTopics topics;
  private final LongSupplier clock;
  private final RouteMetrics metrics;
  private final WorkerExecutor codec;
  private final ForwardBatcher batcher;
  private final boolean pipelined;
  private final boolean direct;
  private final RoutedTimers plain;
  /** Calls (a batch counts as one) waiting to be routed again (counted on {@link #plain}, shared by the views). */
  private int rerouting;
  private RoutedTimers pipelinedView;
  private RoutedTimers directView;

  /**
   * @param reader partition {@code p}'s store for reading ({@code ClusterCoordinator.partitionReader}); kept open
   * @param clock  the node's clock, epoch ms
   * @param codec  the workers that encode forwarded sub-batches and decode their answers (off the event loop)
   */
  public RoutedTimers(PartitionOwners owners, Forwarder forwarder, IntFunction<TimerStore> reader, ClusterTopics topics,
      LongSupplier clock, RouteMetrics metrics, WorkerExecutor codec) {
    this(owners, forwarder, new MergedListing(owners.partitions(), reader), topics, clock, metrics, codec,
        new ForwardBatcher(forwarder.vertx(), forwarder, metrics, FORWARD_BATCH_ITEMS, FORWARD_BATCHES_IN_FLIGHT,
            FORWARD_QUEUED), false, false, null);
  }

  /** The waits before a call (or a batch's items) refused between owners is routed again, ms (775 in all). */
  static final long[] REROUTE_DELAYS_MS = {25, 50, 100, 200, 400};
  /** Most calls (a batch counts as one) waiting to be routed again at once; beyond, the refusal is answered at once. */
  static final int MAX_REROUTING = 10_000;

  /** Forwarded single creates/touches per batch request, such requests in flight per owner, calls waiting in all. */
  static final int FORWARD_BATCH_ITEMS = 1000;
  static final int FORWARD_BATCHES_IN_FLIGHT = 2;
  static final int FORWARD_QUEUED = 20_000;

  private RoutedTimers(PartitionOwners owners, Forwarder forwarder, MergedListing listing, ClusterTopics topics,
      LongSupplier clock, RouteMetrics metrics, WorkerExecutor codec, ForwardBatcher batcher, boolean pipelined,
      boolean direct, RoutedTimers plain) {
    this.batcher = batcher;
    this.owners = owners;
    this.forwarder = forwarder;
    this.listing = listing;
    this.topics = topics;
    this.clock = clock;
    this.metrics = metrics;
    this.codec = codec;
    this.pipelined = pipelined;
    this.direct = direct;
    this.plain = plain == null ? this : plain;
  }

  @Override
  public Timers pipelined() {
    if (pipelined) {
      return this;
    }
    if (pipelinedView == null) {
      pipelinedView = new RoutedTimers(owners, forwarder, listing, topics, clock, metrics, codec, batcher, true, direct,
          plain);
    }
    return pipelinedView;
  }

  @Override
  public Timers direct() {
    if (direct) {
      return this;
    }
    if (directView == null) {
      directView = new RoutedTimers(owners, forwarder, listing, topics, clock, metrics, codec, batcher, pipelined, true,
          plain);
    }
    return directView;
  }

  @Override
  public long now() {
    return clock.getAsLong();
  }

  // ------------------------------------------------------------------ single calls

  @Override
  public Future<WriteOutcome> create(TimerSpec spec) {
    TimerSpec s = spec.id() != null ? spec : spec.withId(freshId());    // the id decides the partition
    return batched(s.id(), x -> pipelined ? x.pipeline().create(s) : x.create(s),
        owner -> batcher.create(owner, s));
  }

  /** Most random ids drawn for a timer without one before settling for one this node does not serve. */
  static final int LOCAL_ID_TRIES = 32;

  /**
   * A fresh id for a timer created without one: one of a partition this node serves, when it serves any (so the
   * create is not forwarded; with k of n partitions served, n/k draws on average), else any.
   */
  private String freshId() {
    String id = Ids.random();
    for (int i = 1; i < LOCAL_ID_TRIES && owners.local(owners.partitionOf(id)) == null; i++) {
      id = Ids.random();
    }
    return id;
  }

  @Override
  public Future<WriteOutcome> upsert(TimerSpec spec) {
    return write(spec.id(), x -> pipelined ? x.pipeline().upsert(spec) : x.upsert(spec), new InternalCall.Upsert(spec));
  }

  @Override
  public Future<ReadOutcome> get(String id) {
    return rerouted(owners.partitionOf(id), () -> route(id), 0);
  }

  private Future<ReadOutcome> route(String id) {
    int p = owners.partitionOf(id);
    Scheduler s = owners.local(p);
    if (s != null) {
      metrics.routed("local", 1);
      return s.get(id);
    }
    Refusal r = unroutable(p);
    if (r != null) {
      return Future.succeededFuture(r);
    }
    InternalCall call = new InternalCall.OnTimer(InternalCall.Op.GET, id);
    return forwarder.send(owners.ownerAddress(p), InternalCodec.encode(call)).transform(ar -> Future.succeededFuture(
        ar.failed() ? failed(ar.cause(), false) : forwarded(ForwardedAnswers.read(call, id, ar.result()))));
  }

  @Override
  public Future<WriteOutcome> cancel(String id) {
    return write(id, x -> pipelined ? x.pipeline().cancel(id) : x.cancel(id),
        new InternalCall.OnTimer(InternalCall.Op.CANCEL, id));
  }

  @Override
  public Future<WriteOutcome> touch(String id, Long delayOverride) {
    return batched(id, x -> pipelined ? x.pipeline().touch(id, delayOverride) : x.touch(id, delayOverride),
        owner -> batcher.touch(owner, id, delayOverride));
  }

  @Override
  public Future<WriteOutcome> pause(String id) {
    return write(id, x -> x.pause(id), new InternalCall.OnTimer(InternalCall.Op.PAUSE, id));
  }

  @Override
  public Future<WriteOutcome> resume(String id) {
    return write(id, x -> x.resume(id), new InternalCall.OnTimer(InternalCall.Op.RESUME, id));
  }

  @Override
  public Future<WriteOutcome> fireNow(String id) {
    return write(id, x -> x.fireNow(id), new InternalCall.OnTimer(InternalCall.Op.FIRE, id));
  }

  /** A write of one id: its local scheduler, or {@code call} forwarded to its owner. */
  private Future<WriteOutcome> write(String id, Function<Scheduler, Future<WriteOutcome>> local, InternalCall call) {
    return batched(id, local, owner -> forwarder.send(owner, InternalCodec.encode(call)).transform(ar ->
        Future.succeededFuture(ar.failed() ? failed(ar.cause(), true)
            : forwarded(ForwardedAnswers.write(call, id, ar.result())))));
  }

  /**
   * A write of one id: its local scheduler, or {@code forward} to its owner's address (a call of its own, or, for
   * creates and touches, gathered with others into a batch call).
   */
  private Future<WriteOutcome> batched(String id, Function<Scheduler, Future<WriteOutcome>> local,
      Function<String, Future<WriteOutcome>> forward) {
    return rerouted(owners.partitionOf(id), () -> route(id, local, forward), 0);
  }

  private Future<WriteOutcome> route(String id, Function<Scheduler, Future<WriteOutcome>> local,
      Function<String, Future<WriteOutcome>> forward) {
    int p = owners.partitionOf(id);
    Scheduler s = owners.local(p);
    if (s != null) {
      metrics.routed("local", 1);
      return local.apply(s);
    }
    Refusal r = unroutable(p);
    if (r != null) {
      return Future.succeededFuture(r);
    }
    return forward.apply(owners.ownerAddress(p));
  }

  /**
   * {@code attempt}'s outcome, or, while it is a refusal of partition {@code p} between owners
   * ({@link #betweenOwners}), {@code attempt} again after the next of {@link #REROUTE_DELAYS_MS}; the last refusal
   * when they are spent, when this is the {@link #direct()} view, or when {@link #MAX_REROUTING} calls wait.
   */
  private <T> Future<T> rerouted(int p, Supplier<Future<T>> attempt, int tries) {
    return attempt.get().compose(o -> {
      if (!mayWait(tries) || !betweenOwners(o, p)) {
        return Future.succeededFuture(o);
      }
      refusedByOwner(o, p);
      metrics.routed("rerouted", 1);
      return after(tries, () -> rerouted(p, attempt, tries + 1));
    });
  }

  /** Whether a call refused {@code tries} times may wait to be routed again (see {@link #REROUTE_DELAYS_MS}). */
  private boolean mayWait(int tries) {
    return !direct && tries < REROUTE_DELAYS_MS.length && plain.rerouting < MAX_REROUTING;
  }

  /** {@code again}'s outcome, run after the {@code tries}-th wait, the call counted as waiting meanwhile. */
  private <T> Future<T> after(int tries, Supplier<Future<T>> again) {
    plain.rerouting++;
    Promise<T> next = Promise.promise();
    forwarder.vertx().setTimer(REROUTE_DELAYS_MS[tries], t -> {
      plain.rerouting--;
      again.get().onComplete(next);
    });
    return next.future();
  }

  /**
   * Whether {@code o} refuses a call of partition {@code p} because the partition was between owners, nothing
   * applied: fenced here ({@link Refusal.NotOwner}); taken here so lately that it is still being recovered
   * ({@link Refusal.Recovering}); the node it was sent to answered a 503 that says "not applied" (no longer its
   * owner, still recovering it, or its store out of reach for a moment; the message decides, as the clients'
   * {@code mayHaveApplied} does); no live owner, and still none now.
   */
  private boolean betweenOwners(Object o, int p) {
    if (o instanceof Refusal.NotOwner || o instanceof Refusal.Recovering) {
      return true;                               // fenced; a partition just taken, still reading its window
    }
    if (o instanceof Refusal.Remote r) {
      return r.status() == 503 && "unavailable".equals(r.code()) && r.message() != null
          && r.message().contains("not applied");
    }
    return o instanceof Refusal.Unrouted u && !u.mayHaveApplied() && owners.local(p) == null
        && owners.ownerAddress(p) == null;
  }

  /**
   * A call of partition {@code p}, about to be routed again, was refused by the node it was forwarded to: what this
   * node knows of {@code p}'s owner may have moved on ({@link PartitionOwners#ownerRefused}).
   */
  private void refusedByOwner(Object o, int p) {
    if (o instanceof Refusal.Remote) {
      owners.ownerRefused(p);
    }
  }

  /** Why partition {@code p} (not served here) cannot be forwarded, or {@code null} if it can. */
  private Refusal unroutable(int p) {
    if (direct) {
      metrics.routed("not_owner", 1);
      return new Refusal.NotOwner(p);
    }
    if (owners.ownerAddress(p) == null) {
      metrics.routed("no_owner", 1);
      return new Refusal.Unrouted("no live node holds partition " + p + " now (a take-over is under way)", false);
    }
    return null;
  }

  private <T> T forwarded(T outcome) {
    metrics.routed("forwarded", 1);
    return outcome;
  }

  private Refusal failed(Throwable e, boolean write) {
    if (e instanceof Forwarder.Failure f) {
      metrics.routed(f.outcome, 1);
      return new Refusal.Unrouted(f.getMessage(), write && f.mayHaveApplied);
    }
    System.getLogger(RoutedTimers.class.getName()).log(System.Logger.Level.ERROR, "forwarding failed", e);
    metrics.routed("unreachable", 1);
    return new Refusal.Unrouted("forwarding failed: " + e, write);
  }

  // ------------------------------------------------------------------ batches

  @Override
  public Future<List<WriteOutcome>> createAll(List<TimerSpec> specs) {
    List<TimerSpec> withIds = new ArrayList<>(specs.size());
    for (TimerSpec s : specs) {
      withIds.add(s.id() != null ? s : s.withId(freshId()));
    }
    return rerouted(withIds, TimerSpec::id, sub -> split(sub, TimerSpec::id, Scheduler::createAll,
        InternalCodec::specText, null, InternalCall.CreateAll::new, InternalCodec.batchPrefix(false)), 0);
  }

  @Override
  public Future<List<WriteOutcome>> restoreAll(List<io.tickwheel.core.model.Timer> timers) {
    return rerouted(timers, io.tickwheel.core.model.Timer::id, sub -> split(sub, io.tickwheel.core.model.Timer::id,
        Scheduler::restoreAll, InternalCodec::stateText, null, InternalCall.RestoreAll::new,
        InternalCodec.RESTORE_PREFIX), 0);
  }

  @Override
  public Future<List<WriteOutcome>> touchAll(List<String> ids, Long delayOverride) {
    return rerouted(ids, id -> id, sub -> split(sub, id -> id, (s, part) -> s.touchAll(part, delayOverride),
        InternalCodec::idText, delayOverride, part -> new InternalCall.TouchAll(part, delayOverride),
        InternalCodec.batchPrefix(true)), 0);
  }

  /**
   * A batch's outcomes by {@code attempt}; its items refused between owners ({@link #betweenOwners}) are sent again,
   * as a batch of their own, after the next of {@link #REROUTE_DELAYS_MS}, their new outcomes put in their places
   * (as {@link #rerouted(int, Supplier, int)} does for a single call; one waiting batch counts as one call).
   */
  private <T> Future<List<WriteOutcome>> rerouted(List<T> items, Function<T, String> idOf,
      Function<List<T>, Future<List<WriteOutcome>>> attempt, int tries) {
    return attempt.apply(items).compose(outs -> {
      List<Integer> again = new ArrayList<>();
      if (mayWait(tries)) {
        for (int i = 0; i < outs.size(); i++) {
          int p = owners.partitionOf(idOf.apply(items.get(i)));
          if (betweenOwners(outs.get(i), p)) {
            refusedByOwner(outs.get(i), p);
            again.add(i);
          }
        }
      }
      if (again.isEmpty()) {
        return Future.succeededFuture(outs);
      }
      metrics.routed("rerouted", again.size());
      return after(tries, () -> rerouted(pick(items, again), idOf, attempt, tries + 1)).map(sub -> {
        List<WriteOutcome> merged = new ArrayList<>(outs);
        for (int k = 0; k < again.size(); k++) {
          merged.set(again.get(k), sub.get(k));
        }
        return merged;
      });
    });
  }

  /** Items of one forwarded sub-batch (their indexes in the request), its body and its call. */
  private record Chunk(List<Integer> idx, Buffer body, InternalCall call) {}

  /** Largest forwarded body: the internal route's body limit, less a margin. */
  private static final long MAX_FORWARD_BYTES = InternalCodec.MAX_BODY_BYTES - 4096;

  /**
   * Splits a batch by partition: each local partition's items through one scheduler call, each owner's items as one
   * forwarded sub-batch (more than one only if its JSON would pass the receiving node's body limit), in parallel; the
   * outcomes merged back in request order.
   *
   * @param item  an item's text in a forwarded body (pure; runs on the codec workers)
   * @param delay a touch batch's override ({@code null}: none, or not a touch batch)
   * @param call  the call of a sub-batch's items
   * @param prefix the text of a forwarded body before its first item
   */
  private <T> Future<List<WriteOutcome>> split(List<T> items, Function<T, String> idOf,
      BiFunction<Scheduler, List<T>, Future<List<WriteOutcome>>> local, Function<T, String> item,
      Long delay, Function<List<T>, InternalCall> call, String prefix) {
    String suffix = InternalCodec.batchSuffix(delay);
    WriteOutcome[] out = new WriteOutcome[items.size()];
    Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
    Map<String, List<Integer>> byOwner = new LinkedHashMap<>();
    Map<Integer, Refusal> unroutable = new HashMap<>();
    for (int i = 0; i < items.size(); i++) {
      int p = owners.partitionOf(idOf.apply(items.get(i)));
      if (owners.local(p) != null) {
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(i);
      } else if (direct || owners.ownerAddress(p) == null) {
        out[i] = unroutable.computeIfAbsent(p, this::unroutable);
      } else {
        byOwner.computeIfAbsent(owners.ownerAddress(p), k -> new ArrayList<>()).add(i);
      }
    }
    List<Future<Void>> parts = new ArrayList<>(byPartition.size() + byOwner.size());
    byPartition.forEach((p, idx) -> {
      metrics.routed("local", idx.size());
      parts.add(local.apply(owners.local(p), pick(items, idx)).map(os -> fill(out, idx, os)));
    });
    byOwner.forEach((addr, idx) -> {
      List<T> sub = pick(items, idx);
      parts.add(codec.executeBlocking(() -> chunks(sub, idx, item, prefix, suffix, call), false).compose(chunks -> {
        List<Future<Void>> sent = new ArrayList<>(chunks.size());
        for (Chunk c : chunks) {
          List<String> ids = new ArrayList<>(c.idx().size());
          c.idx().forEach(i -> ids.add(idOf.apply(items.get(i))));
          sent.add(forwarder.send(addr, c.body())
              .compose(answer -> codec.executeBlocking(() -> ForwardedAnswers.items(c.call(), ids, answer), false))
              .transform(ar -> {
                Object got = ar.failed() ? failed(ar.cause(), true) : ar.result();
                if (got instanceof Refusal r) {
                  c.idx().forEach(i -> out[i] = r);
                } else {
                  @SuppressWarnings("unchecked")
                  List<WriteOutcome> os = (List<WriteOutcome>) got;
                  fill(out, c.idx(), os);
                  metrics.routed("forwarded", c.idx().size());
                }
                return Future.<Void>succeededFuture();
              }));
        }
        return Future.join(sent).<Void>mapEmpty();
      }).recover(e -> {
        Refusal r = failed(e, true);
        idx.forEach(i -> out[i] = out[i] == null ? r : out[i]);
        return Future.succeededFuture();
      }));
    });
    return Future.join(parts).transform(ar -> Future.succeededFuture(Arrays.asList(out)));
  }

  /** The forwarded bodies of one owner's items, each under {@link #MAX_FORWARD_BYTES}. Any thread (pure). */
  private static <T> List<Chunk> chunks(List<T> sub, List<Integer> idx, Function<T, String> item, String prefix,
      String suffix, Function<List<T>, InternalCall> call) {
    List<Chunk> out = new ArrayList<>(1);
    StringBuilder sb = new StringBuilder(64 + 160 * sub.size()).append(prefix);
    List<Integer> in = new ArrayList<>();
    List<T> inItems = new ArrayList<>();
    long bytes = prefix.length() + suffix.length();
    for (int k = 0; k < sub.size(); k++) {
      String text = item.apply(sub.get(k));
      long len = ForwardBatcher.utf8Length(text) + 1L;
      if (!in.isEmpty() && bytes + len > MAX_FORWARD_BYTES) {
        out.add(new Chunk(in, Buffer.buffer(sb.append(suffix).toString()), call.apply(inItems)));
        sb.setLength(0);
        sb.append(prefix);
        in = new ArrayList<>();
        inItems = new ArrayList<>();
        bytes = prefix.length() + suffix.length();
      }
      (in.isEmpty() ? sb : sb.append(',')).append(text);
      in.add(idx.get(k));
      inItems.add(sub.get(k));
      bytes += len;
    }
    out.add(new Chunk(in, Buffer.buffer(sb.append(suffix).toString()), call.apply(inItems)));
    return out;
  }


  private static <T> List<T> pick(List<T> items, List<Integer> idx) {
    List<T> sub = new ArrayList<>(idx.size());
    idx.forEach(i -> sub.add(items.get(i)));
    return sub;
  }

  private static Void fill(WriteOutcome[] out, List<Integer> idx, List<WriteOutcome> os) {
    for (int k = 0; k < idx.size(); k++) {
      out[idx.get(k)] = os.get(k);
    }
    return null;
  }

  // ------------------------------------------------------------------ listings and topics

  @Override
  public Future<ReadOutcome> list(String topic, TimerCursor after, int limit) {
    return listing.page(topic, after, limit);
  }

  @Override
  public Future<ReadOutcome> topics(String after, int limit, String only) {
    TreeMap<String, long[]> merged = new TreeMap<>();        // name → {pending, paused 0/1}, at most limit names
    Set<String> remote = new LinkedHashSet<>();
    Set<Scheduler> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    List<Future<ReadOutcome>> locals = new ArrayList<>();
    for (int p = 0; p < owners.partitions(); p++) {
      Scheduler s = owners.local(p);
      if (s != null) {
        if (seen.add(s)) {
          locals.add(LocalTimers.topicsOf(s, after, limit, only));
        }
      } else if (!direct && owners.ownerAddress(p) != null) {
        remote.add(owners.ownerAddress(p));
      }
    }
    InternalCall call = new InternalCall.Topics(after, limit, only);
    Buffer body = remote.isEmpty() ? null : InternalCodec.encode(call);
    List<Future<Object>> asked = new ArrayList<>(remote.size());
    for (String addr : remote) {
      asked.add(forwarder.send(addr, body).transform(ar -> Future.succeededFuture(
          ar.failed() ? failed(ar.cause(), false) : ForwardedAnswers.topics(call, ar.result()))));
    }
    return Future.join(new ArrayList<Future<?>>(locals)).transform(l -> Future.join(asked)).transform(ar -> {
      for (Future<ReadOutcome> f : locals) {
        ReadOutcome got = f.result();
        if (got instanceof Refusal r) {
          return Future.succeededFuture(r);        // a partial count would differ from node to node: refuse instead
        }
        add(merged, ((ReadOutcome.Topics) got).topics(), limit);
      }
      for (Future<Object> f : asked) {
        Object got = f.result();
        if (got instanceof Refusal r) {
          return Future.succeededFuture(r);
        }
        @SuppressWarnings("unchecked")
        List<TopicInfo> list = (List<TopicInfo>) got;
        add(merged, list, limit);
      }
      if (!asked.isEmpty()) {
        metrics.routed("forwarded", asked.size());
      }
      return Future.succeededFuture(new ReadOutcome.Topics(infos(merged)));
    });
  }

  private static void add(TreeMap<String, long[]> merged, List<TopicInfo> page, int limit) {
    for (TopicInfo t : page) {
      long[] v = merged.computeIfAbsent(t.topic(), k -> new long[2]);
      v[0] += t.pending();
      v[1] |= t.paused() ? 1 : 0;
      if (merged.size() > limit) {
        merged.pollLastEntry();
      }
    }
  }

  private static List<TopicInfo> infos(TreeMap<String, long[]> merged) {
    List<TopicInfo> out = new ArrayList<>(merged.size());
    merged.forEach((name, v) -> out.add(new TopicInfo(name, v[0], v[1] != 0)));
    return out;
  }

  @Override
  public Future<WriteOutcome> pauseTopic(String topic) {
    return setTopic(topic, true);
  }

  @Override
  public Future<WriteOutcome> resumeTopic(String topic) {
    return setTopic(topic, false);
  }

  private Future<WriteOutcome> setTopic(String topic, boolean paused) {
    return topics.set(topic, paused).compose(refused -> {
      if (refused != null) {
        return Future.succeededFuture(refused);
      }
      return plain.topics(null, 1, topic).map(listed -> {
        if (listed instanceof Refusal r) {
          return r;
        }
        List<TopicInfo> t = ((ReadOutcome.Topics) listed).topics();
        return new WriteOutcome.TopicChanged(t.isEmpty() ? new TopicInfo(topic, 0, paused)
            : new TopicInfo(topic, t.get(0).pending(), paused));
      });
    });
  }
}
