package io.tickwheel.server.dispatch;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.CallbackUrl;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.delivery.RetrySchedule;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.store.DeliveryTable;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.dispatch.GuardedResolver;
import io.tickwheel.server.dispatch.ResolvedTarget;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Sends callback deliveries: the firing JSON POSTed, signed (Standard Webhooks v1), retried on the contract's
 * schedule, every step recorded in the store.
 *
 * <h2>How</h2>
 * <ul>
 *   <li>A pending delivery waits for its next attempt in a {@link TimerWheel} keyed by delivery id (not a polling
 *       loop): new ones come from the fire loop ({@link #accept}, created by the store with their firing), old ones
 *       from the store at start ({@link #recover}), dead ones from the API ({@link #retry}).</li>
 *   <li>Due attempts are started at most {@link DeliveryOptions#maxAttemptsPerTurn()} per event-loop turn. Each
 *       host (scheme, host, port) has a cap of attempts in flight with a bounded queue behind it, and a circuit
 *       {@link Breaker}. A full queue or an open breaker <em>postpones</em> the attempt (back into the wheel, not
 *       used up, not stored: after a restart it is simply due).</li>
 *   <li>An attempt: the guard resolves the host once and names the address ({@link GuardedResolver}); the
 *       {@link DeliveryClient} connects there with every timeout set; an overall deadline of the callback's
 *       {@code timeoutMs} covers resolution too. Its result is judged by {@link RetrySchedule}; the delivery, with
 *       the attempt appended, is written to the store ({@link DeliveryTable#updateDelivery}) and, while pending, put
 *       back in the wheel once the write succeeded.</li>
 *   <li>Nothing here blocks or waits for a receiver on the event loop: a slow or dead receiver holds only its own
 *       host's slots.</li>
 *   <li>The callback URL is taken apart by {@link CallbackUrl} alone (host to resolve, host key, request). A stored
 *       URL it refuses (written by an older version) makes its delivery {@code dead} at once with error
 *       {@code invalid_url}, logged with the reason. Every loop that hands out deliveries (the wheel, a host's queue,
 *       recovery) catches a failure per delivery: the delivery is logged and recorded {@code dead}
 *       ({@code internal_error}, retryable by the API), its bytes released, and the others go on.</li>
 *   <li>A host's state is kept while it has work or remembers failures; an idle host is forgotten once idle for
 *       {@link DeliveryOptions#breakerOpenMs()} (its breaker, if it opened, has run out by then), and beyond
 *       {@link DeliveryOptions#maxIdleHosts()} idle hosts the longest idle are forgotten at once.</li>
 * </ul>
 * Delivery is at least once: a crash after an attempt and before its record is written repeats it (same
 * {@code webhook-id}). The webhook-id of a retried dead delivery is unchanged.
 *
 * <p><b>Capacity.</b> At most {@link DeliveryOptions#maxPending()} deliveries, of at most
 * {@link DeliveryOptions#maxPendingBytes()} together ({@link #weight}), are held pending (wheel, queues, in flight). A delivery beyond that is written {@code dead} at once with one attempt of error {@code queue_full},
 * so it is visible in the dead-letter list and can be retried by the API when there is room.
 *
 * <p>Not thread safe: every method runs on the owner context (the server's event loop), like the scheduler.
 */
public final class DeliveryService {

  private static final System.Logger LOG = System.getLogger(DeliveryService.class.getName());
  /** The attempt error of a delivery refused because {@link DeliveryOptions#maxPending()} are held. */
  public static final String QUEUE_FULL = "queue_full";
  /** The attempt error of a delivery whose stored callback URL {@link CallbackUrl} refuses. */
  public static final String INVALID_URL = "invalid_url";
  /** The attempt error of a delivery whose handling failed unexpectedly (logged); retryable by the API. */
  public static final String INTERNAL_ERROR = "internal_error";
  /** The longest sleep of the wake-up timer, ms (a bound on the harm of a clock jump). */
  private static final long MAX_SLEEP_MS = 1000;

  private final Vertx vertx;
  private final Context owner;
  private final DeliveryLane single;
  /** The lanes whose pending deliveries were loaded ({@link #recover(DeliveryLane)}): trimmed and counted. */
  private final java.util.LinkedHashSet<DeliveryLane> lanes = new java.util.LinkedHashSet<>();
  private final LongSupplier clock;
  private final DeliveryOptions opts;
  private final GuardedResolver resolver;
  private final WebhookSigner signer;
  private final DeliveryClient client;
  private final DeliveryMetrics metrics;
  private final DoubleSupplier random;
  private final boolean autoWake;

  private final TimerWheel<Held> wheel;
  private final Map<String, Host> hosts = new HashMap<>();
  /** The hosts of {@link #hosts} with nothing in flight or queued but a failure record, longest idle first. */
  private final LinkedHashMap<String, Host> idleHosts = new LinkedHashMap<>();
  private int inFlight;
  private int queued;
  /** The {@link #weight} of every delivery held pending. */
  private long heldBytes;
  private long deadCount;
  private boolean stopped;
  private long wakeTimer = -1;
  private long wakeAt = Long.MAX_VALUE;
  private long trimTimer = -1;
  /** A periodic trim is under way: the next period skips its own (a large trim goes in many store writes). */
  private boolean trimming;
  private boolean drainSoon;
  /**
   * Per lane: its attempts in flight and record writes not yet ended ({@link #begin}/{@link #end}), and who waits in
   * {@link #settled} for them. A lane is here only while it has such work.
   */
  private final Map<DeliveryLane, Unsettled> unsettled = new HashMap<>();

  /** The work of one lane not yet recorded, and the promises of {@link #settled} waiting for it. */
  private static final class Unsettled {
    int count;
    final List<Promise<Void>> waiting = new ArrayList<>(1);
  }

  /** One receiver host: its attempts in flight, those waiting for a slot, its breaker. */
  private static final class Host {
    final String key;
    final Breaker breaker;
    final ArrayDeque<Held> queue = new ArrayDeque<>();
    int inFlight;
    /** When it last went idle (in {@link #idleHosts} since then), epoch ms. */
    long idleSince;

    Host(String key, DeliveryOptions o) {
      this.key = key;
      breaker = new Breaker(o.breakerFailures(), o.breakerOpenMs());
    }
  }

  /** A delivery held pending, with its lane. */
  private record Held(Delivery d, DeliveryLane lane) {
    String id() {
      return lane.idOf(d);
    }
  }

  /**
   * @param store    the single node's store ({@link DeliveryLane#single}: {@link #accept(Delivery)},
   *                 {@link #recover()} and the API's ids {@code msg_<seq>}); a cluster node passes lanes instead
   * @param random   uniform doubles in {@code [0, 1)} for the ±20 % jitter (tests pass a seeded one)
   * @param autoWake whether the service wakes itself with Vert.x timers (the server) or is driven by
   *                 {@link #drain()} alone (tests with a manual clock)
   */
  public DeliveryService(Vertx vertx, Context owner, DeliveryTable store, LongSupplier clock, DeliveryOptions opts,
      GuardedResolver resolver, WebhookSigner signer, DeliveryMetrics metrics, DoubleSupplier random,
      boolean autoWake) {
    this.vertx = vertx;
    this.owner = owner;
    this.single = store == null ? null : DeliveryLane.single(store);
    this.clock = clock;
    this.opts = opts;
    this.resolver = resolver;
    this.signer = signer;
    this.metrics = metrics;
    this.random = random;
    this.autoWake = autoWake;
    this.client = new DeliveryClient(vertx, opts);
    this.wheel = new TimerWheel<>(10, clock.getAsLong());
    metrics.gauges(this::pending, () -> deadCount, this::openBreakers);
  }

  // ------------------------------------------------------------------ lifecycle

  /** Loads the pending deliveries of the single node's store into the wheel; starts trimming. */
  public Future<Long> recover() {
    return recover(single);
  }

  /**
   * Loads the pending deliveries of {@code lane} (a single node's store, or a partition this node just took over)
   * into the wheel, and from then on trims and counts its records; starts the trim timer if it is not running.
   */
  public Future<Long> recover(DeliveryLane lane) {
    lanes.removeIf(l -> !l.live().getAsBoolean());
    lanes.add(lane);
    return lane.store().loadPendingDeliveries(1000, batch -> {
      for (Delivery d : batch) {
        try {
          accept(d, lane);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.ERROR, "loading pending delivery " + lane.idOf(d) + " failed; it stays "
              + "pending in the store and is loaded again at the next start: " + e, e);
        }
      }
      return Future.succeededFuture();
    }).onSuccess(n -> {
      if (autoWake && !stopped && trimTimer < 0) {
        trimTimer = vertx.setPeriodic(opts.trimIntervalMs(), id -> periodicTrim());
      }
      // this lane's dead ones join the gauge (the periodic trim recounts every lane): recounting all lanes here
      // would cost a cluster node that takes P partitions O(P²) store calls at start
      lane.store().countDeliveries(DeliveryState.DEAD).onSuccess(dead -> deadCount += dead);
    });
  }

  /** Stops waking, trimming and starting attempts; closes the client. Attempts in flight end unrecorded. */
  public Future<Void> stop() {
    stopped = true;
    if (wakeTimer >= 0) {
      vertx.cancelTimer(wakeTimer);
    }
    if (trimTimer >= 0) {
      vertx.cancelTimer(trimTimer);
    }
    return client.close().otherwiseEmpty();
  }

  /**
   * Completes once no attempt of {@code lane} is in flight and every record write of {@code lane} has ended (written,
   * or given up because the lane was lost or the service stopped); at once if there is none. A partition being
   * handed over waits for this after its scheduler stopped and before its store closes, so the outcome of an attempt
   * the receiver already answered is recorded, and the new owner does not send it again. Attempts that come due
   * meanwhile are not started (the lane is no longer live). Bounded by the attempts' deadlines
   * ({@code timeoutMs} + 100 ms) and the store's write timeouts. Owner context.
   */
  public Future<Void> settled(DeliveryLane lane) {
    Unsettled u = unsettled.get(lane);
    if (u == null) {
      return Future.succeededFuture();
    }
    Promise<Void> p = Promise.promise();
    u.waiting.add(p);
    return p.future();
  }

  /** One more attempt or record write of {@code lane} under way. */
  private void begin(DeliveryLane lane) {
    unsettled.computeIfAbsent(lane, l -> new Unsettled()).count++;
  }

  /** One attempt or record write of {@code lane} ended; completes {@link #settled} when it was the last. */
  private void end(DeliveryLane lane) {
    Unsettled u = unsettled.get(lane);
    if (u == null || --u.count > 0) {
      return;
    }
    unsettled.remove(lane);
    u.waiting.forEach(Promise::tryComplete);
  }

  // ------------------------------------------------------------------ intake

  /** Takes a pending delivery of the single node's store (new from the fire loop, or loaded) into the wheel. */
  public void accept(Delivery d) {
    accept(d, single);
  }

  /**
   * Takes a pending delivery of {@code lane} into the wheel. One already held under the same id (a partition taken
   * over again by this node while its old lane's entry still waited) is replaced.
   */
  public void accept(Delivery d, DeliveryLane lane) {
    if (stopped || d.state() != DeliveryState.PENDING) {
      return;
    }
    Held old = wheel.get(lane.idOf(d));
    if (old != null) {
      wheel.cancel(old.id());
      heldBytes -= weight(old.d());
    }
    Held h = new Held(d, lane);
    if (full(d)) {
      long now = clock.getAsLong();
      Delivery dead = d.after(new Attempt(d.nextAttemptNumber(), now, 0, QUEUE_FULL, 0), DeliveryState.DEAD, 0, now);
      metrics.attempt(QUEUE_FULL, 0);
      save(new Held(dead, lane));
      return;
    }
    heldBytes += weight(d);
    schedule(h, d.nextAttemptAt());
  }

  /** Whether holding {@code d} too would pass a cap. */
  private boolean full(Delivery d) {
    return pending() >= opts.maxPending() || heldBytes + weight(d) > opts.maxPendingBytes();
  }

  /** What holding a delivery costs, about: its payload's characters (two bytes each) and 1 KiB for the rest. */
  static long weight(Delivery d) {
    String p = d.firing().payload();
    return 1024 + (p == null ? 0 : 2L * p.length());
  }

  /** Deliveries held pending: waiting in the wheel, queued behind their host, or in flight. */
  public int pending() {
    return wheel.size() + queued + inFlight;
  }

  /** The {@link #weight} of the deliveries held pending, bytes: what counts against the delivery budget. */
  long heldBytes() {
    return heldBytes;
  }

  /** Hosts whose breaker is not closed (a walk of the remembered hosts: at most maxPending + maxIdleHosts). */
  public int openBreakers() {
    long now = clock.getAsLong();
    int n = 0;
    for (Host h : hosts.values()) {
      if (h.breaker.state(now) != Breaker.State.CLOSED) {
        n++;
      }
    }
    return n;
  }

  // ------------------------------------------------------------------ the API

  public Future<DeliveryOutcome> get(String id) {
    long seq = Delivery.seqOf(id);
    if (seq < 0) {
      return Future.succeededFuture(new DeliveryOutcome.NotFound(id));
    }
    return single.store().getDelivery(seq).<DeliveryOutcome>map(d -> d == null ? new DeliveryOutcome.NotFound(id)
        : new DeliveryOutcome.Found(d)).recover(DeliveryService::storeFailed);
  }

  public Future<DeliveryOutcome> list(DeliveryState state, long afterSeq, int limit) {
    return single.store().listDeliveries(state, afterSeq, limit).<DeliveryOutcome>map(DeliveryOutcome.Listed::new)
        .recover(DeliveryService::storeFailed);
  }

  /**
   * Re-queues a dead delivery: pending again with a new round of attempts, the next one now, same id. The store
   * replaces it only if it is still dead, so of concurrent retries one is {@code Requeued} and the others
   * {@code NotDead} (409), and its bytes are held once.
   */
  public Future<DeliveryOutcome> retry(String id) {
    long seq = Delivery.seqOf(id);
    if (seq < 0) {
      return Future.succeededFuture(new DeliveryOutcome.NotFound(id));
    }
    return retry(single, seq);
  }

  /** {@link #retry(String)} of the delivery of firing {@code seq} in {@code lane} (a partition this node serves). */
  public Future<DeliveryOutcome> retry(DeliveryLane lane, long seq) {
    String id = lane.idOf(seq);
    return lane.store().getDelivery(seq).compose(d -> {
      if (d == null) {
        return Future.<DeliveryOutcome>succeededFuture(new DeliveryOutcome.NotFound(id));
      }
      if (d.state() != DeliveryState.DEAD) {
        return Future.<DeliveryOutcome>succeededFuture(new DeliveryOutcome.NotDead(id, d.state().wire()));
      }
      if (full(d)) {
        return Future.<DeliveryOutcome>succeededFuture(new DeliveryOutcome.Full(opts.maxPending()));
      }
      Delivery again = d.requeued(clock.getAsLong());
      // compare-and-set: of concurrent retries of one dead delivery exactly one re-queues it (and holds its bytes)
      return lane.store().updateDelivery(again, DeliveryState.DEAD).compose(stored -> {
        if (!stored) {
          return lane.store().getDelivery(seq).map(now -> now == null ? new DeliveryOutcome.NotFound(id)
              : new DeliveryOutcome.NotDead(id, now.state().wire()));
        }
        deadCount = Math.max(0, deadCount - 1);
        heldBytes += weight(again);
        schedule(new Held(again, lane), again.nextAttemptAt());
        return Future.<DeliveryOutcome>succeededFuture(new DeliveryOutcome.Requeued(again, id));
      });
    }).recover(DeliveryService::storeFailed);
  }

  private static Future<DeliveryOutcome> storeFailed(Throwable e) {
    return Future.succeededFuture(new DeliveryOutcome.StoreFailed(String.valueOf(e.getMessage())));
  }

  // ------------------------------------------------------------------ the wheel

  /**
   * Starts the attempts due now (at most {@link DeliveryOptions#maxAttemptsPerTurn()}; the rest on later turns).
   *
   * @return how many were due (started, queued or postponed)
   */
  public int drain() {
    drainSoon = false;
    if (stopped) {
      return 0;
    }
    long now = clock.getAsLong();
    int n = 0;
    try {
      evictIdleHosts(now);
      n = wheel.advance(now, (key, due, h) -> dispatchOrBury(h, now), opts.maxAttemptsPerTurn());
    } finally {
      if (n == opts.maxAttemptsPerTurn() && autoWake) {
        drainSoon = true;
        owner.runOnContext(v -> drain());
      } else {
        arm();
      }
    }
    return n;
  }

  private void schedule(Held h, long at) {
    wheel.schedule(h.id(), at, h);
    arm();
  }

  /** Sets the wake-up timer for the wheel's next expiry unless one is set for that time or earlier. */
  private void arm() {
    if (!autoWake || stopped || drainSoon) {
      return;
    }
    long next = wheel.nextExpiryAtMs();
    if (next == TimerWheel.NO_DEADLINE) {
      return;
    }
    long now = clock.getAsLong();
    long at = Math.min(next, now + MAX_SLEEP_MS);
    if (wakeTimer >= 0 && wakeAt <= at) {
      return;
    }
    if (wakeTimer >= 0) {
      vertx.cancelTimer(wakeTimer);
    }
    wakeAt = at;
    wakeTimer = vertx.setTimer(Math.max(1, at - now), id -> {
      wakeTimer = -1;
      wakeAt = Long.MAX_VALUE;
      drain();
    });
  }

  // ------------------------------------------------------------------ attempts

  /**
   * {@link #dispatch}, and if that fails unexpectedly, the delivery is logged and recorded dead
   * ({@link #INTERNAL_ERROR}) so one bad delivery never stops the others.
   */
  private void dispatchOrBury(Held held, long now) {
    try {
      dispatch(held, now);
    } catch (RuntimeException e) {
      bury(held, now, INTERNAL_ERROR, "failed unexpectedly: " + e, e);
    }
  }

  private void dispatch(Held held, long now) {
    if (!held.lane().live().getAsBoolean()) {
      dropLost(held.d());          // its partition moved: the new owner loaded it from the store
      return;
    }
    Delivery d = held.d();
    CallbackUrl url;
    try {
      url = CallbackUrl.parse(d.callback().url());
    } catch (IllegalArgumentException e) {
      bury(held, now, INVALID_URL, "has a callback url that " + e.getMessage() + ", was \"" + d.callback().url()
          + "\"", null);
      return;
    }
    String key = url.hostKey();
    Host h = hosts.get(key);
    if (h == null) {
      h = new Host(key, opts);
      hosts.put(key, h);
    }
    if (h.inFlight >= opts.perHostConcurrency()) {
      if (h.queue.size() < opts.perHostQueue()) {
        h.queue.add(held);
        queued++;
        idleHosts.remove(key);
      } else {
        postpone(held, now + opts.postponeMs(), "host_queue_full");
      }
      return;
    }
    admitAndStart(held, h, now);
    if (h.inFlight == 0 && h.queue.isEmpty() && h.breaker.blank()) {
      hosts.remove(key);           // nothing started (postponed, or dropped) and nothing to remember
    }
  }

  /**
   * Records a held delivery {@code dead} at once with one attempt of error {@code error}, releases its bytes and
   * logs why (a refusal is never silent). The delivery stays retryable by the API.
   */
  private void bury(Held held, long now, String error, String why, Throwable cause) {
    Delivery d = held.d();
    heldBytes -= weight(d);
    LOG.log(System.Logger.Level.WARNING, "delivery " + held.id() + " " + why + "; recorded dead with error "
        + error, cause);
    metrics.attempt(error, 0);
    save(new Held(d.after(new Attempt(d.nextAttemptNumber(), now, 0, error, 0), DeliveryState.DEAD, 0, now),
        held.lane()));
  }

  /** Lets go of a delivery whose lane this node no longer serves (nothing written: the lane's store is not ours). */
  private void dropLost(Delivery d) {
    heldBytes -= weight(d);
    metrics.postponed("partition_moved");
  }

  private void admitAndStart(Held held, Host h, long now) {
    if (!held.lane().live().getAsBoolean()) {
      dropLost(held.d());
      return;
    }
    long until = h.breaker.admit(now);
    if (until != 0) {
      postpone(held, until, "breaker_open");
      return;
    }
    idleHosts.remove(h.key);
    start(held, h);
  }

  private void postpone(Held held, long at, String reason) {
    metrics.postponed(reason);
    schedule(new Held(held.d().postponed(at), held.lane()), at);
  }

  private void start(Held held, Host h) {
    Delivery d = held.d();
    String webhookId = held.id();
    h.inFlight++;
    inFlight++;
    begin(held.lane());        // ended once the attempt's outcome is recorded (or given up)
    long startedAt = clock.getAsLong();
    long t0 = System.nanoTime();
    Callback cb = d.callback();
    Promise<AttemptResult> done = Promise.promise();
    // the overall deadline covers resolution too; the client keeps its own for the request
    long deadline = vertx.setTimer(cb.timeoutMs() + 100L, id -> done.tryComplete(
        new AttemptResult(0, null, AttemptResult.TIMEOUT, (System.nanoTime() - t0) / 1_000_000)));
    // everything that may throw runs inside the chain: a failure ends this attempt, never the caller's loop
    Future.<Void>succeededFuture().compose(v -> {
      CallbackUrl url = CallbackUrl.parse(cb.url());     // parsed by dispatch already: cannot fail here
      return resolver.resolve(url.host()).compose(target -> {
        if (target.outcome() != ResolvedTarget.Outcome.CONNECT) {
          return Future.succeededFuture(new AttemptResult(0, null, target.error(),
              (System.nanoTime() - t0) / 1_000_000));
        }
        java.net.InetAddress address = target.address();
        byte[] body = TimerJson.firingJson(d.firing()).getBytes(StandardCharsets.UTF_8);
        long ts = clock.getAsLong() / 1000;
        Map<String, String> headers = Map.of(WebhookSigner.ID, webhookId, WebhookSigner.TIMESTAMP,
            Long.toString(ts), WebhookSigner.SIGNATURE, signer.sign(webhookId, ts, body));
        return client.post(url, address, headers, Buffer.buffer(body), cb.timeoutMs(), t0);
      });
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        done.tryComplete(ar.result());
      } else {
        LOG.log(System.Logger.Level.WARNING, "attempt of delivery " + webhookId + " failed before an answer: "
            + ar.cause());
        done.tryComplete(new AttemptResult(0, null, AttemptResult.CONNECTION, (System.nanoTime() - t0) / 1_000_000));
      }
    });
    done.future().onComplete(ar -> {
      vertx.cancelTimer(deadline);
      finish(held, h, startedAt, ar.result());
    });
  }

  private void finish(Held held, Host h, long startedAt, AttemptResult r) {
    Delivery d = held.d();
    DeliveryLane lane = held.lane();
    h.inFlight--;
    inFlight--;
    long now = clock.getAsLong();
    h.breaker.record(r.hostFailure(), now);
    metrics.attempt(r.outcome(), r.durationMs());
    Callback cb = d.callback();
    int inRound = d.attemptsInRound() + 1;
    RetrySchedule.Verdict v = AttemptResult.BLOCKED.equals(r.error())
        ? new RetrySchedule.Verdict(RetrySchedule.Next.DEAD, 0)
        : RetrySchedule.judge(r.status(), r.retryAfter(), inRound, cb.maxAttempts(),
            cb.backoffMs(Math.min(inRound, Callback.MAX_ATTEMPTS)), cb.largestBackoffMs(), now, random.getAsDouble());
    DeliveryState state = switch (v.next()) {
      case SUCCEEDED -> DeliveryState.SUCCEEDED;
      case RETRY -> DeliveryState.PENDING;
      case DEAD -> DeliveryState.DEAD;
    };
    Delivery next = d.after(new Attempt(d.nextAttemptNumber(), startedAt, r.status(), r.error(), r.durationMs()),
        state, v.nextAttemptAt(), now);
    if (state == DeliveryState.PENDING) {
      inFlight++; // held until its record is written and it is back in the wheel
      lane.store().updateDelivery(next).onComplete(ar -> {
        inFlight--;
        end(lane);
        if (ar.failed() && lost(lane, ar.cause())) {
          dropLost(next);            // fenced: the partition's new owner has the record and attempts it again
          return;
        }
        if (ar.failed()) {
          LOG.log(System.Logger.Level.WARNING, "recording attempt of delivery " + next.id() + " failed (the next "
              + "attempt records it): " + ar.cause());
        }
        if (ar.failed() || ar.result()) {
          schedule(new Held(next, lane), next.nextAttemptAt());
        } else {
          heldBytes -= weight(next); // no longer stored (cannot happen to a pending one): let it go
        }
      });
    } else {
      heldBytes -= weight(d);
      save(new Held(next, lane)).onComplete(ar -> end(lane));
    }
    pump(h);
  }

  /** Whether a failed write of {@code lane} failed because this node no longer serves it (fenced, handed over). */
  private static boolean lost(DeliveryLane lane, Throwable e) {
    if (!lane.live().getAsBoolean()) {
      return true;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof io.tickwheel.core.coordination.StoreFencedException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Writes a finished delivery, retrying the write every second while the store fails (at least once), unless its
   * lane was lost (the new owner attempts it again from the pending record).
   *
   * @return completes when the record is written, or given up (lane lost, service stopped); never fails
   */
  private Future<Void> save(Held held) {
    Delivery finished = held.d();
    if (finished.state() == DeliveryState.DEAD) {
      deadCount++;
    }
    Promise<Void> done = Promise.promise();
    held.lane().store().updateDelivery(finished).onSuccess(ok -> done.tryComplete()).onFailure(e -> {
      if (stopped || lost(held.lane(), e)) {
        if (finished.state() == DeliveryState.DEAD) {
          deadCount--;
        }
        done.tryComplete();
        return;
      }
      LOG.log(System.Logger.Level.WARNING, "recording delivery " + finished.id() + " as " + finished.state().wire()
          + " failed; retrying in 1 s: " + e);
      vertx.setTimer(1000, id -> {
        if (finished.state() == DeliveryState.DEAD) {
          deadCount--;
        }
        save(held).onComplete(ar -> done.tryComplete());
      });
    });
    return done.future();
  }

  /**
   * Starts queued attempts of {@code h} while it has free slots (a failure of one is that delivery's: see
   * {@link #bury}); forgets a host with nothing in flight, nothing queued and a blank breaker, and puts one that
   * remembers failures among the idle hosts (so the map holds only hosts with work or a recent failure record).
   */
  private void pump(Host h) {
    long now = clock.getAsLong();
    while (h.inFlight < opts.perHostConcurrency() && !h.queue.isEmpty()) {
      Held d = h.queue.poll();
      queued--;
      try {
        admitAndStart(d, h, now);
      } catch (RuntimeException e) {
        bury(d, now, INTERNAL_ERROR, "failed unexpectedly: " + e, e);
      }
    }
    if (h.inFlight == 0 && h.queue.isEmpty()) {
      idleHosts.remove(h.key);
      if (h.breaker.blank()) {
        hosts.remove(h.key);
      } else {
        h.idleSince = now;
        idleHosts.put(h.key, h);
        evictIdleHosts(now);
      }
    }
  }

  /**
   * Forgets the idle hosts idle for {@link DeliveryOptions#breakerOpenMs()} or more, and the longest idle beyond
   * {@link DeliveryOptions#maxIdleHosts()}. A breaker opened by a host's last failure has run out by then (it went
   * idle at that failure), so forgetting it lets through no attempt the breaker would have held back. Work: the
   * hosts forgotten, plus one.
   */
  private void evictIdleHosts(long now) {
    Iterator<Host> it = idleHosts.values().iterator();
    while (it.hasNext()) {
      Host h = it.next();
      if (idleHosts.size() <= opts.maxIdleHosts() && now - h.idleSince < opts.breakerOpenMs()) {
        return;
      }
      it.remove();
      hosts.remove(h.key);
    }
  }

  /** The hosts whose state is remembered (with work, or idle with a failure record). */
  int hostsRemembered() {
    return hosts.size();
  }

  // ------------------------------------------------------------------ retention

  /**
   * Trims finished records beyond retention in every live lane (each partition keeps its own retention), one lane
   * after the other (a cluster node's partitions share one Redis: their trims all at once would queue there as one
   * burst ahead of the firings), then counts the dead ones for the gauge. Every lane is tried even when one fails.
   *
   * @return how many records were removed; failed with the first lane's failure, after every lane was tried
   */
  public Future<Long> trim() {
    lanes.removeIf(l -> !l.live().getAsBoolean());
    long now = clock.getAsLong();
    evictIdleHosts(now);
    List<DeliveryLane> todo = List.copyOf(lanes);
    long[] removed = {0};
    Throwable[] failure = {null};
    Future<Void> chain = Future.succeededFuture();
    for (DeliveryLane l : todo) {
      chain = chain.compose(v -> l.store().trimDeliveries(opts.retention(), now).transform(ar -> {
        if (ar.succeeded()) {
          removed[0] += ar.result();
        } else if (failure[0] == null) {
          failure[0] = ar.cause();
        }
        return Future.<Void>succeededFuture();
      }));
    }
    return chain.compose(v -> failure[0] == null ? Future.succeededFuture(removed[0])
        : Future.<Long>failedFuture(failure[0])).onComplete(ar -> countDead());
  }

  private void periodicTrim() {
    if (trimming) {
      return;
    }
    trimming = true;
    trim().onComplete(ar -> trimming = false);
  }

  private void countDead() {
    List<Future<Long>> counts = new ArrayList<>(lanes.size());
    for (DeliveryLane l : lanes) {
      if (l.live().getAsBoolean()) {
        counts.add(l.store().countDeliveries(DeliveryState.DEAD));
      }
    }
    Future.all(counts).onSuccess(cf -> {
      long n = 0;
      for (Future<Long> f : counts) {
        n += f.result();
      }
      deadCount = n;
    });
  }
}
