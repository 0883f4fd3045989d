package io.tickwheel.bench.load;

import java.util.BitSet;
import org.HdrHistogram.Histogram;

/**
 * The expected firings of one scenario phase: ids {@code prefix + i} for {@code i < n}, each with the due time the
 * tool scheduled. Counts lateness (receivedAt − scheduled due, ms, HdrHistogram), early firings (received before the
 * scheduled due, or reported due ≠ scheduled due earlier), duplicates, firings of ids it does not know, and
 * (by {@link #missing()}) expected ids never received, and {@link #ownLateness()} (receivedAt − the due time the
 * firing reports, which for a touched timer is the server's last touch + delay), and each timer's own lateness for
 * {@link #p99BySecond}. Memory: one long, one int and two bits per expected timer.
 * Thread safe (one lock; a firing costs a parse and a histogram record).
 */
public final class FiringTracker implements FiringSink {
  private final String prefix;
  private final long[] due;
  /** Per timer, receivedAt − scheduled due (ms, at least 0) once received. */
  private final int[] late;
  private final BitSet expected;
  private final BitSet fired;
  private final Histogram lateness = new Histogram(24L * 3600_000, 3);
  private final Histogram ownLateness = new Histogram(24L * 3600_000, 3);
  private long early;
  private long duplicates;
  private long unexpected;
  private long firstReceived = Long.MAX_VALUE;
  private long lastReceived;
  private long count;
  private int measureFrom;

  public FiringTracker(String prefix, int n) {
    this.prefix = prefix;
    this.due = new long[n];
    this.late = new int[n];
    this.expected = new BitSet(n);
    this.fired = new BitSet(n);
  }

  /**
   * Keeps timers {@code i < from} (a warm-up lead) out of the lateness histogram; they are still checked for early,
   * missing and duplicate firings.
   */
  public synchronized FiringTracker measureFrom(int from) {
    this.measureFrom = from;
    return this;
  }

  /** What every tracked id starts with (timer {@code i} is this followed by {@code i}). */
  public String prefix() {
    return prefix;
  }

  /** The id of timer {@code i}. */
  public String id(int i) {
    return prefix + i;
  }

  /** Records that timer {@code i} was (or is about to be) scheduled for {@code dueAtMs}. */
  public synchronized void expect(int i, long dueAtMs) {
    due[i] = dueAtMs;
    expected.set(i);
  }

  @Override
  public void fired(String id, long dueAtMs, long receivedAtMs) {
    int i = index(id);
    synchronized (this) {
      if (i < 0 || !expected.get(i)) {
        unexpected++;
        return;
      }
      if (fired.get(i)) {
        duplicates++;
        return;
      }
      fired.set(i);
      count++;
      long scheduled = due[i];
      long late = receivedAtMs - scheduled;
      if (late < 0 || dueAtMs < scheduled) {
        early++;
      }
      this.late[i] = (int) Math.min(Integer.MAX_VALUE, Math.max(0, late));
      if (i >= measureFrom) {
        lateness.recordValue(Math.max(0, late));
        ownLateness.recordValue(Math.max(0, receivedAtMs - dueAtMs));
      }
      firstReceived = Math.min(firstReceived, receivedAtMs);
      lastReceived = Math.max(lastReceived, receivedAtMs);
    }
  }

  private int index(String id) {
    if (!id.startsWith(prefix)) {
      return -1;
    }
    try {
      int i = Integer.parseInt(id, prefix.length(), id.length(), 10);
      return i >= 0 && i < due.length ? i : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public synchronized long received() {
    return count;
  }

  public synchronized long expectedCount() {
    return expected.cardinality();
  }

  public synchronized long missing() {
    BitSet m = (BitSet) expected.clone();
    m.andNot(fired);
    return m.cardinality();
  }

  public synchronized long early() {
    return early;
  }

  public synchronized long duplicates() {
    return duplicates;
  }

  public synchronized long unexpected() {
    return unexpected;
  }

  public synchronized long lastReceivedAt() {
    return lastReceived;
  }

  public synchronized long firstReceivedAt() {
    return firstReceived;
  }

  /**
   * The lateness p99 (ms) of the received timers of each run of {@code perSecond} indexes from 0 (of a stream at
   * {@code perSecond} timers/s: each second of it, warm-up included), space separated: how the tail settles.
   */
  public synchronized String p99BySecond(int perSecond) {
    StringBuilder b = new StringBuilder();
    for (int from = 0; from < late.length; from += perSecond) {
      Histogram h = new Histogram(24L * 3600_000, 2);
      for (int i = from; i < Math.min(late.length, from + perSecond); i++) {
        if (fired.get(i)) {
          h.recordValue(late[i]);
        }
      }
      b.append(b.length() == 0 ? "" : " ").append(h.getTotalCount() == 0 ? "-" : Long.toString(h.getValueAtPercentile(99)));
    }
    return b.toString();
  }

  /** A copy of the histogram of receivedAt − the firing's own reported due time (ms). */
  public synchronized Histogram ownLateness() {
    return ownLateness.copy();
  }

  /** A copy of the lateness histogram (ms). */
  public synchronized Histogram lateness() {
    return lateness.copy();
  }
}
