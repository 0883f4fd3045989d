package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.wheel.ValueCodec;
import java.util.ArrayList;
import java.util.HashMap;

/**
 * The wheel's resident form of an armed timer when the store keeps the timers off the heap: what firing needs, in
 * about a dozen bytes beside the id in the wheel's byte pages, instead of a {@link Timer} object and its strings.
 *
 * <p>A plain timer (no {@link Timer#extras()}: no calendar, jitter, end, pause or callback) is encoded as one byte of
 * kind and misfire rule, then variable-length zig-zag integers: its topic's number in this codec's topic table, its
 * {@code delayMs}, {@code periodMs}, {@code maxFirings}, {@code nextDueAt - dueAt} (the wheel's due time; 0 but for a
 * timer re-filed out of its schedule), {@code nextDueAt - createdAt}, {@code firings} and {@code generation}. The id is
 * the wheel's key and the payload is not kept (the wheel's copy is payload-less, see {@link PendingTimers}): decoding
 * gives back {@code t.withoutPayload()}, field for field. Other timers, and timers of a topic beyond the table's
 * {@value #MAX_TOPICS} topics, are kept by reference.
 *
 * <p>The topic table only grows (a topic's number must stay valid while any encoded timer names it), bounded by
 * {@value #MAX_TOPICS} entries. Owner context only (the wheel's).
 */
final class ResidentCodec implements ValueCodec<Timer> {

  /** Most topics the table numbers. */
  static final int MAX_TOPICS = 65_536;

  private static final Kind[] KINDS = Kind.values();
  private static final Misfire[] MISFIRES = Misfire.values();

  private final HashMap<String, Integer> numbers = new HashMap<>();
  private final ArrayList<String> topics = new ArrayList<>();
  /** The encoding {@link #encodedLength} made, for the {@link #encode} call that follows it. */
  private final byte[] scratch = new byte[1 + 8 * 10];
  private int scratchLength;
  private Timer scratchOf;
  private long scratchDue;
  /** Read position of {@link #decode}. */
  private int pos;

  @Override
  public int encodedLength(Timer t, long dueAtMs) {
    scratchOf = null;
    if (t == null || t.extras() != null || t.kind().ordinal() > 3 || t.misfire().ordinal() > 3) {
      return BY_REFERENCE;
    }
    int topic = number(t.topic());
    if (topic < 0) {
      return BY_REFERENCE;
    }
    byte[] b = scratch;
    b[0] = (byte) (t.kind().ordinal() | t.misfire().ordinal() << 2);
    int at = 1;
    at = zigzag(b, at, topic);
    at = zigzag(b, at, t.delayMs());
    at = zigzag(b, at, t.periodMs());
    at = zigzag(b, at, t.maxFirings());
    at = zigzag(b, at, t.nextDueAt() - dueAtMs);
    at = zigzag(b, at, t.nextDueAt() - t.createdAt());
    at = zigzag(b, at, t.firings());
    at = zigzag(b, at, t.generation());
    scratchLength = at;
    scratchOf = t;
    scratchDue = dueAtMs;
    return at;
  }

  @Override
  public void encode(Timer t, long dueAtMs, byte[] into, int offset) {
    if (scratchOf != t || scratchDue != dueAtMs) {
      encodedLength(t, dueAtMs);
    }
    System.arraycopy(scratch, 0, into, offset, scratchLength);
    scratchOf = null;
  }

  @Override
  public Timer decode(String id, long dueAtMs, byte[] b, int at) {
    int flags = b[at];
    pos = at + 1;
    String topic = topics.get((int) read(b));
    long delayMs = read(b);
    long periodMs = read(b);
    long maxFirings = read(b);
    long nextDueAt = dueAtMs + read(b);
    long createdAt = nextDueAt - read(b);
    long firings = read(b);
    long generation = read(b);
    return new Timer(id, topic, KINDS[flags & 3], delayMs, periodMs, maxFirings, MISFIRES[flags >>> 2 & 3], null,
        createdAt, nextDueAt, firings, generation);
  }

  /** The zig-zag varint at {@link #pos}; moves past it. */
  private long read(byte[] b) {
    int at = pos;
    long x = 0;
    for (int shift = 0; ; shift += 7) {
      byte y = b[at++];
      x |= (long) (y & 0x7F) << shift;
      if (y >= 0) {
        break;
      }
    }
    pos = at;
    return (x >>> 1) ^ -(x & 1);
  }

  /** Topics numbered so far (for tests). */
  int topicCount() {
    return topics.size();
  }

  private int number(String topic) {
    Integer n = numbers.get(topic);
    if (n != null) {
      return n;
    }
    if (topics.size() >= MAX_TOPICS) {
      return -1;
    }
    topics.add(topic);
    numbers.put(topic, topics.size() - 1);
    return topics.size() - 1;
  }

  private static int zigzag(byte[] b, int at, long v) {
    long x = (v << 1) ^ (v >> 63);
    while ((x & ~0x7FL) != 0) {
      b[at++] = (byte) (x | 0x80);
      x >>>= 7;
    }
    b[at++] = (byte) x;
    return at;
  }
}
