package io.tickwheel.server.route;

import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.core.model.TimerSpec;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers the single creates and touches this node forwards to one owner into batch calls:
 * {@link InternalCall.CreateAll} for creates, {@link InternalCall.TouchAll} (one per {@code delayMs} override) for
 * touches. A
 * forwarded single call costs the two nodes an HTTP exchange each; a batch shares it, so under load (many calls per
 * event-loop turn, or calls arriving while a batch is out) a routed call costs about what a batch item costs.
 *
 * <p>When: a call joins its queue (owner, kind, override); one flush runs at the end of the event-loop turn after the
 * first call arrives, and again whenever a batch is answered. A flush sends each queue's oldest calls, at most
 * {@code maxItems} and at most {@link #MAX_BODY_BYTES} of body per request, while fewer than {@code maxInFlight} of that queue's requests are unanswered; calls
 * arriving meanwhile wait for the next. So an idle node sends a lone call at once (one turn later) and a busy one
 * sends batches that grow with the load. At most {@code maxQueued} calls wait over all queues; one more is refused at
 * once ({@link Refusal.Unrouted}, 503, nothing applied).
 *
 * <p>Outcomes: each call gets its item's outcome, which is what the owner answers the single call ({@code Created},
 * {@code Touched}, not found, conflict, any other refusal verbatim with its {@code Retry-After}); a refusal of the whole
 * request (503 recovering, 401) or no answer (timeout, unreachable: {@code mayHaveApplied}) becomes every item's
 * outcome. Ordering: as with single forwarded calls, two calls to one owner are not ordered
 * against each other unless the caller waited for the first's outcome (batches to one owner may be in flight at once).
 *
 * <p><b>Owner context only</b> (the node's event loop): not thread safe; futures complete there.
 */
final class ForwardBatcher {

  /** One queue: an owner's creates ({@code touch} false), or its touches with one override. */
  private record Key(String owner, boolean touch, Long delayOverride) {}

  /** A gathered call: its id, its spec (a create) or {@code null} (a touch), its text in the batch's body. */
  private record Call(String id, TimerSpec spec, String json, long bytes, Promise<WriteOutcome> promise) {}

  /**
   * Largest body of one forwarded batch request, bytes: the internal route's body limit
   * ({@link InternalCodec#MAX_BODY_BYTES}) less room for the envelope.
   * A request holds calls up to {@code maxItems} and up to this many bytes (a single call over it still goes alone).
   */
  static final long MAX_BODY_BYTES = InternalCodec.MAX_BODY_BYTES - 4096;

  private static final class Queue {
    final ArrayDeque<Call> waiting = new ArrayDeque<>();
    int inFlight;
  }

  private final Vertx vertx;
  private final Forwarder forwarder;
  private final RouteMetrics metrics;
  private final int maxItems;
  private final int maxInFlight;
  private final int maxQueued;
  private final Map<Key, Queue> queues = new HashMap<>();
  private int queued;
  private boolean flushScheduled;

  /**
   * @param maxItems    calls per forwarded request, 1..10,000 (the batch endpoints' cap)
   * @param maxInFlight requests per queue unanswered at once, at least 1
   * @param maxQueued   calls waiting over all queues, at least 1
   */
  ForwardBatcher(Vertx vertx, Forwarder forwarder, RouteMetrics metrics, int maxItems, int maxInFlight,
      int maxQueued) {
    if (maxItems < 1 || maxItems > 10_000 || maxInFlight < 1 || maxQueued < 1) {
      throw new IllegalArgumentException("forward batcher limits out of range: maxItems " + maxItems
          + " (1..10000), maxInFlight " + maxInFlight + " (>= 1), maxQueued " + maxQueued + " (>= 1)");
    }
    this.vertx = vertx;
    this.forwarder = forwarder;
    this.metrics = metrics;
    this.maxItems = maxItems;
    this.maxInFlight = maxInFlight;
    this.maxQueued = maxQueued;
  }

  /** Calls waiting now (not yet sent). */
  int queued() {
    return queued;
  }

  /** A create of {@code spec} (its id set) forwarded to {@code owner}. */
  Future<WriteOutcome> create(String owner, TimerSpec spec) {
    return add(new Key(owner, false, null), spec.id(), spec, InternalCodec.specText(spec));
  }

  /** A touch of {@code id} ({@code delayOverride} or {@code null}) forwarded to {@code owner}. */
  Future<WriteOutcome> touch(String owner, String id, Long delayOverride) {
    return add(new Key(owner, true, delayOverride), id, null, InternalCodec.idText(id));
  }

  private Future<WriteOutcome> add(Key key, String id, TimerSpec spec, String json) {
    if (queued >= maxQueued) {
      metrics.routed("full", 1);
      return Future.succeededFuture(new Refusal.Unrouted("this node has its maximum of " + maxQueued
          + " forwarded calls waiting to be sent", false));
    }
    Promise<WriteOutcome> p = Promise.promise();
    queues.computeIfAbsent(key, k -> new Queue()).waiting.add(new Call(id, spec, json, utf8Length(json), p));
    queued++;
    scheduleFlush();
    return p.future();
  }

  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      Context ctx = vertx.getOrCreateContext();
      ctx.runOnContext(v -> {
        flushScheduled = false;
        flush();
      });
    }
  }

  private void flush() {
    var it = queues.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      Queue q = e.getValue();
      while (!q.waiting.isEmpty() && q.inFlight < maxInFlight) {
        send(e.getKey(), q);
      }
      if (q.waiting.isEmpty() && q.inFlight == 0) {
        it.remove();
      }
    }
  }

  private void send(Key key, Queue q) {
    int max = Math.min(maxItems, q.waiting.size());
    List<Call> calls = new ArrayList<>(max);
    List<String> ids = new ArrayList<>(max);
    List<TimerSpec> specs = key.touch() ? null : new ArrayList<>(max);
    StringBuilder body = new StringBuilder(32 + 160 * max).append(InternalCodec.batchPrefix(key.touch()));
    long bytes = 0;
    for (int i = 0; i < max; i++) {
      Call c = q.waiting.peek();
      if (i > 0 && bytes + c.bytes() + 1 > MAX_BODY_BYTES) {
        break;                                   // the rest go in the next request
      }
      q.waiting.poll();
      bytes += c.bytes() + 1;
      calls.add(c);
      ids.add(c.id());
      if (specs != null) {
        specs.add(c.spec());
      }
      (i == 0 ? body : body.append(',')).append(c.json());
    }
    int n = calls.size();
    body.append(InternalCodec.batchSuffix(key.touch() ? key.delayOverride() : null));
    InternalCall call = key.touch() ? new InternalCall.TouchAll(ids, key.delayOverride())
        : new InternalCall.CreateAll(specs);
    queued -= n;
    q.inFlight++;
    forwarder.send(key.owner(), Buffer.buffer(body.toString()))
        .onComplete(ar -> {
          q.inFlight--;
          Object got = ar.failed() ? failed(ar.cause()) : ForwardedAnswers.items(call, ids, ar.result());
          if (got instanceof Refusal r) {
            calls.forEach(c -> c.promise().complete(r));
          } else {
            @SuppressWarnings("unchecked")
            List<WriteOutcome> os = (List<WriteOutcome>) got;
            metrics.routed("forwarded", calls.size());   // counted before the callers hear, so they see it counted
            for (int i = 0; i < calls.size(); i++) {
              calls.get(i).promise().complete(withRetryAfter(os.get(i)));
            }
          }
          if (!q.waiting.isEmpty()) {
            queues.putIfAbsent(key, q);
            scheduleFlush();
          }
        });
  }

  /**
   * A gathered call's 503 carries a {@code Retry-After} (1 s when the owner's item names none), so its caller retries
   * it as it would a single call the owner refused as not served.
   */
  private static WriteOutcome withRetryAfter(WriteOutcome o) {
    if (o instanceof Refusal.Remote r && r.status() == 503 && r.retryAfterSeconds() == 0) {
      return new Refusal.Remote(r.status(), r.code(), r.message(), r.field(), 1);
    }
    return o;
  }

  /** The UTF-8 length of {@code s}, bytes. */
  static long utf8Length(CharSequence s) {
    long n = s.length();
    for (int i = 0, len = s.length(); i < len; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        n += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;     // a surrogate pair: 4 bytes for its 2 chars
      }
    }
    return n;
  }

  private Refusal failed(Throwable e) {
    if (e instanceof Forwarder.Failure f) {
      metrics.routed(f.outcome, 1);
      return new Refusal.Unrouted(f.getMessage(), f.mayHaveApplied);
    }
    metrics.routed("unreachable", 1);
    return new Refusal.Unrouted("forwarding failed: " + e, true);
  }
}
