package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.coordination.Holder;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps this node's partition leases: one <em>round</em> about every lease/4 (heartbeat with ttl = lease and renew
 * every held lease in one call, side by side; read the leases when they may have moved, then hand over the partitions
 * this node should no longer own and acquire free ones it should), a renewal between rounds whenever none was sent for
 * lease/4 (so a slow round does not hold renewals back), and serves each held partition with its own
 * {@link Scheduler}.
 *
 * <h2>Reading the leases</h2>
 * Every partition's lease is one read (4,096 partitions: 4,096 reads), so a round reads them only when they may have
 * moved since the last read: an ownership hint ({@link #nudge}) or a stale-view report ({@link #staleView}) came, the
 * live or counted members changed, this node wants a partition it does not hold, the last read failed, or it is
 * {@link #leasesRefreshMs()} old (a hint lost with the broadcast connection). A lease counts as live when its holder
 * is live and it had not ended when it was read: its holder renews it while it lives, and gives notice when it stops.
 *
 * <h2>Never two owners</h2>
 * A partition is served only while its <em>local deadline</em> has not passed: the local send time of the last
 * acquire/renew that succeeded + lease − {@link #marginMs()}. The store started the lease after that send time, so the
 * lease ends after the deadline; a renewal answered after the deadline is not trusted (the partition is stopped).
 * A watchdog timer stops a partition at its deadline when renewals fail (Redis down, this node cut off or paused),
 * and every round checks the deadlines first. A write the store refuses as fenced stops the partition at once.
 * The store's fence is the backstop for what is in flight when a partition stops.
 *
 * <h2>Hand-over</h2>
 * A partition this node should no longer own (another node joined and wins it) is stopped first (the scheduler waits for
 * its firing batch in flight, then the {@link PartitionFactory#settle wiring} for the callback attempts in flight to
 * be recorded, so the new owner does not repeat them), then released, then {@code "m"} is broadcast so the new owner acquires it at once rather
 * than on its next round. A stopping partition serves nothing and is not acquired again until it has stopped.
 *
 * <h2>One process per node id</h2>
 * Leases and the membership are held as {@code nodeId/instance} ({@link Holder}), the instance a nonce of this
 * keeper, so a second process started with the same node id never gets this one's epochs: the fence tells them
 * apart. {@link #claim()} refuses to start while another live process is the member with the id
 * ({@link NodeIdInUseException}); a running keeper whose heartbeat is refused so (it was paused past its membership
 * and another process took the id) hands every partition over, acquires none and logs an error each round until
 * its heartbeat is accepted again.
 *
 * <h2>Time and threads</h2>
 * Local times (deadlines, send times, the membership's settle period) are this node's injected {@link MonotonicClock}
 * (ms), never the wall clock: setting the wall clock back (an NTP step) must not keep a partition served past its
 * lease, nor setting it forward stop one early. Lease expiries and the membership's {@code lastSeenAt} are the
 * coordinator's clock and are compared only with each other. Owner context only (not thread safe): every method runs
 * there and the coordinator's futures complete there. {@link #start} drives itself with Vert.x timers; tests call
 * {@link #round()} and {@link #checkDeadlines()} with a manual clock instead.
 */
public final class LeaseKeeper {

  private static final System.Logger LOG = System.getLogger(LeaseKeeper.class.getName());

  /** Most acquire calls one round starts (bounded work per round); the rest follow on the next rounds. */
  public static final int MAX_ACQUIRES_PER_ROUND = 64;
  /** Delay of the next round when a wanted partition's lease had not yet expired. */
  static final long RETRY_SOON_MS = 200;
  /**
   * Most delay of a round after an {@code "m"} hint: a hand-over of many partitions broadcasts one hint each, and the
   * first schedules the round, so a burst of them costs one round (and the ones that come during it, one more).
   */
  static final long NUDGE_MS = 20;
  /**
   * How long after an end the next round comes (see {@link #untilNextEnd}): the coordinator's clock against this
   * node's estimate of it (a heartbeat's call time), so the end has passed for the coordinator too.
   */
  static final long END_SLACK_MS = 25;
  /** Least time between two rounds asked for by {@link #staleView} reports, ms. */
  static final long STALE_VIEW_GAP_MS = 1000;

  private final Vertx vertx;
  private final ClusterCoordinator coord;
  private final String nodeId;
  /** {@code nodeId/instance}: what holds this keeper's leases and membership. */
  private final String holder;
  private final String address;
  private final int partitions;
  private final long leaseMs;
  private final long periodMs;
  private final long marginMs;
  private final MonotonicClock clock;
  private final PartitionFactory factory;
  private final ClusterMetrics metrics;
  private final HeldPartition[] held;
  private final boolean[] acquiring;
  private final MemberView view;
  private List<Lease> leases = List.of();
  /** Whether the leases may have moved since {@link #leases} was read (see the class comment); set before the first. */
  private boolean leasesStale = true;
  /** When the leases were last read ({@link #clock}, ms). */
  private long leasesReadAt;
  /** The coordinator's time as of that read (the heartbeat before it): a lease ending later had not ended. */
  private long leasesAsOf;
  /** The live members' ids at that read. */
  private List<String> leasesReadLive = List.of();
  /** The counted members' ids at that read. */
  private List<String> leasesReadEligible = List.of();
  /** How many rounds read the leases. */
  private long leaseReads;
  /** When a {@link #staleView} report last asked for a round ({@link #clock}, ms). */
  private long lastStaleViewRound = Long.MIN_VALUE / 2;

  private boolean running;
  private boolean drive;
  private boolean roundInFlight;
  private boolean retrySoon;
  /** Whether an {@code "m"} hint came while a round was in flight (the next round then follows within NUDGE_MS). */
  private boolean nudged;
  /** When {@link #loopTimer} fires ({@link #clock}, ms), while it is set. */
  private long loopAt;
  /** Whether the last heartbeat was refused: another live process is the member with this node id. */
  private boolean idInUse;
  private long loopTimer = -1;
  private long deadlineTimer = -1;
  private long renewTimer = -1;
  /** Whether a renewal is in flight (at most one at a time). */
  private boolean renewInFlight;
  /** When the last renewal was sent ({@link #clock}, ms). */
  private long lastRenewSent = Long.MIN_VALUE / 2;

  /**
   * @param address this node's base URL (what the others route to)
   * @param leaseMs the lease, ms; rounds every lease/4, a member counts after one round period
   * @param clock   the monotonic clock local lease decisions are measured on ({@link MonotonicClock#SYSTEM})
   */
  public LeaseKeeper(Vertx vertx, ClusterCoordinator coord, String nodeId, String address, int partitions, long leaseMs,
      MonotonicClock clock, PartitionFactory factory, ClusterMetrics metrics) {
    this.vertx = vertx;
    this.coord = coord;
    this.nodeId = nodeId;
    this.holder = Holder.of(nodeId, Holder.newInstance());
    this.address = address;
    this.partitions = partitions;
    this.leaseMs = leaseMs;
    this.periodMs = Math.max(1, leaseMs / 4);
    this.marginMs = Math.max(100, leaseMs / 10);
    this.clock = clock;
    this.factory = factory;
    this.metrics = metrics;
    this.held = new HeldPartition[partitions];
    this.acquiring = new boolean[partitions];
    this.view = new MemberView(nodeId, periodMs);
    metrics.ownedGauge(this::owned);
  }

  /**
   * Starts the rounds (the first at once), the renewals between them and the deadline watchdog. Rounds start every
   * lease/4 from the start of the round before (at once after a round that took longer). A renewal is sent whenever
   * none was sent for lease/4, on its own timer as well as in a round, so a round slowed by its other calls (a busy
   * event loop or Redis link) does not hold the renewals back past the local deadlines.
   */
  public void start() {
    running = true;
    drive = true;
    scheduleRound(0);
    renewTimer = vertx.setPeriodic(Math.max(1, periodMs / 4), id -> renewIfDue());
  }

  /**
   * Renews every lease served when no renewal was sent for lease/4 and none is in flight (what the renewal timer runs
   * between rounds; tests call it); never fails.
   */
  Future<Void> renewIfDue() {
    if (!running || renewInFlight || clock.millis() - lastRenewSent < periodMs) {
      return Future.succeededFuture();
    }
    return renew().onComplete(v -> armDeadline());
  }

  /**
   * Makes this process the member with its node id, before {@link #start}: fails with {@link NodeIdInUseException}
   * when another live process is (its heartbeat goes on). A member record of a process that is gone (killed, not
   * left) is waited out: the heartbeat is retried every round period until the record has expired, at most one
   * lease and two periods; it fails with the refusal as soon as the record's {@code lastSeenAt} moves (the other
   * process is alive). Other failures fail it as they are.
   */
  public Future<Void> claim() {
    return claim(-1, 0);
  }

  private Future<Void> claim(long otherSeen, int attempt) {
    return coord.heartbeat(holder, address, leaseMs).<Void>mapEmpty().recover(e -> {
      if (!(e instanceof NodeIdInUseException u)) {
        return Future.failedFuture(e);
      }
      if ((otherSeen >= 0 && u.lastSeenAt() != otherSeen) || attempt > leaseMs / periodMs + 1) {
        return Future.failedFuture(u);
      }
      LOG.log(System.Logger.Level.WARNING, "node id " + nodeId + " is the member of another process (address "
          + u.address() + "): waiting up to one lease for its record to end (a process that is gone), refusing to"
          + " start if it heartbeats meanwhile (a process that is alive)");
      Promise<Void> next = Promise.promise();
      vertx.setTimer(periodMs, id -> claim(u.lastSeenAt(), attempt + 1).onComplete(next));
      return next.future();
    });
  }

  /** Runs without timers: the caller turns {@link #round()} and {@link #checkDeadlines()} (tests). */
  void startManual() {
    running = true;
  }

  /** The time between rounds (lease/4), ms. */
  public long periodMs() {
    return periodMs;
  }

  /** The safety margin before a lease's end at which a partition stops: max(100, lease/10), ms. */
  public long marginMs() {
    return marginMs;
  }

  // ------------------------------------------------------------------ the round

  /**
   * One round: deadlines, heartbeat and renew (side by side), leases, hand-overs, acquires. A round in flight makes
   * this a no-op; its renewal is skipped while another one is in flight.
   */
  public Future<Void> round() {
    if (!running || roundInFlight) {
      return Future.succeededFuture();
    }
    roundInFlight = true;
    retrySoon = false;
    nudged = false;
    checkDeadlines();
    long hbSent = clock.millis();
    Future<Void> renewed = renew();
    return coord.heartbeat(holder, address, leaseMs)
        .onSuccess(ms -> {
          if (idInUse) {
            LOG.log(System.Logger.Level.INFO, "node id " + nodeId + " is free again: this process serves again");
            idInUse = false;
          }
          view.update(ms, hbSent);
        })
        .onFailure(e -> {
          if (e instanceof NodeIdInUseException) {
            idInUse = true;
            LOG.log(System.Logger.Level.ERROR, e.getMessage() + "; this process serves no partition meanwhile");
          } else {
            LOG.log(System.Logger.Level.WARNING, "cluster heartbeat failed: " + e.getMessage());
          }
        })
        .<Void>mapEmpty().otherwiseEmpty()
        .compose(v -> renewed)
        .compose(v -> {
          String[] want = Rendezvous.assign(view.eligible(clock.millis()), partitions);
          return readLeasesIfMoved(want).compose(x -> rebalance(want));
        })
        .eventually(() -> {
          roundInFlight = false;
          armDeadline();
          return Future.succeededFuture();
        });
  }

  /** Renews every lease served, unless a renewal is in flight already; never fails. */
  private Future<Void> renew() {
    List<HeldPartition> hs = serving();
    if (hs.isEmpty() || renewInFlight) {
      return Future.succeededFuture();
    }
    int[] ps = new int[hs.size()];
    long[] es = new long[hs.size()];
    for (int i = 0; i < ps.length; i++) {
      ps[i] = hs.get(i).partition;
      es[i] = hs.get(i).epoch;
    }
    long sent = clock.millis();
    long t0 = System.nanoTime();
    renewInFlight = true;
    lastRenewSent = sent;
    return coord.renew(holder, ps, es, leaseMs).map(answers -> {
      metrics.renewed(System.nanoTime() - t0);
      long now = clock.millis();
      for (int i = 0; i < ps.length; i++) {
        HeldPartition h = held[ps[i]];
        if (h == null || h.epoch != es[i] || h.stopping) {
          continue;
        }
        Lease l = answers.get(i);
        if (l == null) {
          lose(h, "its lease was taken or had expired");
        } else if (now > h.deadline) {
          lose(h, "the renewal was answered after the local deadline");
        } else {
          h.deadline = sent + leaseMs - marginMs;
        }
      }
      return (Void) null;
    }).onFailure(e -> LOG.log(System.Logger.Level.WARNING, "lease renewal failed: " + e.getMessage()))
        .otherwiseEmpty().eventually(() -> {
          renewInFlight = false;
          return Future.succeededFuture();
        });
  }

  /**
   * Reads the leases unless nothing says they moved since the last read (see the class comment), given the
   * assignment {@code want} of this round; never fails (a failed read is tried again next round).
   */
  private Future<Void> readLeasesIfMoved(String[] want) {
    long now = clock.millis();
    List<String> live = new ArrayList<>();
    for (Member m : view.live()) {
      live.add(m.nodeId());
    }
    List<String> eligible = view.eligible(now);
    if (!leasesStale && now - leasesReadAt < leasesRefreshMs() && live.equals(leasesReadLive)
        && eligible.equals(leasesReadEligible) && !wantsMore(want)) {
      return Future.succeededFuture();
    }
    leasesStale = false;
    long asOf = view.coordinatorTime();
    leaseReads++;
    return coord.leases().onSuccess(l -> {
      leases = l;
      leasesReadAt = now;
      leasesAsOf = asOf;
      leasesReadLive = live;
      leasesReadEligible = eligible;
    }).onFailure(e -> leasesStale = true).<Void>mapEmpty().otherwiseEmpty();
  }

  /** Whether {@code want} gives this node a partition it does not hold. */
  private boolean wantsMore(String[] want) {
    if (idInUse) {
      return false;
    }
    for (int p = 0; p < partitions; p++) {
      if (held[p] == null && nodeId.equals(want[p])) {
        return true;
      }
    }
    return false;
  }

  /** How old the leases as read may get before a round reads them again whatever else: the lease, ms. */
  long leasesRefreshMs() {
    return leaseMs;
  }

  /** How many times the leases were read (rounds that read them). */
  long leaseReads() {
    return leaseReads;
  }

  private Future<Void> rebalance(String[] want) {
    if (!running) {
      return Future.succeededFuture();
    }
    List<Future<Void>> work = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      HeldPartition h = held[p];
      if (h != null && !h.stopping && (idInUse || !nodeId.equals(want[p]))) {
        handOver(h);
      }
    }
    if (idInUse) {
      return Future.succeededFuture();       // the process that is the member serves this node id's share
    }
    int started = 0;
    for (int p = 0; p < partitions && started < MAX_ACQUIRES_PER_ROUND; p++) {
      if (nodeId.equals(want[p]) && held[p] == null && !acquiring[p] && mayAcquire(p)) {
        started++;
        work.add(acquire(p));
      }
    }
    if (started == MAX_ACQUIRES_PER_ROUND) {
      retrySoon = true;
    }
    return Future.join(work).<Void>mapEmpty().otherwiseEmpty();
  }

  /**
   * Whether to try {@code p}: not while another live node holds a lease that had not ended when read (it
   * hands the partition over when it counts this node, and broadcasts {@code "m"}).
   */
  private boolean mayAcquire(int p) {
    Lease l = p < leases.size() ? leases.get(p) : null;
    return l == null || l.nodeId() == null || l.nodeId().equals(nodeId) || !view.isLive(l.nodeId())
        || l.expiresAt() <= leasesAsOf;
  }

  /**
   * The live holder of {@code p}'s lease as last read (a node live at the last heartbeat, whose lease had not ended
   * when read), or null.
   */
  public Lease liveLease(int p) {
    Lease l = p < leases.size() ? leases.get(p) : null;
    if (l == null || l.nodeId() == null || !view.isLive(l.nodeId()) || l.expiresAt() <= leasesAsOf) {
      return null;
    }
    return l;
  }

  private Future<Void> acquire(int p) {
    acquiring[p] = true;
    long sent = clock.millis();
    return coord.acquire(p, holder, leaseMs).map(l -> {
      acquiring[p] = false;
      if (l == null) {
        retrySoon = true;        // a dead node's lease that has not quite expired: try again shortly
        return (Void) null;
      }
      long deadline = sent + leaseMs - marginMs;
      if (!running || held[p] != null || clock.millis() >= deadline) {
        coord.release(p, holder, l.epoch());
        return (Void) null;
      }
      serve(p, l.epoch(), deadline);
      return (Void) null;
    }).onFailure(e -> {
      acquiring[p] = false;
      LOG.log(System.Logger.Level.WARNING, "acquiring partition " + p + " failed: " + e.getMessage());
    }).otherwiseEmpty();
  }

  private void serve(int p, long epoch, long deadline) {
    TimerStore store = new WatchedStore(coord.partitionStore(p, epoch), () -> fenced(p, epoch));
    Scheduler s = factory.open(p, store);
    HeldPartition h = new HeldPartition(p, epoch, deadline, s, store);
    held[p] = h;
    factory.recover(p, s).onSuccess(n -> {
      if (!h.stopping) {
        factory.recovered(p, s);
      }
    }).onFailure(e -> lose(h, "its recovery failed: " + e.getMessage()));
    coord.broadcast(BroadcastCodec.encode(new Broadcast.OwnershipChanged()));
  }

  // ------------------------------------------------------------------ stopping

  /** Stops every partition whose local deadline has passed. */
  public void checkDeadlines() {
    long now = clock.millis();
    for (HeldPartition h : held) {
      if (h != null && !h.stopping && now >= h.deadline) {
        lose(h, "its lease could not be renewed before the local deadline");
      }
    }
  }

  private void fenced(int p, long epoch) {
    metrics.fencedWrite();
    HeldPartition h = held[p];
    if (h != null && h.epoch == epoch && !h.stopping) {
      lose(h, "the store refused a write as fenced (another node owns it)");
    }
  }

  private void lose(HeldPartition h, String why) {
    if (h.stopping) {
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "partition " + h.partition + " stopped: " + why);
    metrics.lost();
    leasesStale = true;
    stop(h).onComplete(v -> coord.release(h.partition, holder, h.epoch).otherwiseEmpty()
        .compose(x -> {
          leasesStale = true;                    // a read since the stop may still show it held here
          return coord.broadcast(BroadcastCodec.encode(new Broadcast.OwnershipChanged()));
        }));
  }

  private Future<Void> handOver(HeldPartition h) {
    leasesStale = true;
    return stop(h).compose(v -> coord.release(h.partition, holder, h.epoch).otherwiseEmpty())
        .onComplete(v -> {
          leasesStale = true;                    // a read since the stop may still show it held here
          metrics.handedOver();
          coord.broadcast(BroadcastCodec.encode(new Broadcast.OwnershipChanged()));
        });
  }

  private Future<Void> stop(HeldPartition h) {
    if (h.stopped != null) {
      return h.stopped;
    }
    h.stopping = true;
    h.stopped = h.scheduler.stop().otherwiseEmpty()
        .compose(v -> factory.settle(h.partition, h.scheduler).<Void>mapEmpty().otherwiseEmpty())
        .compose(v -> h.store.close().otherwiseEmpty())
        .onComplete(v -> {
          if (held[h.partition] == h) {
            held[h.partition] = null;
          }
          factory.closed(h.partition, h.scheduler);
        });
    return h.stopped;
  }

  /**
   * SIGTERM: stops the rounds, stops every partition, releases its lease and leaves the membership, then broadcasts
   * {@code "m"} once more, so the other nodes, whose rounds count this node until it has left, take the partitions
   * over at once. Completes when all is done (failures ignored: the leases then expire).
   */
  public Future<Void> shutdown() {
    running = false;
    cancelTimers();
    List<Future<Void>> all = new ArrayList<>();
    for (HeldPartition h : held) {
      if (h != null) {
        all.add(h.stopping ? h.stopped : handOver(h));
      }
    }
    return Future.join(all).<Void>mapEmpty().otherwiseEmpty()
        .compose(v -> coord.leave(holder).otherwiseEmpty())
        .compose(v -> coord.broadcast(BroadcastCodec.encode(new Broadcast.OwnershipChanged())).otherwiseEmpty());
  }

  // ------------------------------------------------------------------ timers

  /**
   * A call this node routed by the leases as last read was refused as not owned there: the next round reads them
   * again, and comes within {@link #NUDGE_MS}, as after a hint, unless a report asked for a round less than
   * {@link #STALE_VIEW_GAP_MS} ago (refusals go on while a node is cut off from its store: each would read every
   * lease).
   *
   * @return whether this report asked for a round
   */
  public boolean staleView() {
    if (!running) {
      return false;
    }
    leasesStale = true;
    long now = clock.millis();
    if (now - lastStaleViewRound < STALE_VIEW_GAP_MS) {
      return false;
    }
    lastStaleViewRound = now;
    nudge();
    return true;
  }

  /**
   * A hint that ownership changed somewhere: the next round reads the leases, and comes within {@link #NUDGE_MS} (one
   * already due sooner stays; one in flight is followed by another within it, as the hint may have come after that
   * round read the leases).
   */
  public void nudge() {
    if (!running) {
      return;
    }
    leasesStale = true;
    if (!drive) {
      return;
    }
    if (roundInFlight) {
      nudged = true;
    } else if (loopTimer < 0 || loopAt - clock.millis() > NUDGE_MS) {
      scheduleRound(NUDGE_MS);
    }
  }

  private void scheduleRound(long delay) {
    if (!running || !drive) {
      return;
    }
    if (loopTimer >= 0) {
      vertx.cancelTimer(loopTimer);
    }
    loopAt = clock.millis() + Math.max(1, delay);
    loopTimer = vertx.setTimer(Math.max(1, delay), id -> {
      loopTimer = -1;
      long started = clock.millis();
      round().onComplete(v -> scheduleRound(nudged ? NUDGE_MS
          : Math.min(retrySoon ? RETRY_SOON_MS : Math.max(1, periodMs - (clock.millis() - started)),
              untilNextEnd())));
    });
  }

  /**
   * Local ms from now until the earliest end this node waits on, plus {@link #END_SLACK_MS}: another member's
   * heartbeat running out (its {@code lastSeenAt} + the lease, the heartbeat's ttl) or the lease of a partition whose
   * holder is no longer live; {@link Long#MAX_VALUE} when there is none. The round then comes at that end rather than
   * up to a period after it, so a dead node's partitions are taken over as soon as its lease allows. A live member's
   * heartbeat ends a lease ahead, beyond the next periodic round: in a healthy cluster this adds no round.
   */
  long untilNextEnd() {
    long now = clock.millis();
    long next = Long.MAX_VALUE;
    for (Member m : view.live()) {
      if (!m.nodeId().equals(nodeId)) {
        next = Math.min(next, after(m.lastSeenAt() + leaseMs, now));
      }
    }
    for (Lease l : leases) {
      if (l != null && l.nodeId() != null && !l.nodeId().equals(nodeId) && !view.isLive(l.nodeId())) {
        next = Math.min(next, after(l.expiresAt(), now));
      }
    }
    return next;
  }

  /**
   * Local ms from {@code now} until {@link #END_SLACK_MS} after the coordinator time {@code end}; {@link Long#MAX_VALUE}
   * if that has passed (a view the heartbeat could not refresh: the periodic rounds deal with it).
   */
  private long after(long end, long now) {
    long d = view.localTimeOf(end) + END_SLACK_MS - now;
    return d > 0 ? d : Long.MAX_VALUE;
  }

  private void armDeadline() {
    if (!running || !drive) {
      return;
    }
    if (deadlineTimer >= 0) {
      vertx.cancelTimer(deadlineTimer);
      deadlineTimer = -1;
    }
    long min = Long.MAX_VALUE;
    for (HeldPartition h : held) {
      if (h != null && !h.stopping) {
        min = Math.min(min, h.deadline);
      }
    }
    if (min != Long.MAX_VALUE) {
      deadlineTimer = vertx.setTimer(Math.max(1, min - clock.millis()), id -> {
        deadlineTimer = -1;
        checkDeadlines();
        armDeadline();
      });
    }
  }

  private void cancelTimers() {
    if (loopTimer >= 0) {
      vertx.cancelTimer(loopTimer);
      loopTimer = -1;
    }
    if (deadlineTimer >= 0) {
      vertx.cancelTimer(deadlineTimer);
      deadlineTimer = -1;
    }
    if (renewTimer >= 0) {
      vertx.cancelTimer(renewTimer);
      renewTimer = -1;
    }
  }

  // ------------------------------------------------------------------ reads

  /** The scheduler serving {@code p} here, or {@code null} (not held, or stopping). */
  public Scheduler local(int p) {
    HeldPartition h = held[p];
    return h != null && !h.stopping ? h.scheduler : null;
  }

  /** The lease epoch this node serves {@code p} under, or -1. */
  public long epoch(int p) {
    HeldPartition h = held[p];
    return h != null && !h.stopping ? h.epoch : -1;
  }

  /** The local deadline of {@code p} (see the class comment), or -1 when not served here. */
  long deadline(int p) {
    HeldPartition h = held[p];
    return h != null && !h.stopping ? h.deadline : -1;
  }

  /** How many partitions this node serves. */
  public int owned() {
    int n = 0;
    for (HeldPartition h : held) {
      if (h != null && !h.stopping) {
        n++;
      }
    }
    return n;
  }

  /** The schedulers serving partitions here. */
  public List<Scheduler> schedulers() {
    List<Scheduler> out = new ArrayList<>();
    for (HeldPartition h : serving()) {
      out.add(h.scheduler);
    }
    return out;
  }

  private List<HeldPartition> serving() {
    List<HeldPartition> out = new ArrayList<>();
    for (HeldPartition h : held) {
      if (h != null && !h.stopping) {
        out.add(h);
      }
    }
    return out;
  }

  /** The leases as read in the last round (by partition; empty before the first). */
  public List<Lease> leases() {
    return leases;
  }

  /** The live members as of the last heartbeat, sorted by id. */
  public List<Member> members() {
    return view.live();
  }

  /** Whether {@code nodeId} was live at the last heartbeat. */
  public boolean isLive(String id) {
    return view.isLive(id);
  }

  public String nodeId() {
    return nodeId;
  }

  /** {@code nodeId/instance}: what holds this process's leases and membership ({@link Holder}). */
  public String holder() {
    return holder;
  }

  /** Whether the last heartbeat was refused because another live process is the member with this node id. */
  public boolean idInUse() {
    return idInUse;
  }

  public String address() {
    return address;
  }

  public int partitions() {
    return partitions;
  }
}
