package io.tickwheel.store.redis.impl;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringLog;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreFaultException;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * The firing log part of a Redis store: {@code log}, a Redis Stream with explicit ids {@code SEQ-0} (append-only,
 * range reads by seq with {@code XRANGE}, cheap trimming from the head), and {@code seq}, the last seq
 * ({@code INCR}), kept apart so it survives trimming. {@link #recordFirings} is one {@code fire.lua} call for the
 * whole batch (on a partition store, one section of the link's {@link WriteGroup} call of the turn): per request, in list order, it checks generation and firing count, takes the next seq, appends the
 * firing with the stored topic and payload, advances or removes the timer and creates the pending delivery of a
 * callback; a stale request writes nothing and consumes no seq. Thread safe; every call completes on the caller's
 * context.
 */
public final class RedisFiringLog implements FiringLog {

  /** The most log entries one trim script inspects by age before yielding Redis to other clients. */
  static final int TRIM_BUDGET = 10_000;

  private final RedisSender send;
  private final RedisKeys keys;
  private final QuietTrim quiet = new QuietTrim();

  public RedisFiringLog(RedisSender send, RedisKeys keys) {
    this.send = send;
    this.keys = keys;
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    if (requests.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    quiet.wrote();
    List<Object> args = new ArrayList<>(requests.size() * 7);
    for (FiringRequest q : requests) {
      Timer next = q.next();
      String rearmed = next == null ? null : TimerRecord.rearmedHeader(next, q.generation(), q.firingsBefore());
      if (next != null && rearmed == null) {
        try {
          TimerRecord.check(next);
        } catch (IllegalArgumentException e) {
          return Future.failedFuture(e);
        }
      }
      args.add(q.id());
      args.add(Long.toString(q.generation()));
      args.add(Long.toString(q.firingsBefore()));
      args.add(q.fire() ? firingMeta(q) : "");
      args.add(next == null ? "" : TimerRecord.member(next.nextDueAt(), next.id()));
      args.add(next == null ? "" : rearmed != null ? rearmed : TimerRecord.header(next));
      args.add(q.fire() && q.callback() != null ? DeliveryRecord.template(q) : "");
    }
    return send.writeScript(Script.FIRE, keys.fireKeys, args, r -> {
      List<FiringResult> out = new ArrayList<>(requests.size());
      for (int i = 0; i < requests.size(); i++) {
        long st = r.get(3 * i).toLong();
        if (st == 0) {
          out.add(FiringResult.stale());
        } else if (st < 0) {
          out.add(FiringResult.advanced());
        } else {
          FiringRequest q = requests.get(i);
          Firing f = new Firing(st, q.id(), r.get(3 * i + 1).toString(), q.firingsBefore() + 1,
              q.dueAt(), q.firedAt(), TimerRecord.payloadOf(r.get(3 * i + 2).toBytes(), 0), q.nominalAt());
          out.add(FiringResult.fired(f, q.callback() == null ? null : Delivery.pending(f, q.callback())));
        }
      }
      return out;
    });
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    if (limit < 1) {
      return Future.failedFuture(new IllegalArgumentException("limit must be >= 1, was " + limit));
    }
    if (afterSeq == Long.MAX_VALUE) {
      return Future.succeededFuture(List.of());
    }
    String start = afterSeq < 0 ? "-" : (afterSeq + 1) + "-0";
    return send.read(Request.cmd(Command.XRANGE).arg(keys.log).arg(start).arg("+").arg("COUNT").arg(limit), r -> {
      List<Firing> out = new ArrayList<>(r == null ? 0 : r.size());
      if (r == null) {
        return out;
      }
      for (Response e : r) {
        out.add(firing(e.get(0).toString(), e.get(1)));
      }
      return out;
    });
  }

  /**
   * The {@code f} field of a firing's log entry: {@code "N DUEAT FIREDAT ID"}, followed by {@code " NOMINALAT"} only
   * when the nominal time differs from the due time (a jittered timer), so a plain firing costs what it did.
   */
  private static String firingMeta(FiringRequest q) {
    String m = (q.firingsBefore() + 1) + " " + q.dueAt() + " " + q.firedAt() + " " + q.id();
    return q.nominalAt() == q.dueAt() ? m : m + " " + q.nominalAt();
  }

  /**
   * Decodes a log entry: id {@code SEQ-0}, fields f = "N DUEAT FIREDAT ID[ NOMINALAT]" (see {@link #firingMeta}; an
   * entry without it has its due time as nominal time), t = topic, p = payload segment.
   */
  private static Firing firing(String streamId, Response fields) {
    long seq = Long.parseLong(streamId.substring(0, streamId.indexOf('-')));
    String f = null;
    String topic = null;
    byte[] pseg = null;
    if (fields.isMap()) {
      f = fields.get("f").toString();
      topic = fields.get("t").toString();
      pseg = fields.get("p").toBytes();
    } else {
      for (int i = 0; i + 1 < fields.size(); i += 2) {
        switch (fields.get(i).toString()) {
          case "f" -> f = fields.get(i + 1).toString();
          case "t" -> topic = fields.get(i + 1).toString();
          case "p" -> pseg = fields.get(i + 1).toBytes();
          default -> { }
        }
      }
    }
    if (f == null || topic == null || pseg == null) {
      throw new StoreFaultException("firing log entry " + streamId + " is malformed", null, false);
    }
    String[] parts = f.split(" ");
    if (parts.length != 4 && parts.length != 5) {
      throw new StoreFaultException("firing log entry " + streamId + " is malformed", null, false);
    }
    long due = Long.parseLong(parts[1]);
    return new Firing(seq, parts[3], topic, Long.parseLong(parts[0]), due, Long.parseLong(parts[2]),
        TimerRecord.payloadOf(pseg, 0), parts.length == 5 ? Long.parseLong(parts[4]) : due);
  }

  @Override
  public Future<Long> lastSeq() {
    return send.read(Request.cmd(Command.GET).arg(keys.seqKey), r -> r == null ? 0L : r.toLong());
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call trims by count and inspects at most {@value #TRIM_BUDGET} entries by age; the store repeats
   * it (other clients run in between) until nothing is left to trim. A trim that could remove nothing is not sent
   * (answered 0): none since the last one, which reported the fire time of the next firing to age out, until this
   * store records a firing or the cutoff passes that time ({@link QuietTrim}).
   */
  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    if (quiet.skip(retention, nowMs)) {
      return Future.succeededFuture(0L);
    }
    long cutoff = retention.cutoff(nowMs);
    long writes = quiet.beforeTrim();
    return send.writeScriptUntilDone(Script.TRIM, keys.logKey, List.of(Long.toString(retention.maxCount()),
        Long.toString(cutoff), Integer.toString(TRIM_BUDGET))).map(r -> {
          quiet.trimmed(retention, writes, nowMs, r[1] < 0 ? Long.MAX_VALUE : r[1]);
          return r[0];
        }).onFailure(e -> quiet.forget());
  }
}
