package io.tickwheel.server.push;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.server.cluster.Broadcast;
import io.tickwheel.server.cluster.BroadcastCodec;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A cluster node's feed: every partition's firing log, read through
 * {@link ClusterCoordinator#partitionReader(int)} whichever node owns the partition, and tailed into the hub, so
 * every node's subscribers get every partition's firings, each once, in seq order per partition.
 *
 * <h2>Push</h2>
 * The feed keeps, per partition, the last seq it published to the hub. The owner publishes the firings it records
 * into its own hub through {@link #recorded}, and pushes them to the other nodes ({@link ClusterFiringSink},
 * {@link FiringPusher}), each node getting the firings of the topics it announced
 * ({@link Broadcast.Interest}: this feed announces what its hub's subscribers want, on every change and every
 * {@value #ANNOUNCE_MS} ms) with the stretch of the log they cover. A pushed stretch that follows what was published
 * is published at once, without a read ({@link #onPush}), unless the wanted topics grew since the version it was
 * chosen by (then it is read). Each partition is published on its own, in seq order: an idle partition holds up no
 * other.
 *
 * <h2>Tailing</h2>
 * Without a pusher the owner broadcasts what it records ({@link Broadcast.Firings}): when it follows what was
 * published it is published at once, without a read.
 * Otherwise the feed reads a partition after its position
 * ({@code readFirings(known, readBatch)}) when a {@link Broadcast.FiringsRecorded} broadcast (or an unusable
 * {@link Broadcast.Firings} one) says the log grew
 * ({@link #onBroadcast}, to be called with every broadcast the node gets; other messages are ignored). A read that
 * came back full, or a hint beyond what it read, queues the partition again.
 *
 * <h2>Sweep</h2>
 * Hints and pushes may be lost; the log is the truth. Every {@code catchUpMs} the feed reads every partition's last
 * seq in one call ({@link ClusterCoordinator#lastSeqs}) and reads the log of each partition it has still not
 * published up to the last seq the previous sweep saw: a partition is read once it has been behind for a whole
 * period, so a firing whose push is merely in flight costs no read, and a lost one is published within two periods.
 * {@link #catchUp} (a subscriber waiting for the feed) reads every partition behind its last seq at once.
 *
 * <h2>Idle</h2>
 * While the hub has no subscriber the feed reads nothing: a hint only moves the hub's position on
 * ({@link FiringHub#skipTo}), so a node nobody listens to costs Redis no reads (each node used to read every firing
 * of every partition). A subscription made then starts from that position (live) or replays from its cursor through
 * {@link #read}; the reading resumes at the next hint or sweep, from the last position.
 *
 * <h2>Bounds</h2>
 * At most one read per partition and {@code maxReadsInFlight} reads in all are in flight; each completes in its own
 * turn and publishes at most {@code readBatch} firings; the partitions waiting for a read are a set (at most
 * {@code partitions} entries), so repeated hints cost nothing.
 *
 * <p>Not thread safe: the hub's owner context only (the constructor may run anywhere).
 */
public final class ClusterFiringFeed implements FiringFeed {

  static final System.Logger LOG = System.getLogger(ClusterFiringFeed.class.getName());

  /** Default period of the sweep (one read of every partition's last seq), ms. */
  public static final long DEFAULT_CATCH_UP_MS = 500;
  /** Default firings per tail read. */
  public static final int DEFAULT_READ_BATCH = 512;
  /** Default reads in flight. */
  public static final int DEFAULT_MAX_READS_IN_FLIGHT = 8;

  private final Vertx vertx;
  private final ClusterCoordinator coordinator;
  private final Future<?> joined;
  /** Partition readers, taken on first use (a coordinator hands them out only once the node joined). */
  private final TimerStore[] readers;
  private final long catchUpMs;
  private final int readBatch;
  private final int maxReadsInFlight;

  private final long[] known;
  private final long[] hinted;
  private final boolean[] reading;
  private final boolean[] queued;
  private final ArrayDeque<Integer> queue = new ArrayDeque<>();
  private int inFlight;
  /** The partitions' last seqs as the previous sweep read them (null before the first). */
  private long[] swept;
  /** Whether a read of the last seqs is in flight (at most one). */
  private boolean endsInFlight;
  private FiringHub hub;

  // push (see "Push"): null until enabled
  private FiringPusher pusher;
  private String address;
  /** This node's interest version: starts at a value no earlier run of the node reached (its start time, µs). */
  private long version = System.currentTimeMillis() * 1000;
  /** The version at which the wanted topics last grew: a push chosen by an older version may lack some. */
  private long grownAt;
  private boolean announcedAll;
  private Set<String> announcedTopics = Set.of();
  private boolean interestQueued;
  private long announceTimer = -1;
  private long timer = -1;
  private boolean closed;
  /** Reads issued (tests and metrics; written on the context only, volatile so a test thread sees it). */
  volatile long reads;
  /** Sweeps whose read of the last seqs succeeded (tests; written on the context only). */
  volatile long sweeps;
  /**
   * Firings published straight from broadcasts, without a read (tests and metrics; written on the context only, before
   * the firings are published, so a subscriber that received them sees them counted).
   */
  volatile long pushed;

  /**
   * The feed of a cluster node, with the default sweep period, read batch and reads in flight.
   *
   * @param joined completes once the node joined the cluster (the coordinator hands out partition readers only
   *               then): the hub's start waits for it
   */
  public ClusterFiringFeed(Vertx vertx, ClusterCoordinator coordinator, int partitions, Future<?> joined) {
    this(vertx, coordinator, partitions, DEFAULT_CATCH_UP_MS, DEFAULT_READ_BATCH, DEFAULT_MAX_READS_IN_FLIGHT, joined);
  }

  /** As the node's constructor, on a coordinator the node has already joined. */
  public ClusterFiringFeed(Vertx vertx, ClusterCoordinator coordinator, int partitions, long catchUpMs, int readBatch,
      int maxReadsInFlight) {
    this(vertx, coordinator, partitions, catchUpMs, readBatch, maxReadsInFlight, Future.succeededFuture());
  }

  /**
   * @param partitions       the cluster's partition count
   * @param catchUpMs        the sweep's period, ms ({@code > 0}): a partition whose hints and pushes were lost is
   *                         read within two periods
   * @param readBatch        firings per read ({@code > 0})
   * @param maxReadsInFlight reads in flight at most ({@code > 0})
   */
  public ClusterFiringFeed(Vertx vertx, ClusterCoordinator coordinator, int partitions, long catchUpMs, int readBatch,
      int maxReadsInFlight, Future<?> joined) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.joined = Objects.requireNonNull(joined, "joined");
    if (partitions < 1 || catchUpMs <= 0 || readBatch <= 0 || maxReadsInFlight <= 0) {
      throw new IllegalArgumentException("partitions, catchUpMs, readBatch and maxReadsInFlight must be > 0, were "
          + partitions + ", " + catchUpMs + ", " + readBatch + ", " + maxReadsInFlight);
    }
    this.readers = new TimerStore[partitions];
    this.catchUpMs = catchUpMs;
    this.readBatch = readBatch;
    this.maxReadsInFlight = maxReadsInFlight;
    this.known = new long[partitions];
    this.hinted = new long[partitions];
    this.reading = new boolean[partitions];
    this.queued = new boolean[partitions];
  }

  @Override
  public int partitions() {
    return readers.length;
  }

  @Override
  public boolean clustered() {
    return true;
  }

  /**
   * Every partition's last seq, read {@code maxReadsInFlight} partitions at a time once the node joined; retried
   * every {@link #ENDS_RETRY_MS} until it succeeds or the feed is closed (tailing from anything else would push
   * whole logs to live subscribers).
   */
  @Override
  public Future<long[]> ends() {
    Promise<long[]> done = Promise.promise();
    tryEnds(done);
    return done.future();
  }

  /** How long to wait before reading the partitions' ends again after a failure, ms. */
  static final long ENDS_RETRY_MS = 1_000;

  private void tryEnds(Promise<long[]> done) {
    readEnds().onComplete(ar -> {
      if (ar.succeeded()) {
        done.tryComplete(ar.result());
      } else if (closed || joined.failed()) {
        done.tryFail(ar.cause());
      } else {
        LOG.log(System.Logger.Level.WARNING, "reading the partitions' firing log ends failed, retrying in "
            + ENDS_RETRY_MS + " ms: " + ar.cause());
        vertx.setTimer(ENDS_RETRY_MS, id -> tryEnds(done));
      }
    });
  }

  private Future<long[]> readEnds() {
    return joined.compose(v -> coordinator.lastSeqs()).compose(ends -> ends.length == readers.length
        ? Future.succeededFuture(ends)
        : Future.failedFuture(new IllegalStateException("the coordinator has " + ends.length
            + " partitions, this feed " + readers.length)));
  }

  @Override
  public Future<List<Firing>> read(int partition, long afterSeq, int limit) {
    return reader(partition).readFirings(afterSeq, limit);
  }

  /** Starts tailing from the hub's current ends, into {@code hub}. */
  @Override
  public void attach(FiringHub hub) {
    this.hub = hub;
    for (int p = 0; p < known.length; p++) {
      known[p] = Math.max(known[p], hub.latestSeq(p));
    }
    timer = vertx.setPeriodic(catchUpMs, id -> sweep());
    if (pusher != null) {
      refreshInterest();
      announce();
      announceTimer = vertx.setPeriodic(ANNOUNCE_MS, id -> announce());
    }
  }

  /** Reads every partition's last seq, then the log of every partition behind it. */
  @Override
  public void catchUp() {
    readBehind(false);
  }

  /** The periodic sweep: reads the log of every partition still behind the last seq the previous sweep saw. */
  private void sweep() {
    readBehind(true);
  }

  /**
   * One read of the last seqs (none while the hub is idle or one is in flight), then queues each partition behind:
   * for a sweep, behind the previous sweep's last seq; else behind the one just read. A failed read queues nothing
   * (the next sweep tries again).
   */
  private void readBehind(boolean sweep) {
    if (hub == null || closed || idle() || endsInFlight) {
      return;
    }
    endsInFlight = true;
    coordinator.lastSeqs().onComplete(ar -> {
      endsInFlight = false;
      if (closed) {
        return;
      }
      if (ar.failed() || ar.result().length != known.length) {
        LOG.log(System.Logger.Level.DEBUG, "reading the partitions' last seqs failed; tried again at the next sweep",
            ar.cause());
        return;
      }
      long[] ends = ar.result();
      long[] target = sweep ? swept : ends;
      if (sweep) {
        swept = ends;
        sweeps++;
      }
      if (target == null) {
        return;
      }
      for (int p = 0; p < known.length; p++) {
        if (target[p] > known[p]) {
          hinted[p] = Math.max(hinted[p], target[p]);
          enqueue(p);
        }
      }
      pump();
    });
  }

  /**
   * A broadcast this node received ({@link BroadcastCodec}): {@link Broadcast.Firings} are published when they follow
   * what was published, else count as a hint; {@link Broadcast.FiringsRecorded} queues a read of the partition if it
   * is beyond what was published; anything else is ignored. Owner context.
   */
  public void onBroadcast(String message) {
    Broadcast b = BroadcastCodec.decode(message);
    if (b instanceof Broadcast.Interest i) {
      if (pusher != null && pusher.onInterest(i)) {
        announce(); // a node this one did not know: it may not know this node's interest either
      }
    } else if (b instanceof Broadcast.Firings f) {
      onFirings(f);
    } else if (b instanceof Broadcast.FiringsRecorded r) {
      onRecorded(r.partition(), r.lastSeq());
    }
  }

  /** Partition {@code p}'s firings are recorded up to {@code seq}. */
  private void onRecorded(int p, long seq) {
    if (p >= known.length || seq <= known[p]) {
      return;
    }
    if (idle()) {
      // nobody subscribed here: the firings are not read, the position moves on (a later subscription replays
      // from its cursor or starts live from here)
      known[p] = seq;
      hinted[p] = Math.max(hinted[p], seq);
      hub.skipTo(p, seq);
      return;
    }
    hinted[p] = Math.max(hinted[p], seq);
    enqueue(p);
    pump();
  }

  /**
   * Firings broadcast by their partition's owner: published at once when they follow what was published for the
   * partition and nobody is replaying through a read of it; else a hint for their last seq.
   */
  private void onFirings(Broadcast.Firings f) {
    int p = f.partition();
    if (p >= known.length || f.lastSeq() <= known[p] || hub == null || closed) {
      return;
    }
    if (!idle() && f.firstSeq() == known[p] + 1) {
      List<Firing> firings = BroadcastCodec.firings(f);
      if (firings != null) {
        pushed += firings.size();
        for (Firing x : firings) {
          known[p] = x.seq();
          hub.publish(p, x);
        }
        return;
      }
    }
    onRecorded(p, f.lastSeq());
  }

  /**
   * A firing this node recorded in {@code p} ({@link ClusterFiringSink}): published at once when it follows what was
   * published for the partition (nobody subscribed: the position moves on); else a hint for its seq (a read fills
   * the gap first). Before the hub is attached it is left to the sweep.
   */
  void recorded(int p, Firing f) {
    if (hub == null || closed || p < 0 || p >= known.length || f.seq() <= known[p]) {
      return;
    }
    if (f.seq() == known[p] + 1) {
      known[p] = f.seq();
      if (idle()) {
        hinted[p] = Math.max(hinted[p], f.seq());
        hub.skipTo(p, f.seq());
      } else {
        hub.publish(p, f);
      }
      return;
    }
    onRecorded(p, f.seq());
  }

  @Override
  public void close() {
    closed = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (announceTimer >= 0) {
      vertx.cancelTimer(announceTimer);
      announceTimer = -1;
    }
    queue.clear();
  }

  // ---- push ----

  /** How often this node announces its interest again, ms (announcements may be lost; new nodes learn them so). */
  public static final long ANNOUNCE_MS = 1_000;
  /** Most characters of named topics an announcement lists; beyond, it asks for every topic. */
  static final int MAX_INTEREST_CHARS = 16 * 1024;

  /**
   * Takes pushed firings ({@link #onPush}) and announces this node's interest as {@code pusher}'s node at
   * {@code address}; other nodes' announcements go to {@code pusher}. Call before the hub attaches.
   */
  public void enablePush(FiringPusher pusher, String address) {
    this.pusher = Objects.requireNonNull(pusher, "pusher");
    this.address = Objects.requireNonNull(address, "address");
  }

  /**
   * The subscribers' topics changed (the hub calls it, before any firing is offered under them): if that changes
   * what this node wants, the version moves on at once (so no push chosen before counts as complete for topics
   * added now) and the announcement goes out at the end of the task.
   */
  @Override
  public void interestChanged() {
    if (pusher != null && hub != null && !closed) {
      refreshInterest();
    }
  }

  private void refreshInterest() {
    boolean all = hub.wantsAllTopics();
    Set<String> named = all ? Set.of() : hub.wantedTopics();
    if (!all) {
      long chars = 0;
      for (String t : named) {
        chars += t.length() + 3;
      }
      all = chars > MAX_INTEREST_CHARS;
    }
    if (all == announcedAll && (all || named.equals(announcedTopics))) {
      return;
    }
    boolean grown = all ? !announcedAll : !announcedAll && !announcedTopics.containsAll(named);
    version++;
    if (grown) {
      grownAt = version;
    }
    announcedAll = all;
    announcedTopics = all ? Set.of() : Set.copyOf(named);
    if (!interestQueued) {
      interestQueued = true;
      vertx.runOnContext(v -> {
        interestQueued = false;
        announce();
      });
    }
  }

  private void announce() {
    if (pusher == null || closed) {
      return;
    }
    coordinator.broadcast(BroadcastCodec.encode(new Broadcast.Interest(pusher.nodeId(), address, version,
        announcedAll, new ArrayList<>(announcedTopics))));
  }

  /**
   * Firings another node pushed ({@link FiringPusher}): per partition, a stretch of its log, with the firings of
   * the topics this node wanted in the push's version. A stretch that follows what was published is published (the
   * firings given, the rest passed over) when the push's version is no older than the last growth of the wanted
   * topics; otherwise it counts as a hint (the log is read past what was published). With nobody subscribed only
   * the positions move on. Owner context.
   */
  public void onPush(FiringPush push) {
    if (hub == null || closed || (pusher != null && push.node().equals(pusher.nodeId()))) {
      return;
    }
    boolean complete = push.version() >= grownAt;
    for (FiringPush.Part part : push.parts()) {
      int p = part.partition();
      if (p >= known.length || part.upTo() <= known[p]) {
        continue;
      }
      if (idle()) {
        known[p] = part.upTo();
        hinted[p] = Math.max(hinted[p], part.upTo());
        hub.skipTo(p, part.upTo());
        continue;
      }
      if (part.after() > known[p] || !complete) {
        onRecorded(p, part.upTo());
        continue;
      }
      for (Firing f : part.firings()) {
        if (f.seq() > known[p]) {
          known[p] = f.seq();
          pushed++;
          hub.publish(p, f);
        }
      }
      if (part.upTo() > known[p]) {
        known[p] = part.upTo();
        hub.skipTo(p, part.upTo());
      }
    }
  }

  /**
   * Registers its meters: {@code tickwheel.cluster.feed.reads} (firing-log reads) and
   * {@code tickwheel.cluster.feed.firings.pushed} (firings published as another node pushed or broadcast them).
   */
  public void meters(io.micrometer.core.instrument.MeterRegistry r) {
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.feed.reads", this, x -> x.reads)
        .description("Reads of partitions' firing logs by the cluster stream").register(r);
    io.micrometer.core.instrument.FunctionCounter.builder("tickwheel.cluster.feed.firings.pushed", this,
        x -> x.pushed).description("Firings published as another node pushed them, without a read").register(r);
  }

  /** The last seq published to the hub for partition {@code p} (tests). */
  long known(int p) {
    return known[p];
  }

  private TimerStore reader(int p) {
    TimerStore r = readers[p];
    if (r == null) {
      r = readers[p] = coordinator.partitionReader(p);
    }
    return r;
  }

  private void enqueue(int p) {
    if (!queued[p] && !closed) {
      queued[p] = true;
      queue.add(p);
    }
  }

  /** Whether the hub has no subscriber: then the feed reads nothing (it follows the hints' positions only). */
  private boolean idle() {
    return hub != null && hub.subscribers() == 0;
  }

  private void pump() {
    if (idle()) {
      return;        // the queued partitions are read when a subscriber comes (next hint or sweep)
    }
    while (hub != null && !closed && inFlight < maxReadsInFlight && !queue.isEmpty()) {
      int p = queue.poll();
      queued[p] = false;
      if (reading[p]) {
        continue; // its read's completion queues it again if needed
      }
      reading[p] = true;
      inFlight++;
      reads++;
      long after = known[p];
      reader(p).readFirings(after, readBatch).onComplete(ar -> {
        reading[p] = false;
        inFlight--;
        if (closed) {
          return;
        }
        if (ar.failed()) {
          LOG.log(System.Logger.Level.DEBUG, "reading partition " + p + "'s firing log failed; retried at the "
              + "next sweep that finds it still behind", ar.cause());
        } else {
          List<Firing> batch = ar.result();
          for (Firing f : batch) {
            if (f.seq() > known[p]) {
              known[p] = f.seq();
              hub.publish(p, f);
            }
          }
          if (batch.size() >= readBatch || (hinted[p] > known[p] && !batch.isEmpty())) {
            enqueue(p);
          } else {
            hinted[p] = Math.min(hinted[p], known[p]); // a hint the log does not bear out is not chased further
          }
        }
        pump();
      });
    }
  }
}
