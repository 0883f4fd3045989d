package io.tickwheel.server.delivery;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.delivery.RetrySchedule;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.callback.GuardedResolver;
import io.tickwheel.server.callback.ResolvedTarget;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
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
 *       the attempt appended, is written to the store ({@link TimerStore#updateDelivery}) and, while pending, put
 *       back in the wheel once the write succeeded.</li>
 *   <li>Nothing here blocks or waits for a receiver on the event loop: a slow or dead receiver holds only its own
 *       host's slots.</li>
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
  /** The longest sleep of the wake-up timer, ms (a bound on the harm of a clock jump). */
  private static final long MAX_SLEEP_MS = 1000;

  private final Vertx vertx;
  private final Context owner;
  private final TimerStore store;
  private final LongSupplier clock;
  private final DeliveryOptions opts;
  private final GuardedResolver resolver;
  private final WebhookSigner signer;
  private final DeliveryClient client;
  private final DeliveryMetrics metrics;
  private final DoubleSupplier random;
  private final boolean autoWake;

  private final TimerWheel<Delivery> wheel;
  private final Map<String, Host> hosts = new HashMap<>();
  private int inFlight;
  private int queued;
  /** The {@link #weight} of every delivery held pending. */
  private long heldBytes;
  private long deadCount;
  private boolean stopped;
  private long wakeTimer = -1;
  private long wakeAt = Long.MAX_VALUE;
  private long trimTimer = -1;
  private boolean drainSoon;

  /** One receiver host: its attempts in flight, those waiting for a slot, its breaker. */
  private static final class Host {
    final String key;
    final Breaker breaker;
    final ArrayDeque<Delivery> queue = new ArrayDeque<>();
    int inFlight;

    Host(String key, DeliveryOptions o) {
      this.key = key;
      breaker = new Breaker(o.breakerFailures(), o.breakerOpenMs());
    }
  }

  /**
   * @param random   uniform doubles in {@code [0, 1)} for the ±20 % jitter (tests pass a seeded one)
   * @param autoWake whether the service wakes itself with Vert.x timers (the server) or is driven by
   *                 {@link #drain()} alone (tests with a manual clock)
   */
  public DeliveryService(Vertx vertx, Context owner, TimerStore store, LongSupplier clock, DeliveryOptions opts,
      GuardedResolver resolver, WebhookSigner signer, DeliveryMetrics metrics, DoubleSupplier random,
      boolean autoWake) {
    this.vertx = vertx;
    this.owner = owner;
    this.store = store;
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

  /** Loads the pending deliveries from the store into the wheel; starts trimming. */
  public Future<Long> recover() {
    return store.loadPendingDeliveries(1000, batch -> {
      for (Delivery d : batch) {
        accept(d);
      }
      return Future.succeededFuture();
    }).onSuccess(n -> {
      if (autoWake && !stopped) {
        trimTimer = vertx.setPeriodic(opts.trimIntervalMs(), id -> trim());
      }
      countDead();
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

  // ------------------------------------------------------------------ intake

  /** Takes a pending delivery (a new one from the fire loop, or one loaded at recovery) into the wheel. */
  public void accept(Delivery d) {
    if (stopped || d.state() != DeliveryState.PENDING) {
      return;
    }
    if (full(d)) {
      long now = clock.getAsLong();
      Delivery dead = d.after(new Attempt(d.nextAttemptNumber(), now, 0, QUEUE_FULL, 0), DeliveryState.DEAD, 0, now);
      metrics.attempt(QUEUE_FULL, 0);
      save(dead);
      return;
    }
    heldBytes += weight(d);
    schedule(d, d.nextAttemptAt());
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

  /** Hosts whose breaker is not closed. */
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
    return store.getDelivery(seq).<DeliveryOutcome>map(d -> d == null ? new DeliveryOutcome.NotFound(id)
        : new DeliveryOutcome.Found(d)).recover(DeliveryService::storeFailed);
  }

  public Future<DeliveryOutcome> list(DeliveryState state, long afterSeq, int limit) {
    return store.listDeliveries(state, afterSeq, limit).<DeliveryOutcome>map(DeliveryOutcome.Listed::new)
        .recover(DeliveryService::storeFailed);
  }

  /** Re-queues a dead delivery: pending again with a new round of attempts, the next one now, same id. */
  public Future<DeliveryOutcome> retry(String id) {
    long seq = Delivery.seqOf(id);
    if (seq < 0) {
      return Future.succeededFuture(new DeliveryOutcome.NotFound(id));
    }
    return store.getDelivery(seq).compose(d -> {
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
      return store.updateDelivery(again).map(stored -> {
        if (!stored) {
          return new DeliveryOutcome.NotFound(id);
        }
        deadCount = Math.max(0, deadCount - 1);
        heldBytes += weight(again);
        schedule(again, again.nextAttemptAt());
        return new DeliveryOutcome.Requeued(again);
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
    int n = wheel.advance(now, (key, due, d) -> dispatch(d, now), opts.maxAttemptsPerTurn());
    if (n == opts.maxAttemptsPerTurn() && autoWake) {
      drainSoon = true;
      owner.runOnContext(v -> drain());
    } else {
      arm();
    }
    return n;
  }

  private void schedule(Delivery d, long at) {
    wheel.schedule(d.id(), at, d);
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

  private static String hostKey(String url) {
    URI u = URI.create(url);
    return u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getHost().toLowerCase(Locale.ROOT) + ":" + u.getPort();
  }

  private void dispatch(Delivery d, long now) {
    Host h = hosts.computeIfAbsent(hostKey(d.callback().url()), k -> new Host(k, opts));
    if (h.inFlight >= opts.perHostConcurrency()) {
      if (h.queue.size() < opts.perHostQueue()) {
        h.queue.add(d);
        queued++;
      } else {
        postpone(d, now + opts.postponeMs(), "host_queue_full");
      }
      return;
    }
    admitAndStart(d, h, now);
  }

  private void admitAndStart(Delivery d, Host h, long now) {
    long until = h.breaker.admit(now);
    if (until != 0) {
      postpone(d, until, "breaker_open");
      return;
    }
    start(d, h);
  }

  private void postpone(Delivery d, long at, String reason) {
    metrics.postponed(reason);
    schedule(d.postponed(at), at);
  }

  private void start(Delivery d, Host h) {
    h.inFlight++;
    inFlight++;
    long startedAt = clock.getAsLong();
    long t0 = System.nanoTime();
    Callback cb = d.callback();
    Promise<AttemptResult> done = Promise.promise();
    // the overall deadline covers resolution too; the client keeps its own for the request
    long deadline = vertx.setTimer(cb.timeoutMs() + 100L, id -> done.tryComplete(
        new AttemptResult(0, null, AttemptResult.TIMEOUT, (System.nanoTime() - t0) / 1_000_000)));
    String host = URI.create(cb.url()).getHost();
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
    }
    resolver.resolve(host).compose(target -> {
      if (target.outcome() != ResolvedTarget.Outcome.CONNECT) {
        return Future.succeededFuture(new AttemptResult(0, null, target.error(), (System.nanoTime() - t0) / 1_000_000));
      }
      java.net.InetAddress address = target.address();
      byte[] body = TimerJson.firingJson(d.firing()).getBytes(StandardCharsets.UTF_8);
      long ts = clock.getAsLong() / 1000;
      Map<String, String> headers = Map.of(WebhookSigner.ID, d.id(), WebhookSigner.TIMESTAMP, Long.toString(ts),
          WebhookSigner.SIGNATURE, signer.sign(d.id(), ts, body));
      return client.post(cb.url(), address, headers, Buffer.buffer(body), cb.timeoutMs(), t0);
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        done.tryComplete(ar.result());
      } else {
        done.tryComplete(new AttemptResult(0, null, AttemptResult.CONNECTION, (System.nanoTime() - t0) / 1_000_000));
      }
    });
    done.future().onComplete(ar -> {
      vertx.cancelTimer(deadline);
      finish(d, h, startedAt, ar.result());
    });
  }

  private void finish(Delivery d, Host h, long startedAt, AttemptResult r) {
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
      store.updateDelivery(next).onComplete(ar -> {
        inFlight--;
        if (ar.failed()) {
          LOG.log(System.Logger.Level.WARNING, "recording attempt of delivery " + next.id() + " failed (the next "
              + "attempt records it): " + ar.cause());
        }
        if (ar.failed() || ar.result()) {
          schedule(next, next.nextAttemptAt());
        } else {
          heldBytes -= weight(next); // no longer stored (cannot happen to a pending one): let it go
        }
      });
    } else {
      heldBytes -= weight(d);
      save(next);
    }
    pump(h);
  }

  /** Writes a finished delivery, retrying the write every second while the store fails (at least once). */
  private void save(Delivery finished) {
    if (finished.state() == DeliveryState.DEAD) {
      deadCount++;
    }
    store.updateDelivery(finished).onFailure(e -> {
      if (stopped) {
        return;
      }
      LOG.log(System.Logger.Level.WARNING, "recording delivery " + finished.id() + " as " + finished.state().wire()
          + " failed; retrying in 1 s: " + e);
      vertx.setTimer(1000, id -> {
        if (finished.state() == DeliveryState.DEAD) {
          deadCount--;
        }
        save(finished);
      });
    });
  }

  /**
   * Starts queued attempts of {@code h} while it has free slots; forgets a host with nothing in flight, nothing
   * queued and a blank breaker (so the map holds only hosts with work or a failure record).
   */
  private void pump(Host h) {
    long now = clock.getAsLong();
    while (h.inFlight < opts.perHostConcurrency() && !h.queue.isEmpty()) {
      Delivery d = h.queue.poll();
      queued--;
      admitAndStart(d, h, now);
    }
    if (h.inFlight == 0 && h.queue.isEmpty() && h.breaker.blank()) {
      hosts.remove(h.key);
    }
  }

  // ------------------------------------------------------------------ retention

  /** Trims finished records beyond retention, then counts the dead ones for the gauge. */
  public Future<Long> trim() {
    return store.trimDeliveries(opts.retention(), clock.getAsLong()).onComplete(ar -> countDead());
  }

  private void countDead() {
    store.countDeliveries(DeliveryState.DEAD).onSuccess(n -> deadCount = n);
  }
}
