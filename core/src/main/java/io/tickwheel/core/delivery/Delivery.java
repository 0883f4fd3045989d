package io.tickwheel.core.delivery;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.model.Firing;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The durable record of one firing's callback delivery. Created by the store in the same atomic write as the firing
 * (so a crash cannot record one without the other), updated by the server after each attempt. Immutable.
 *
 * <p>Its {@link #id()} ({@code msg_<seq>}, the firing's log position) is the {@code webhook-id} of every attempt: a
 * receiver may see it more than once (at least once delivery) and should deduplicate on it.
 *
 * @param seq           the firing's seq: the delivery's identity and listing order
 * @param firing        the firing delivered (its JSON is the body)
 * @param callback      the callback as it was when the timer fired (URL, timeout, attempts, backoff)
 * @param state         where it stands
 * @param attempts      the attempts made, oldest first; at most {@link #MAX_KEPT_ATTEMPTS} are kept (the oldest go)
 * @param nextAttemptAt epoch ms of the next attempt when {@link DeliveryState#PENDING}, else 0
 * @param roundStart    the attempt number before this round's first: a re-queued dead delivery gets a new round of
 *                      {@code maxAttempts}
 * @param updatedAt     epoch ms of the last change (creation, attempt, re-queue): retention of finished records
 *                      counts from it
 */
public record Delivery(long seq, Firing firing, Callback callback, DeliveryState state, List<Attempt> attempts,
    long nextAttemptAt, int roundStart, long updatedAt) {

  /** Attempts kept in a record; older ones are dropped from the list (their count stays in the numbering). */
  public static final int MAX_KEPT_ATTEMPTS = 50;

  private static final String PREFIX = "msg_";

  public Delivery {
    Objects.requireNonNull(firing, "firing");
    Objects.requireNonNull(callback, "callback");
    Objects.requireNonNull(state, "state");
    attempts = List.copyOf(attempts);
    if (seq < 1) {
      throw new IllegalArgumentException("seq must be >= 1, was " + seq);
    }
  }

  /** A new pending delivery of {@code firing} (which has its seq), first attempt at {@code firing.firedAt()}. */
  public static Delivery pending(Firing firing, Callback callback) {
    return new Delivery(firing.seq(), firing, callback, DeliveryState.PENDING, List.of(), firing.firedAt(), 0,
        firing.firedAt());
  }

  /** The id: {@code msg_<seq>}; the {@code webhook-id} header of every attempt. */
  public String id() {
    return idOf(seq);
  }

  /** The id of the delivery of the firing {@code seq}. */
  public static String idOf(long seq) {
    return PREFIX + seq;
  }

  /**
   * The id of the delivery of the firing {@code seq} of partition {@code partition} in a cluster:
   * {@code msg_<partition>_<seq>} (a seq is per partition there).
   */
  public static String idOf(int partition, long seq) {
    return PREFIX + partition + '_' + seq;
  }

  /**
   * The partition named by a cluster delivery id ({@link #idOf(int, long)}), or -1 when {@code id} is not one (a
   * single node's {@code msg_<seq>} included).
   */
  public static int partitionOf(String id) {
    int us = id == null ? -1 : id.indexOf('_', PREFIX.length());
    if (us < 0 || !id.startsWith(PREFIX) || us == PREFIX.length() || us - PREFIX.length() > 6) {
      return -1;
    }
    long p = digits(id, PREFIX.length(), us);
    return p < 0 || seqOf(PREFIX + id.substring(us + 1)) < 0 ? -1 : (int) p;
  }

  /** The seq named by a cluster delivery id ({@link #idOf(int, long)}), or -1 when {@code id} is not one. */
  public static long seqInPartitionOf(String id) {
    return partitionOf(id) < 0 ? -1 : seqOf(PREFIX + id.substring(id.indexOf('_', PREFIX.length()) + 1));
  }

  /** The decimal number in {@code s[from, to)}, without leading zeros (but "0"), or -1. */
  private static long digits(String s, int from, int to) {
    if (to - from > 18 || to <= from || (s.charAt(from) == '0' && to - from > 1)) {
      return -1;
    }
    long n = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  /** The seq named by a delivery id, or -1 when {@code id} is not one. */
  public static long seqOf(String id) {
    if (id == null || !id.startsWith(PREFIX) || id.length() == PREFIX.length() || id.length() > PREFIX.length() + 18) {
      return -1;
    }
    long s = 0;
    for (int i = PREFIX.length(); i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9' || (i == PREFIX.length() && c == '0')) {
        return -1;
      }
      s = s * 10 + (c - '0');
    }
    return s;
  }

  /** The number the next attempt gets. */
  public int nextAttemptNumber() {
    return attempts.isEmpty() ? roundStart + 1 : Math.max(roundStart, attempts.get(attempts.size() - 1).n()) + 1;
  }

  /** Attempts made in this round. */
  public int attemptsInRound() {
    return nextAttemptNumber() - 1 - roundStart;
  }

  /**
   * This delivery after {@code a}: in {@code state}, next attempt at {@code nextAt} (0 unless pending), changed at
   * {@code nowMs}.
   */
  public Delivery after(Attempt a, DeliveryState newState, long nextAt, long nowMs) {
    List<Attempt> list = new ArrayList<>(Math.min(attempts.size() + 1, MAX_KEPT_ATTEMPTS));
    int from = Math.max(0, attempts.size() + 1 - MAX_KEPT_ATTEMPTS);
    list.addAll(attempts.subList(from, attempts.size()));
    list.add(a);
    return new Delivery(seq, firing, callback, newState, list, newState == DeliveryState.PENDING ? nextAt : 0,
        roundStart, nowMs);
  }

  /** This dead delivery re-queued: pending, a new round of attempts, the next one at {@code nowMs}. */
  public Delivery requeued(long nowMs) {
    return new Delivery(seq, firing, callback, DeliveryState.PENDING, attempts, nowMs, nextAttemptNumber() - 1,
        nowMs);
  }

  /** Pending with its next attempt moved to {@code at} (not an attempt: a postponement). */
  public Delivery postponed(long at) {
    return new Delivery(seq, firing, callback, state, attempts, at, roundStart, updatedAt);
  }
}
