package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.tickwheel.client.TimerInfo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Sends schedules as batch creates ({@code POST /v1/timers/batch}, {@code {"timers":[…]}}), over Vert.x's HTTP client
 * (keep-alive, one connection per batch in flight, the options' connect and idle timeouts, the request timeout as
 * each request's idle timeout). On the server a timer of a batch costs a fraction of a single create (one store
 * write and one HTTP exchange for the batch), so a burst of schedules costs about what a batch costs.
 *
 * <p>Where: to the endpoint in use; a client given several endpoints (a cluster) splits each batch by the owner of
 * its timers' ids ({@link PartitionMap}) and sends each part to its owner (timers without an id, or whose owner is
 * not known, to the endpoint in use, which forwards what it does not own). Each part is a request of its own.
 *
 * <p>When: schedules wait in arrival order; a flush runs once per event-loop turn after a schedule arrives and
 * whenever a batch is answered. It sends the oldest as a batch of half the schedules outstanding (waiting plus in
 * flight; at least 1, at most {@code maxScheduleBatchTimers}) while fewer than {@code maxScheduleBatchesInFlight}
 * requests are unanswered; with a request unanswered, a batch is sent only once that many wait, else they gather
 * until the next answer. So callers keeping C schedules in flight get about two batches of C/2 in flight (one worked
 * on by the server while the other is answered), not many small ones; a burst beyond twice the largest batch goes
 * out in full batches, up to {@code maxScheduleBatchesInFlight} at once. An idle client sends a lone schedule at once
 * (one turn later); a schedule waits at most until a request in flight is answered or fails.
 *
 * <p>Answers per item, as the single create would have been answered: 201 completes with the timer; any other item
 * status fails with that item's error (409 {@code already_exists}, 400 naming the field, ...). A non-200 answer to
 * the whole request (413, 429, 503, ...) fails all of its schedules with it. A schedule is never sent twice (a
 * create with a server-chosen id is not idempotent): a request that could not be sent (no connection) is tried
 * again after the reconnect backoff while its schedules' request timeout has not passed; a request sent and not
 * answered fails its schedules with {@code timeout} or {@code connection_lost}, {@code mayHaveApplied} true. A periodic
 * sweep fails waiting schedules past their deadline. At most {@code maxQueued} schedules wait; beyond it a schedule
 * fails at once with {@code queue_full}.
 *
 * <p>Not thread safe: the client's context only.
 */
final class ScheduleBatcher {
  private static final String PATH = "/v1/timers/batch";

  /** One waiting or sent schedule: the timer's JSON, the caller's promise, its deadline. */
  private record Schedule(JsonObject timer, Promise<TimerInfo> promise, long deadlineNanos) {}

  private final Vertx vertx;
  private final Context context;
  private final BatchPoster http;
  private final long requestTimeoutMs;
  private final int maxQueued;
  private final int maxBatch;
  private final int maxBatches;
  private final long sweepMs;
  private final ReconnectBackoff backoff;
  private final PartitionMap owners;

  private final ArrayDeque<Schedule> waiting = new ArrayDeque<>();
  private int inFlightTimers;
  private int batchesInFlight;
  private boolean flushScheduled;
  private long retryTimer = -1;
  private long sweepTimer = -1;
  private boolean closed;
  private long batches;
  private String lastFailure;

  ScheduleBatcher(Vertx vertx, Context context, TickwheelClientOptions o, Endpoints endpoints, PartitionMap owners) {
    this.owners = owners;
    this.vertx = vertx;
    this.context = context;
    this.maxBatches = o.getMaxScheduleBatchesInFlight();
    this.maxBatch = o.getMaxScheduleBatchTimers();
    this.http = new BatchPoster(vertx, o, endpoints, PATH, maxBatches);
    this.requestTimeoutMs = o.getRequestTimeoutMs();
    this.maxQueued = o.getMaxQueued();
    this.sweepMs = Math.max(5, Math.min(1_000, requestTimeoutMs / 4));
    this.backoff = new ReconnectBackoff(o.getReconnectInitialBackoffMs(), o.getReconnectMaxBackoffMs());
  }

