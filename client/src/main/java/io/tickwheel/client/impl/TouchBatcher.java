package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sends touches as batch touches ({@code POST /v1/timers/touch}, {@code {"ids":[…],"delayMs"?}}), over Vert.x's
 * HTTP client (keep-alive, one connection per batch in flight, the options' connect and idle timeouts, the request
 * timeout as each request's idle timeout).
 *
 * <p>A client given several endpoints (a cluster) splits each batch by the owner of its ids ({@link PartitionMap})
 * and sends each part to its owner (unknown owner: the endpoint in use, which forwards); each part is a request.
 *
 * <p>Touches wait in one group per {@code delayMs} (-1: each timer's own); a flush runs once per event-loop turn
 * after a touch arrives and whenever a batch is answered, and sends each group's oldest ids, at most
 * {@code maxTouchBatchIds} per request, while fewer than {@code maxTouchBatchesInFlight} requests are unanswered.
 * Touches arriving meanwhile gather into the next batch. Per (id, delayMs): a touch joins the one that waits (not
 * yet sent); while one is in a batch in flight, it becomes (or joins) that key's single follow-up, which waits until
 * the batch is answered. So every caller is answered by a touch sent after its call.
 *
 * <p>Answers per item: 200 completes with {@code nextDueAt}; any other item status fails with that item's error
 * (404 {@code not_found}; 503 {@code unavailable}, {@code mayHaveApplied} as its message says). A non-200 answer to
 * the whole request fails all of its touches with it. A request with no answer (connection refused or reset, idle
 * timeout) is sent again, after the reconnect backoff, with the touches whose request timeout has not passed; the
 * others fail with {@code timeout}, {@code mayHaveApplied} true. A periodic sweep fails waiting touches past their
 * deadline. At most {@code maxQueued} keys wait (follow-ups included); beyond it a touch fails with
 * {@code queue_full}.
 *
 * <p>Not thread safe: the client's context only.
 */
final class TouchBatcher {
  private static final System.Logger LOG = System.getLogger(TouchBatcher.class.getName());
  private static final String PATH = "/v1/timers/touch";

  private record Key(String id, long delayMs) {}

  private final PartitionMap owners;

  /** One waiting or sent touch of a key: the callers' promise and the deadline of its first caller. */
  private static final class Touch {
    final Key key;
    final Promise<Long> promise = Promise.promise();
    final long deadlineNanos;

    Touch(Key key, long deadlineNanos) {
      this.key = key;
      this.deadlineNanos = deadlineNanos;
    }
  }

  private final Vertx vertx;
  private final Context context;
  private final BatchPoster http;
  private final long requestTimeoutMs;
  private final int maxQueued;
  private final int maxBatchIds;
  private final int maxBatches;
  private final long sweepMs;
  private final ReconnectBackoff backoff;

  /** Waiting touches per delayMs, each in arrival order. */
  private final LinkedHashMap<Long, LinkedHashMap<String, Touch>> waiting = new LinkedHashMap<>();
  /** Keys in a batch in flight. */
  private final Set<Key> sent = new HashSet<>();
  /** The follow-up of a key in {@link #sent}. */
  private final Map<Key, Touch> followUps = new HashMap<>();
  private int waitingCount;
  private int inFlightIds;
  private int batchesInFlight;
  private boolean flushScheduled;
  private long retryTimer = -1;
  private long sweepTimer = -1;
  private boolean closed;
  private long merged;
  private long batches;
  private String lastFailure;

  TouchBatcher(Vertx vertx, Context context, TickwheelClientOptions o, Endpoints endpoints, PartitionMap owners) {
    this.owners = owners;
    this.vertx = vertx;
    this.context = context;
    this.maxBatches = o.getMaxTouchBatchesInFlight();
    this.http = new BatchPoster(vertx, o, endpoints, PATH, maxBatches);
    this.requestTimeoutMs = o.getRequestTimeoutMs();
    this.maxQueued = o.getMaxQueued();
    this.maxBatchIds = o.getMaxTouchBatchIds();
    this.sweepMs = Math.max(5, Math.min(1_000, requestTimeoutMs / 4));
    this.backoff = new ReconnectBackoff(o.getReconnectInitialBackoffMs(), o.getReconnectMaxBackoffMs());
  }

  /** Touches waiting for a batch (follow-ups included). */
  int queued() {
    return waitingCount + followUps.size();
  }

  /** Touches in batches sent and not yet answered. */
  int inFlight() {
    return inFlightIds;
  }

  /** Touches that joined another caller's touch so far. */
  long merged() {
    return merged;
  }

  /** Batch requests sent so far (retries included). */
  long batches() {
    return batches;
  }

  /**
   * A touch of {@code id}: its new {@code nextDueAt} (epoch ms).
   *
   * @param delayMs the new countdown, or -1 for the timer's own
   */
  Future<Long> touch(String id, long delayMs) {
    if (closed) {
      return Future.failedFuture(TickwheelException.client(TickwheelException.CLIENT_CLOSED, "the client is closed",
          false));
    }
    Key key = new Key(id, delayMs);
    LinkedHashMap<String, Touch> group = waiting.get(delayMs);
    Touch t = group == null ? null : group.get(id);
    if (t != null) {
      merged++;
      return t.promise.future();
    }
    if (sent.contains(key)) {
      Touch f = followUps.get(key);
      if (f != null) {
        merged++;
        return f.promise.future();
      }
    }
    if (queued() >= maxQueued) {
      return Future.failedFuture(TickwheelException.client(TickwheelException.QUEUE_FULL, "touch " + id
          + " not sent: " + inFlightIds + " touches in flight and " + queued() + " waiting (maxQueued " + maxQueued
          + ")", false));
    }
    t = new Touch(key, System.nanoTime() + requestTimeoutMs * 1_000_000L);
    if (sent.contains(key)) {
      followUps.put(key, t);
    } else {
      enqueue(t);
    }
    ensureSweep();
    scheduleFlush();
    return t.promise.future();
  }

  private void enqueue(Touch t) {
    waiting.computeIfAbsent(t.key.delayMs(), d -> new LinkedHashMap<>()).put(t.key.id(), t);
    waitingCount++;
  }

  private void scheduleFlush() {
    if (!flushScheduled && retryTimer < 0) {
      flushScheduled = true;
      context.runOnContext(v -> {
        flushScheduled = false;
        flush();
      });
    }
  }

  /** Sends waiting touches while a batch slot is free. */
  private void flush() {
    if (retryTimer >= 0 || closed) {
      return;
    }
    while (batchesInFlight < maxBatches && !waiting.isEmpty()) {
      Iterator<Map.Entry<Long, LinkedHashMap<String, Touch>>> groups = waiting.entrySet().iterator();
      Map.Entry<Long, LinkedHashMap<String, Touch>> first = groups.next();
      LinkedHashMap<String, Touch> group = first.getValue();
      List<Touch> batch = new ArrayList<>(Math.min(group.size(), maxBatchIds));
      for (Iterator<Touch> it = group.values().iterator(); it.hasNext() && batch.size() < maxBatchIds; ) {
        Touch t = it.next();
        it.remove();
        waitingCount--;
        if (!t.promise.future().isComplete()) {
          batch.add(t);
        }
      }
      if (group.isEmpty()) {
        groups.remove();
      }
      if (!batch.isEmpty()) {
        send(first.getKey(), batch);
      }
    }
  }

  /** Sends {@code batch}: in a cluster, one request per owner of its ids (unknown owner: the endpoint in use). */
  private void send(long delayMs, List<Touch> batch) {
    if (!owners.enabled()) {
      send(null, delayMs, batch);
      return;
    }
    Map<String, List<Touch>> byOwner = new LinkedHashMap<>();
    for (Touch t : batch) {
      byOwner.computeIfAbsent(owners.ownerOf(t.key.id()), k -> new ArrayList<>()).add(t);
    }
    byOwner.forEach((base, part) -> send(base, delayMs, part));
  }

  private void send(String base, long delayMs, List<Touch> batch) {
    JsonArray ids = new JsonArray(new ArrayList<>(batch.size()));
    for (Touch t : batch) {
      ids.add(t.key.id());
      sent.add(t.key);
    }
    JsonObject body = new JsonObject().put("ids", ids);
    if (delayMs >= 0) {
      body.put("delayMs", delayMs);
    }
    batchesInFlight++;
    inFlightIds += batch.size();
    batches++;
    http.post(base, body.toBuffer(), () -> { })
        .onComplete(ar -> onContext(() -> {
          batchesInFlight--;
          inFlightIds -= batch.size();
          if (ar.succeeded()) {
            backoff.reset();
            if (ar.result().status() == 503) {
              owners.stale();
            }
            answered(batch, ar.result());
          } else {
            lastFailure = String.valueOf(ar.cause().getMessage());
            LOG.log(System.Logger.Level.DEBUG, "batch touch failed", ar.cause());
            owners.failed(base);
            unanswered(batch);
          }
          for (Touch t : batch) {
            release(t.key);
          }
          flush();
        }));
  }

  private void onContext(Runnable r) {
    BatchPoster.onContext(context, r);
  }

  /** Completes each touch of {@code batch} from its item of {@code answer} (or all from a non-200 answer). */
  private void answered(List<Touch> batch, Exchange.Answer answer) {
    Object decoded;
    try {
      decoded = answer.body().length() == 0 ? null : Json.decodeValue(answer.body());
    } catch (DecodeException e) {
      decoded = answer.body().toString();
    }
    if (answer.status() != 200) {
      TickwheelException e = Answers.error(answer.status(), decoded);
      for (Touch t : batch) {
        t.promise.tryFail(e);
      }
      return;
    }
    JsonArray results = decoded instanceof JsonObject o && o.getValue("results") instanceof JsonArray a ? a : null;
    if (results == null || results.size() != batch.size()) {
      TickwheelException e = TickwheelException.client(TickwheelException.PROTOCOL, "POST " + PATH + " with "
          + batch.size() + " ids: 200 without as many results: " + Answers.shorten(String.valueOf(decoded)), true);
      for (Touch t : batch) {
        t.promise.tryFail(e);
      }
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      Touch t = batch.get(i);
      Object item = results.getValue(i);
      if (!(item instanceof JsonObject r) || !t.key.id().equals(r.getString("id"))) {
        t.promise.tryFail(TickwheelException.client(TickwheelException.PROTOCOL, "POST " + PATH + ": result " + i
            + " is not the one of id " + t.key.id() + ": " + Answers.shorten(String.valueOf(item)), true));
        continue;
      }
      int status = Answers.status(r);
      Object next = r.getValue("nextDueAt");
      if (status == 200 && next instanceof Number n) {
        t.promise.tryComplete(n.longValue());
      } else if (status == 200) {
        t.promise.tryFail(TickwheelException.client(TickwheelException.PROTOCOL, "POST " + PATH + ": result of "
            + t.key.id() + " is 200 without nextDueAt", true));
      } else {
        t.promise.tryFail(Answers.error(status, r.getValue("error")));
      }
    }
  }

  /**
   * {@code batch} got no answer: its touches still within their deadline wait again (ahead of the others of their
   * delayMs), and the
   * next batch goes after the backoff; the rest fail with {@code timeout}.
   */
  private void unanswered(List<Touch> batch) {
    long now = System.nanoTime();
    List<Touch> again = new ArrayList<>();
    for (Touch t : batch) {
      if (t.promise.future().isComplete()) {
        continue;
      }
      if (closed) {
        t.promise.tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED, "touch " + t.key.id()
            + ": the client was closed before its answer; it may have been applied", true));
      } else if (now - t.deadlineNanos >= 0) {
        t.promise.tryFail(timeout(t, true));
      } else {
        again.add(t);
      }
    }
    if (again.isEmpty()) {
      return;
    }
    long delayMs = again.get(0).key.delayMs();
    LinkedHashMap<String, Touch> old = waiting.remove(delayMs);
    LinkedHashMap<String, Touch> group = new LinkedHashMap<>();
    for (Touch t : again) {
      Touch joined = old == null ? null : old.remove(t.key.id());
      if (joined != null) { // a later touch of the key waits already: the retry answers both
        waitingCount--;
        t.promise.future().onComplete(joined.promise);
      }
      group.put(t.key.id(), t);
      waitingCount++;
    }
    if (old != null) {
      group.putAll(old);
    }
    waiting.put(delayMs, group);
    if (retryTimer < 0 && !closed) {
      retryTimer = vertx.setTimer(backoff.next(), id -> {
        retryTimer = -1;
        flush();
      });
    }
  }

  /** {@code key}'s batch was answered: its follow-up, if any, waits for the next batch. */
  private void release(Key key) {
    if (!sent.remove(key)) {
      return;
    }
    Touch f = followUps.remove(key);
    if (f == null) {
      return;
    }
    LinkedHashMap<String, Touch> group = waiting.get(key.delayMs());
    Touch w = group == null ? null : group.get(key.id());
    if (w != null) { // a retried touch of the key waits already: it answers the follow-up too
      w.promise.future().onComplete(f.promise);
    } else {
      enqueue(f);
    }
  }

  private void ensureSweep() {
    if (sweepTimer < 0 && !closed) {
      sweepTimer = vertx.setPeriodic(sweepMs, t -> sweep());
    }
  }

  /** Fails waiting touches past their deadline; stops itself when nothing waits or is in flight. */
  private void sweep() {
    long now = System.nanoTime();
    for (Iterator<LinkedHashMap<String, Touch>> groups = waiting.values().iterator(); groups.hasNext(); ) {
      LinkedHashMap<String, Touch> group = groups.next();
      for (Iterator<Touch> it = group.values().iterator(); it.hasNext(); ) {
        Touch t = it.next();
        if (t.promise.future().isComplete() || now - t.deadlineNanos >= 0) {
          it.remove();
          waitingCount--;
          t.promise.tryFail(timeout(t, false));
        }
      }
      if (group.isEmpty()) {
        groups.remove();
      }
    }
    for (Iterator<Touch> it = followUps.values().iterator(); it.hasNext(); ) {
      Touch t = it.next();
      if (now - t.deadlineNanos >= 0) {
        it.remove();
        t.promise.tryFail(timeout(t, false));
      }
    }
    if (waiting.isEmpty() && followUps.isEmpty() && batchesInFlight == 0) {
      vertx.cancelTimer(sweepTimer);
      sweepTimer = -1;
    }
  }

  private TickwheelException timeout(Touch t, boolean sent) {
    return TickwheelException.client(TickwheelException.TIMEOUT, "touch " + t.key.id() + ": no answer within "
        + "requestTimeoutMs " + requestTimeoutMs + (sent ? " (sent: it may have been applied)" : " (not sent)")
        + (lastFailure == null ? "" : "; last failure: " + lastFailure), sent);
  }

  /** Fails every waiting touch with {@code client_closed} (those in flight fail as their request ends). */
  Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    if (retryTimer >= 0) {
      vertx.cancelTimer(retryTimer);
    }
    TickwheelException e = TickwheelException.client(TickwheelException.CLIENT_CLOSED,
        "touch: the client was closed before it was sent", false);
    for (LinkedHashMap<String, Touch> group : waiting.values()) {
      for (Touch t : group.values()) {
        t.promise.tryFail(e);
      }
    }
    waiting.clear();
    waitingCount = 0;
    for (Touch t : followUps.values()) {
      t.promise.tryFail(e);
    }
    followUps.clear();
    return http.close();
  }
}