  /** Schedules waiting for a batch. */
  int queued() {
    return waiting.size();
  }

  /** Schedules in batches sent and not yet answered. */
  int inFlight() {
    return inFlightTimers;
  }

  /** Batch requests sent so far. */
  long batches() {
    return batches;
  }

  /** A schedule of {@code timer} (its JSON as {@code TimerRequest.toJson} writes it). */
  Future<TimerInfo> schedule(JsonObject timer) {
    if (closed) {
      return Future.failedFuture(TickwheelException.client(TickwheelException.CLIENT_CLOSED, "the client is closed",
          false));
    }
    if (waiting.size() >= maxQueued) {
      return Future.failedFuture(TickwheelException.client(TickwheelException.QUEUE_FULL, "schedule not sent: "
          + inFlightTimers + " schedules in flight and " + waiting.size() + " waiting (maxQueued " + maxQueued + ")",
          false));
    }
    Schedule s = new Schedule(timer, Promise.promise(), System.nanoTime() + requestTimeoutMs * 1_000_000L);
    waiting.add(s);
    ensureSweep();
    scheduleFlush();
    return s.promise().future();
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

  private void flush() {
    if (retryTimer >= 0 || closed) {
      return;
    }
    while (batchesInFlight < maxBatches && !waiting.isEmpty()) {
      int size = shareSize();
      if (batchesInFlight > 0 && waiting.size() < size) {
        return;
      }
      List<Schedule> batch = new ArrayList<>(Math.min(waiting.size(), size));
      while (batch.size() < size && !waiting.isEmpty()) {
        Schedule s = waiting.poll();
        if (!s.promise().future().isComplete()) {
          batch.add(s);
        }
      }
      if (!batch.isEmpty()) {
        send(batch);
      }
    }
  }

  /**
   * The size of the next batch: half of the schedules outstanding (waiting and in flight), at least 1 and at most
   * {@code maxBatch}. Two batches share what callers keep in flight, so one is answered while the other is worked
   * on, and each costs its request once for that many timers.
   */
  private int shareSize() {
    return Math.min(maxBatch, Math.max(1, (waiting.size() + inFlightTimers + 1) / 2));
  }

  /** Sends {@code batch}: in a cluster, one request per owner of its timers' ids (no id: the endpoint in use). */
  private void send(List<Schedule> batch) {
    if (!owners.enabled()) {
      send(null, batch);
      return;
    }
    java.util.Map<String, List<Schedule>> byOwner = new java.util.LinkedHashMap<>();
    for (Schedule s : batch) {
      byOwner.computeIfAbsent(owners.ownerOf(s.timer().getString("id")), k -> new ArrayList<>()).add(s);
    }
    byOwner.forEach(this::send);
  }

  /** Sends {@code batch} to {@code base} (an owner), or to the endpoint in use when it is {@code null}. */
  private void send(String base, List<Schedule> batch) {
    JsonArray timers = new JsonArray(new ArrayList<>(batch.size()));
    for (Schedule s : batch) {
      timers.add(s.timer());
    }
    Buffer body = new JsonObject().put("timers", timers).toBuffer();
    batchesInFlight++;
    inFlightTimers += batch.size();
    boolean[] sent = {false};
    http.post(base, body, () -> {
      sent[0] = true;
      batches++;
    }).onComplete(ar -> onContext(() -> {
          batchesInFlight--;
          inFlightTimers -= batch.size();
          if (ar.succeeded()) {
            backoff.reset();
            if (ar.result().status() == 503) {
              owners.stale();
            }
            answered(batch, ar.result());
          } else {
            lastFailure = String.valueOf(ar.cause().getMessage());
            if (sent[0]) {
              failSent(batch, ar.cause());
            } else {
              owners.failed(base);
              notSent(batch);
            }
          }
          flush();
        }));
  }

  private void onContext(Runnable r) {
    BatchPoster.onContext(context, r);
  }

  /** Completes each schedule of {@code batch} from its item of {@code answer} (or all from a non-200 answer). */
  private void answered(List<Schedule> batch, Exchange.Answer answer) {
    Object decoded;
    try {
      decoded = answer.body().length() == 0 ? null : Json.decodeValue(answer.body());
    } catch (DecodeException e) {
      decoded = answer.body().toString();
    }
    if (answer.status() != 200) {
      TickwheelException e = Answers.error(answer.status(), decoded);
      batch.forEach(s -> s.promise().tryFail(e));
      return;
    }
    JsonArray results = decoded instanceof JsonObject o && o.getValue("results") instanceof JsonArray a ? a : null;
    if (results == null || results.size() != batch.size()) {
      TickwheelException e = TickwheelException.client(TickwheelException.PROTOCOL, "POST " + PATH + " with "
          + batch.size() + " timers: 200 without as many results: " + Answers.shorten(String.valueOf(decoded)), true);
      batch.forEach(s -> s.promise().tryFail(e));
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      Schedule s = batch.get(i);
      Object item = results.getValue(i);
      if (!(item instanceof JsonObject r)) {
        s.promise().tryFail(TickwheelException.client(TickwheelException.PROTOCOL, "POST " + PATH + ": result " + i
            + " is not an object: " + Answers.shorten(String.valueOf(item)), true));
        continue;
      }
      try {
        s.promise().tryComplete(Answers.timer(r));
      } catch (TickwheelException e) {
        s.promise().tryFail(e);
      }
    }
  }

  /** A request sent and not answered: its schedules may have been created; never sent again. */
  private void failSent(List<Schedule> batch, Throwable cause) {
    boolean timedOut = Exchange.timedOut(cause);
    for (Schedule s : batch) {
      s.promise().tryFail(TickwheelException.client(timedOut ? TickwheelException.TIMEOUT
          : TickwheelException.CONNECTION_LOST, "schedule: the batch create was sent and not answered ("
          + cause.getMessage() + "); it may have been applied: read the timer before scheduling it again", true));
    }
  }

  /** A request that could not be sent: its schedules wait again, first in line, and the next try waits. */
  private void notSent(List<Schedule> batch) {
    for (int i = batch.size() - 1; i >= 0; i--) {
      Schedule s = batch.get(i);
      if (closed) {
        s.promise().tryFail(TickwheelException.client(TickwheelException.CLIENT_CLOSED,
            "schedule: the client was closed before it was sent", false));
      } else {
        waiting.addFirst(s);
      }
    }
    if (retryTimer < 0 && !closed) {
      retryTimer = vertx.setTimer(backoff.next(), id -> {
        retryTimer = -1;
        flush();
      });
    }
  }

  private void ensureSweep() {
    if (sweepTimer < 0 && !closed) {
      sweepTimer = vertx.setPeriodic(sweepMs, t -> sweep());
    }
  }

  /** Fails waiting schedules past their deadline (never sent); stops itself when nothing waits or is in flight. */
  private void sweep() {
    long now = System.nanoTime();
    for (Iterator<Schedule> it = waiting.iterator(); it.hasNext(); ) {
      Schedule s = it.next();
      if (s.promise().future().isComplete() || now - s.deadlineNanos() >= 0) {
        it.remove();
        s.promise().tryFail(TickwheelException.client(TickwheelException.TIMEOUT, "schedule: not sent within "
            + "requestTimeoutMs " + requestTimeoutMs + " (not applied)"
            + (lastFailure == null ? "" : "; last failure: " + lastFailure), false));
      }
    }
    if (waiting.isEmpty() && batchesInFlight == 0) {
      vertx.cancelTimer(sweepTimer);
      sweepTimer = -1;
    }
  }

  /** Fails every waiting schedule with {@code client_closed} (those in flight fail as their request ends). */
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
        "schedule: the client was closed before it was sent", false);
    waiting.forEach(s -> s.promise().tryFail(e));
    waiting.clear();
    return http.close();
  }
}
